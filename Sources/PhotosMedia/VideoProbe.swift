import Foundation

/// Reads video metadata: of the ISO media files phones and most cameras
/// write (MOV, MP4, M4V, 3GP), through the running exiftool
/// (``ExifToolSession``), a few milliseconds; of any other container, or
/// when exiftool finds no video track in one, with ffprobe (Debian's ffmpeg
/// package), a process of its own (about 60 ms, mostly loading its
/// libraries). Both read the container only: the shown video's first frame,
/// decoded by ffmpeg for its poster, proves it plays.
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

    /// The containers exiftool reads every field of that a video's metadata
    /// needs, as ffprobe reads them (``isoMediaIsReadAsFFprobeReadsIt`` in
    /// the tests holds the two readings together). Matroska, WebM and MPEG
    /// transport and program streams are not among them: exiftool reads no
    /// HDR transfer from the first two, and estimates the others' duration,
    /// or gives none.
    private enum Container {
        case isoMedia, avi

        init?(type: String) {
            switch type {
            case "com.apple.quicktime-movie", "public.mpeg-4", "com.apple.m4v-video", "public.3gpp", "public.3gpp2": self = .isoMedia
            case "public.avi": self = .avi
            default: return nil
            }
        }
    }

    /// nil when the file, whose first bytes are `head`, holds no video stream.
    static func probe(path: String, head: Data) throws(MediaError) -> MediaMetadata? {
        if let type = UniformType.videoType(head: head), let container = Container(type: type), ExifToolSession.shared.isAvailable,
            let video = try? probeWithExifTool(path: path, type: type, container: container)
        {
            return video
        }
        return try probeWithFFprobe(path: path, head: head)
    }

    /// What exiftool reads of the file's video track and of its container's
    /// tags (QuickTime's, MP4's and Apple's keys; RIFF's), as
    /// ffprobe's reading gives it; nil when it finds no video track with a
    /// size and a duration.
    private static func probeWithExifTool(path: String, type: String, container: Container) throws(MediaError) -> MediaMetadata? {
        let fields = try ExifToolSession.shared.fields(
            ofFileAt: path,
            arguments: [
                "-n", "-G1", "-u", "-HandlerType", "-SourceImageWidth", "-SourceImageHeight", "-ImageWidth", "-ImageHeight",
                "-Rotation", "-Duration", "-VideoFrameRate", "-CreationDate", "-CreateDate", "-GPSCoordinates",
                "-Location", "-ContentIdentifier", "-Make", "-Model", "-Software", "-Encoder", "-AndroidCaptureFps",
                "-TransferCharacteristics", "-ApplePhotosVariationIdentifier",
            ])
        func number(_ key: String) -> Double? {
            let value = fields[key] as? NSNumber
            return value.map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil }
        }
        func text(_ name: String, groups: [String]) -> String? {
            groups.lazy.compactMap { fields["\($0):\(name)"].map { "\($0)" } }.first { !$0.isEmpty }
        }
        /// The group of the first video track ("Track2:HandlerType": "vide").
        func videoTrack() -> String? {
            fields.keys.filter { $0.hasPrefix("Track") && $0.hasSuffix(":HandlerType") && fields[$0] as? String == "vide" }
                .compactMap { $0.split(separator: ":").first.map(String.init) }
                .min { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        }
        let track: String
        let duration: Double?
        switch container {
        case .isoMedia:
            guard let video = videoTrack() else { return nil }
            (track, duration) = (video, number("QuickTime:Duration"))
        case .avi:
            (track, duration) = ("RIFF", number("Composite:Duration"))
        }
        // The coded size, as ffprobe gives it (the track header's is the display size, stretched by the pixel aspect).
        guard let width = (number("\(track):SourceImageWidth") ?? number("\(track):ImageWidth")).map(Int.init),
            let height = (number("\(track):SourceImageHeight") ?? number("\(track):ImageHeight")).map(Int.init),
            width > 0, height > 0, let duration, duration > 0
        else { return nil }
        let tagGroups = ["Keys", "UserData", "ItemList"]
        return Reading(
            width: width, height: height, rotation: container == .isoMedia ? number("Composite:Rotation") ?? 0 : 0,
            capture: text("CreationDate", groups: tagGroups).flatMap { CaptureTime.parse($0) }
                ?? utcCreation(text("CreateDate", groups: ["QuickTime"]).flatMap { CaptureTime.parse($0, offset: "+00:00") }),
            location: text("GPSCoordinates", groups: tagGroups).flatMap(location(coordinates:))
                ?? text("Location", groups: ["Keys"]).flatMap(location(iso6709:)),
            make: text("Make", groups: tagGroups), model: text("Model", groups: tagGroups),
            software: text("Software", groups: ["Keys"]) ?? text("Encoder", groups: tagGroups),
            duration: duration, frameRate: number("\(track):VideoFrameRate").flatMap { $0 > 0 ? $0 : nil },
            captureFrameRate: number("Keys:AndroidCaptureFps"), type: type,
            contentIdentifier: text("ContentIdentifier", groups: ["Keys"]),
            livePhotoEffect: text("ApplePhotosVariationIdentifier", groups: ["Keys"]).flatMap(LivePhotoEffect.init(variationIdentifier:)),
            dynamicRange: DynamicRange(transferCharacteristics: number("\(track):TransferCharacteristics").map(Int.init))
        ).metadata
    }

    /// GPS coordinates as exiftool writes them with `-n`: "latitude longitude [altitude]".
    private static func location(coordinates text: String) -> MediaLocation? {
        let numbers = text.split(separator: " ").compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return MediaLocation(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
    }

    static func probeWithFFprobe(path: String, head: Data) throws(MediaError) -> MediaMetadata? {
        let output = try ffprobe.run(["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], about: path)
        guard let report = try? JSONDecoder().decode(Report.self, from: output),
            let video = report.streams?.first(where: { $0.codec_type == "video" }),
            let width = video.width, let height = video.height, width > 0, height > 0
        else {
            return nil
        }
        // A file's numbers are data: "nan", "inf" or 1e300 in a tag are no duration or rotation.
        let duration = Double(report.format?.duration ?? video.duration ?? "").flatMap { $0.isFinite ? $0 : nil } ?? 0
        // Still images come through ffprobe as one-frame "video"; only real videos count.
        guard duration > 0 else { return nil }
        let tags = (report.format?.tags ?? [:]).merging(video.tags ?? [:], uniquingKeysWith: { format, _ in format })
        return Reading(
            width: width, height: height,
            rotation: video.side_data_list?.compactMap(\.rotation).first ?? video.tags?["rotate"].flatMap(Double.init) ?? 0,
            capture: tags["com.apple.quicktime.creationdate"].flatMap { CaptureTime.parse($0) }
                ?? utcCreation(tags["creation_time"].flatMap { CaptureTime.parse($0) }),
            location: (tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"]).flatMap(location(iso6709:)),
            make: tags["com.apple.quicktime.make"] ?? tags["make"], model: tags["com.apple.quicktime.model"] ?? tags["model"],
            software: tags["com.apple.quicktime.software"] ?? tags["encoder"],
            duration: duration, frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
            captureFrameRate: tags["com.android.capture.fps"].flatMap(Double.init),
            type: UniformType.forVideo(head: head, pathExtension: URL(fileURLWithPath: path).pathExtension),
            contentIdentifier: tags["com.apple.quicktime.content.identifier"],
            livePhotoEffect: tags[LivePhotoEffect.videoMetadataKey].flatMap(LivePhotoEffect.init(variationIdentifier:)),
            dynamicRange: DynamicRange(ffprobeTransfer: video.color_transfer)
        ).metadata
    }

    /// What either reader found of a video, made into its metadata in one place.
    private struct Reading {
        var width: Int
        var height: Int
        /// Degrees the picture is turned by, as the file records it.
        var rotation: Double
        var capture: CaptureTime?
        var location: MediaLocation?
        var make: String?
        var model: String?
        var software: String?
        var duration: Double
        var frameRate: Double?
        var captureFrameRate: Double?
        var type: String
        var contentIdentifier: String?
        var livePhotoEffect: LivePhotoEffect?
        var dynamicRange: DynamicRange

        /// The metadata, its size upright: a quarter turn either way swaps
        /// width and height. A file's numbers are data: a rotation of "nan",
        /// "inf" or 1e300 is none.
        var metadata: MediaMetadata {
            let quarterTurns = rotation.isFinite ? Int((rotation.truncatingRemainder(dividingBy: 360) / 90).rounded()) & 3 : 0
            var metadata = MediaMetadata(
                kind: .video, pixelWidth: quarterTurns % 2 == 1 ? height : width, pixelHeight: quarterTurns % 2 == 1 ? width : height,
                captureDate: capture?.date, captureTimeZoneOffset: capture?.utcOffset, location: location,
                cameraMake: make, cameraModel: model, software: software, duration: duration, frameRate: frameRate,
                captureFrameRate: captureFrameRate, uniformTypeIdentifier: type, contentIdentifier: contentIdentifier)
            metadata.dynamicRange = dynamicRange
            metadata.livePhotoEffect = livePhotoEffect
            return metadata
        }
    }

    /// A container's UTC creation time (MP4's, QuickTime's), kept as an
    /// instant with no offset of its own; none when it is zero (1904 or
    /// 1970: the muxer knew no time).
    private static func utcCreation(_ time: CaptureTime?) -> CaptureTime? {
        guard let time, time.date > Date(timeIntervalSince1970: 86_400) else { return nil }
        return CaptureTime(date: time.date, utcOffset: nil)
    }

    private static func frameRate(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2,
            let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0, numerator > 0
        else {
            return nil
        }
        return numerator / denominator
    }

    /// ISO 6709 as QuickTime writes it: "+48.8584+002.2945+035.000/".
    private static func location(iso6709 text: String) -> MediaLocation? {
        let numbers = text.matches(of: /[+-]\d+(?:\.\d+)?/).compactMap { Double(text[$0.range]) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return MediaLocation(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
    }
}
