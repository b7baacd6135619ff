import Foundation

/// Videos as a web browser plays them. Chromium and Firefox on Linux play
/// H.264, VP8, VP9 and AV1 video with AAC, MP3, Opus or Vorbis sound, in
/// MP4 or WebM; not HEVC (every iPhone video), MPEG-4 Part 2 (3GP), MPEG
/// transport streams (camcorders' MTS) or AVI. Those get an H.264/AAC MP4
/// made by ffmpeg, with its index first (`faststart`) so that playback and
/// seeking start before the whole file is read.
package enum PlayableVideo {
    private static let ffprobe = ExternalTool(name: "ffprobe", package: "ffmpeg")
    private static let ffmpeg = ExternalTool(name: "ffmpeg", package: "ffmpeg")

    private static let playableContainers: Set<String> = ["mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"]
    private static let playableVideoCodecs: Set<String> = ["h264", "vp8", "vp9", "av1"]
    private static let playableAudioCodecs: Set<String> = ["aac", "mp3", "opus", "vorbis"]

    /// The longest edge of a made rendition: full HD.
    package static let longestEdge = 1920

    /// Whether browsers play the file as it is. A QuickTime or 3GP brand
    /// with H.264 plays in Chromium too, as the container is the same ISO
    /// media; Matroska other than WebM does not.
    /// Cost: one ffprobe process.
    package static func isBrowserPlayable(fileAt url: URL) throws(MediaError) -> Bool {
        let output = try ffprobe.run(
            [
                "-v", "error", "-print_format", "json", "-show_entries",
                "format=format_name:stream=codec_type,codec_name,pix_fmt", url.path,
            ], about: url.path)
        struct Report: Decodable {
            struct Stream: Decodable {
                var codec_type: String?
                var codec_name: String?
                var pix_fmt: String?
            }
            struct Format: Decodable { var format_name: String? }
            var streams: [Stream]?
            var format: Format?
        }
        guard let report = try? JSONDecoder().decode(Report.self, from: output), let format = report.format?.format_name else {
            throw MediaError(file: url.path, reason: "ffprobe cannot read the video")
        }
        let streams = report.streams ?? []
        guard playableContainers.contains(format),
            let video = streams.first(where: { $0.codec_type == "video" }),
            playableVideoCodecs.contains(video.codec_name ?? ""),
            // 10-bit and 4:2:2 H.264 are not played by browsers' decoders.
            ["yuv420p", "yuvj420p"].contains(video.pix_fmt ?? "") || video.codec_name != "h264"
        else { return false }
        if format == "matroska,webm", let head = try? FileHandle(forReadingFrom: url).read(upToCount: 64),
            UniformType.sniffExtension(of: head) != "webm"
        {
            return false
        }
        return streams.filter { $0.codec_type == "audio" }.allSatisfy { playableAudioCodecs.contains($0.codec_name ?? "") }
    }

    /// Writes an H.264/AAC MP4 of the video at `source` to `destination`:
    /// upright (the rotation the file records is applied), at most
    /// ``longestEdge`` pixels long, 8-bit 4:2:0, tone-mapped to BT.709 when
    /// it is HDR (``DynamicRange``), its first sound track in stereo, its
    /// index first. Cost: one ffprobe, then one ffmpeg process at low
    /// priority, about real time for a 1080p phone video on one core.
    package static func make(from source: URL, to destination: URL) throws(MediaError) {
        let edge = longestEdge
        let scale = "scale=w='if(gte(iw,ih),min(\(edge),iw),-2)':h='if(gte(iw,ih),-2,min(\(edge),ih))'"
        let toneMapping = try DynamicRange.ofVideo(at: source).toneMappingFilter
        let filters = (toneMapping.map { [$0] } ?? []) + [scale, "format=yuv420p"]
        let colour = toneMapping == nil ? [] : ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]
        _ = try ffmpeg.run(
            [
                "-nostdin", "-v", "error", "-y", "-i", source.path, "-map", "0:v:0", "-map", "0:a:0?",
                "-vf", filters.joined(separator: ","),
            ] + colour + [
                "-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
                "-profile:v", "high", "-c:a", "aac", "-b:a", "128k", "-ac", "2",
                "-movflags", "+faststart", "-map_metadata", "-1", "-f", "mp4", destination.path,
            ],
            about: source.path, niceness: 10, requiresSuccess: true)
    }
}
