import Foundation

/// Frames of videos, with ffmpeg: what an image request for a video shows.
package enum VideoFrame {
    private static let ffmpeg = ExternalTool(name: "ffmpeg", package: "ffmpeg")

    /// A JPEG of the video's first frame at full size, upright (ffmpeg
    /// applies the rotation the file records), tone-mapped to standard
    /// range when the video is HDR. `dynamicRange` is the video's, as its
    /// probe found it; nil to find it here. Cost: one ffmpeg process, about
    /// 50 ms for a 1080p clip; when `dynamicRange` is nil, one ffprobe too.
    package static func poster(ofVideoAt url: URL, dynamicRange: DynamicRange? = nil) throws(MediaError) -> Data {
        let range = if let dynamicRange { dynamicRange } else { try DynamicRange.ofVideo(at: url) }
        let filter = range.toneMappingFilter.map { ["-vf", $0] } ?? []
        let jpeg = try ffmpeg.run(
            ["-v", "error", "-i", url.path, "-frames:v", "1"] + filter + [
                "-q:v", "3",
                "-f", "image2pipe", "-vcodec", "mjpeg", "pipe:1",
            ], about: url.path)
        guard jpeg.count > 4, jpeg.prefix(2) == Data([0xFF, 0xD8]) else {
            throw MediaError(file: url.path, reason: "ffmpeg could not read a frame of the video")
        }
        return jpeg
    }
}
