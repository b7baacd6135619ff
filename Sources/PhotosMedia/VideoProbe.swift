import Foundation

/// Reads video metadata with ffprobe (Debian's ffmpeg package).
enum VideoProbe {
    private struct Report: Decodable {
        struct Stream: Decodable {
            var codec_type: String?
            var width: Int?
            var height: Int?
            var avg_frame_rate: String?
            var r_frame_rate: String?
            var duration: String?
            var color_transfer: String?
            var tags: [String: String]?
            var side_data_list: [SideData]?
        }
        struct SideData: Decodable {
            var rotation: Double?
        }
        struct Format: Decodable {
            var duration: String?
            var tags: [String: String]?
        }
        var streams: [Stream]?
        var format: Format?
    }

    private static let ffprobe = ExternalTool(name: "ffprobe", package: "ffmpeg")

    /// nil when ffprobe finds no video stream in the file, whose first bytes are `head`.
    static func probe(path: String, head: Data) throws(MediaError) -> MediaMetadata? {
        let output = try ffprobe.run(["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], about: path)
        guard let report = try? JSONDecoder().decode(Report.self, from: output),
              let video = report.streams?.first(where: { $0.codec_type == "video" }),
              let width = video.width, let height = video.height, width > 0, height > 0 else {
            return nil
        }
        // A file's numbers are data: "nan", "inf" or 1e300 in a tag are no duration or rotation.
        let duration = Double(report.format?.duration ?? video.duration ?? "").flatMap { $0.isFinite ? $0 : nil } ?? 0
        // Still images come through ffprobe as one-frame "video"; only real videos count.
        guard duration > 0 else { return nil }
        let rotation = video.side_data_list?.compactMap(\.rotation).first
            ?? video.tags?["rotate"].flatMap(Double.init) ?? 0
        let quarterTurns = rotation.isFinite ? Int((rotation.truncatingRemainder(dividingBy: 360) / 90).rounded()) & 3 : 0
        let tags = (report.format?.tags ?? [:]).merging(video.tags ?? [:], uniquingKeysWith: { format, _ in format })
        let capture = captureDate(tags)
        var metadata = MediaMetadata(
            kind: .video,
            pixelWidth: quarterTurns % 2 == 1 ? height : width,
            pixelHeight: quarterTurns % 2 == 1 ? width : height,
            captureDate: capture?.date,
            captureTimeZoneOffset: capture?.utcOffset,
            location: location(tags),
            cameraMake: tags["com.apple.quicktime.make"] ?? tags["make"],
            cameraModel: tags["com.apple.quicktime.model"] ?? tags["model"],
            software: tags["com.apple.quicktime.software"] ?? tags["encoder"],
            duration: duration,
            frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
            captureFrameRate: tags["com.android.capture.fps"].flatMap(Double.init),
            uniformTypeIdentifier: UniformType.forVideo(head: head, pathExtension: URL(fileURLWithPath: path).pathExtension),
            contentIdentifier: tags["com.apple.quicktime.content.identifier"])
        metadata.dynamicRange = DynamicRange(ffprobeTransfer: video.color_transfer)
        return metadata
    }

    private static func frameRate(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2,
              let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0, numerator > 0 else {
            return nil
        }
        return numerator / denominator
    }

    /// QuickTime's creation date keeps the recording's UTC offset; MP4's
    /// creation_time is UTC, and a zero one (1904 or 1970: the muxer knew no
    /// time) says nothing.
    private static func captureDate(_ tags: [String: String]) -> CaptureTime? {
        if let time = tags["com.apple.quicktime.creationdate"].flatMap({ CaptureTime.parse($0) }) {
            return time
        }
        guard let time = tags["creation_time"].flatMap({ CaptureTime.parse($0) }),
              time.date > Date(timeIntervalSince1970: 86_400) else { return nil }
        return CaptureTime(date: time.date, utcOffset: nil)
    }

    /// ISO 6709 as QuickTime writes it: "+48.8584+002.2945+035.000/".
    private static func location(_ tags: [String: String]) -> MediaLocation? {
        guard let text = tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"] else { return nil }
        let numbers = text.matches(of: /[+-]\d+(?:\.\d+)?/).compactMap { Double(text[$0.range]) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return MediaLocation(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
    }
}
