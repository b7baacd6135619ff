import CPhotosMedia
import Foundation

/// Reads a media file's metadata: images with libvips (and libexif for their
/// EXIF block), camera raw files with exiftool, videos with ffprobe.
package enum MediaProbe {
    /// Reads the metadata of the file at `url`, fully decoding a small
    /// rendition of images so that a truncated or corrupt file is refused
    /// here rather than later.
    ///
    /// Cost: one header read, a shrink-on-load decode (a few milliseconds
    /// for a camera JPEG); for videos, one ffprobe process.
    /// `verifiesDecoding: false` skips the trial decode, for callers that
    /// decode the image anyway (making its derivative proves it decodes).
    /// `originalName` is the name the file had before it was copied, which
    /// screenshot tools choose; the file's own name otherwise.
    package static func probe(fileAt url: URL, verifiesDecoding: Bool = true, originalName: String? = nil) throws(MediaError) -> MediaMetadata {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MediaError(file: path, reason: "no such file")
        }
        guard isRegularFile(url) else {
            throw MediaError(file: path, reason: "not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw MediaError(file: path, reason: "the file is not readable")
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_size == 0 {
            throw MediaError(file: path, reason: "the file is empty")
        }
        let name = originalName ?? url.lastPathComponent
        if CameraRaw.isCandidate(url) {
            return try CameraRaw.probe(fileAt: url, name: name)
        }
        let head =
            (try? FileHandle(forReadingFrom: url)).map { handle in
                defer { try? handle.close() }
                return (try? handle.read(upToCount: 256)) ?? Data()
            } ?? Data()
        if let document = FolderEntries.document(head: head) {
            throw MediaError(file: path, reason: "\(document), not a photo or video")
        }
        // A video container is a video's first: ImageMagick, behind libvips,
        // would take a Motion-JPEG AVI for an animated image, frame by frame.
        if isVideoContainer(head), var video = try VideoProbe.probe(path: path, head: head) {
            video.isSpatial = SpatialMedia.isSpatial(fileAt: path)
            return dated(video, name: name)
        }
        if let image = try probeImage(path: path, head: head, verifiesDecoding: verifiesDecoding, name: name) {
            return image
        }
        if let video = try VideoProbe.probe(path: path, head: head) {
            return dated(video, name: name)
        }
        throw MediaError(file: path, reason: "not an image or video file that can be read")
    }

    /// A video dated by its name when its container records no creation
    /// time and a phone named it by the time it was taken; either time is
    /// placed in the zone of where it was taken (``CaptureTime/placed(in:isClockReading:)``).
    private static func dated(_ video: MediaMetadata, name: String) -> MediaMetadata {
        var video = video
        video.isScreenRecording = isScreenRecordingName(name)
        var time = video.captureDate.map { CaptureTime(date: $0, utcOffset: video.captureTimeZoneOffset) }
        if time == nil, let named = CaptureTime.fromFileName(name) {
            time = named
            video.isDatedByName = true
        }
        guard let time else { return video }
        let placed = time.placed(in: zone(of: video.location), isClockReading: video.isDatedByName)
        (video.captureDate, video.captureTimeZoneOffset) = (placed.date, placed.utcOffset)
        return video
    }

    /// The time zone where a photo or video was taken, from its position.
    private static func zone(of location: MediaLocation?) -> TimeZone? {
        location.flatMap { TimeZoneLocator.zone(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// Whether a file's first bytes are those of a video container: the
    /// video types the library names (ISO media whose brand is not an
    /// image's, AVI, Matroska and WebM, MPEG transport streams), and Flash,
    /// MPEG program streams and ASF, which it has no type of its own for.
    private static func isVideoContainer(_ head: Data) -> Bool {
        if UniformType.videoType(head: head) != nil { return true }
        let bytes = [UInt8](head.prefix(8))
        return bytes.starts(with: Array("FLV".utf8)) || bytes.starts(with: [0x00, 0x00, 0x01, 0xBA])
            || bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11])
    }

    /// Whether the file, symbolic links followed, is a regular file: a pipe
    /// or a device would block a read or never end it. One `stat`, where
    /// Foundation's attributes would also read the system's account files.
    package static func isRegularFile(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The largest image accepted, in megapixels: above the largest camera
    /// sensors (200 MP), far below what would exhaust memory to decode. Every
    /// decode also keeps to a memory budget and a time limit (`PM_DECODE_*`).
    package static let maximumMegapixels = Double(PM_MAXIMUM_MEGAPIXELS)

    /// The EXIF orientation (1...8) of an image file's stored pixels; nil
    /// when it is not an image libvips reads. Cost: a header read.
    package static func orientation(ofImageAt url: URL) -> Int? {
        guard Vips.isReady else { return nil }
        var header = pm_image_header()
        var exif: UnsafeMutableRawPointer?
        var length = 0
        guard Vips.succeeds({ pm_probe_file(url.path, &header, &exif, &length) }) else { return nil }
        pm_free(exif)
        return Int(header.orientation)
    }

    /// nil when libvips does not recognise the file as an image.
    private static func probeImage(path: String, head: Data, verifiesDecoding: Bool, name: String) throws(MediaError) -> MediaMetadata? {
        guard Vips.isReady else { throw MediaError(file: path, reason: "libvips failed to initialise") }
        var header = pm_image_header()
        var exifBytes: UnsafeMutableRawPointer?
        var exifLength = 0
        guard Vips.succeeds({ pm_probe_file(path, &header, &exifBytes, &exifLength) }) else { return nil }
        defer { pm_free(exifBytes) }
        let loader = withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        // Pages and drawings render, but are not photos.
        if loader.hasPrefix("pdfload") || loader.hasPrefix("svgload") {
            throw MediaError(file: path, reason: "\(loader.hasPrefix("pdf") ? "a PDF document" : "an SVG drawing"), not a photo or video")
        }
        // Checked from the header, before anything is decoded: a small file can claim an enormous image.
        let megapixels = Double(header.width) * Double(header.height) / 1_000_000
        guard megapixels <= maximumMegapixels else {
            throw MediaError(
                file: path,
                reason: "the image claims \(header.width) × \(header.height) pixels, "
                    + "over the \(Int(maximumMegapixels))-megapixel limit")
        }
        if verifiesDecoding, let failure = Vips.run({ pm_verify_decodes(path) }) {
            throw MediaError(file: path, reason: "the image cannot be decoded: \(failure)")
        }
        var exif = exifBytes.flatMap { ExifFields(block: UnsafeRawBufferPointer(start: $0, count: exifLength)) }
        var otherCaptureTimes: [CaptureTime] = []
        var descriptive = DescriptiveMetadata()
        if needsExifTool(loader: loader, exif: exif, path: path), ExifToolSession.shared.isAvailable,
            let embedded = try? EmbeddedMetadata.read(fileAt: path)
        {
            exif = (exif ?? ExifFields()).filling(from: embedded.exif)
            otherCaptureTimes = embedded.otherCaptureTimes
            descriptive = embedded.descriptive
        }
        // libheif applies HEIF rotation itself, so its pixels are already upright.
        let orientation = loader.hasPrefix("heif") ? 1 : Int(header.orientation)
        // Pages are frames only in formats that animate: a HEIF's several
        // images (a burst, a depth map's companion) and a TIFF's pages are not an animation.
        let animates = loader.hasPrefix("gif") || loader.hasPrefix("webp")
        var still = stillImage(
            storedWidth: Int(header.width), storedHeight: Int(header.height), orientation: orientation,
            exif: exif, otherCaptureTimes: otherCaptureTimes, frameCount: animates ? max(1, Int(header.pages)) : 1, hasAlpha: header.has_alpha != 0,
            uniformTypeIdentifier: UniformType.forImage(loader: loader, head: head, pathExtension: URL(fileURLWithPath: path).pathExtension),
            name: name)
        still.descriptive = descriptive
        still.isSpatial = loader.hasPrefix("heif") && SpatialMedia.isSpatial(fileAt: path)
        return still
    }

    /// Whether exiftool may find what libexif did not. A JPEG's EXIF is
    /// read in-process, and says all unless it lacks a date or place that
    /// the JPEG's XMP or IPTC might give, or it has IPTC, or XMP that
    /// rates, captions or tags it: camera JPEGs cost no request. Other
    /// containers are asked of exiftool: XMP and IPTC, and EXIF where
    /// libvips does not reach it.
    static func needsExifTool(loader: String, exif: ExifFields?, path: String) -> Bool {
        guard loader.hasPrefix("jpegload") else { return true }
        if exif?.captureTime == nil || exif?.latitude == nil, JPEGSegments.hasXMPOrIPTC(fileAt: path) { return true }
        return JPEGSegments.hasDescriptiveMetadata(fileAt: path)
    }

    /// The metadata of a still image from its stored size, orientation and
    /// EXIF fields. Its capture time is the first of: EXIF's
    /// DateTimeOriginal (or DateTimeDigitized) with its offset, XMP's and
    /// IPTC's (`otherCaptureTimes`), the date in its name as phones write
    /// it, EXIF's DateTime. None leaves it to the file's own time.
    static func stillImage(
        storedWidth: Int, storedHeight: Int, orientation: Int, exif: ExifFields?,
        otherCaptureTimes: [CaptureTime] = [], frameCount: Int,
        hasAlpha: Bool, uniformTypeIdentifier: String, name: String
    ) -> MediaMetadata {
        let swapsAxes = (5...8).contains(orientation)
        let recorded = exif?.captureTime ?? otherCaptureTimes.first
        let named = recorded == nil ? CaptureTime.fromFileName(name) : nil
        let location = exif.flatMap { fields -> MediaLocation? in
            guard let latitude = fields.latitude, let longitude = fields.longitude,
                !(latitude == 0 && longitude == 0)
            else { return nil }
            return MediaLocation(
                latitude: latitude, longitude: longitude, altitude: fields.altitude,
                timestamp: fields.gpsTimestamp, speed: fields.gpsSpeed,
                course: fields.gpsDirection, horizontalAccuracy: fields.horizontalError)
        }
        // A still's times are clock readings: without an offset, the clock was the place's.
        let capture = (recorded ?? named ?? exif?.modificationTime)?.placed(in: zone(of: location), isClockReading: true)
        var metadata = MediaMetadata(
            kind: .image,
            pixelWidth: swapsAxes ? storedHeight : storedWidth,
            pixelHeight: swapsAxes ? storedWidth : storedHeight,
            orientation: orientation,
            captureDate: capture?.date,
            captureTimeZoneOffset: capture?.utcOffset,
            location: location,
            cameraMake: exif?.make,
            cameraModel: exif?.model,
            lensModel: exif?.lensModel,
            software: exif?.software,
            customRendered: exif?.customRendered,
            exposureTime: exif?.exposureTime,
            frameCount: frameCount,
            hasAlpha: hasAlpha,
            uniformTypeIdentifier: uniformTypeIdentifier,
            contentIdentifier: exif?.contentIdentifier,
            burstIdentifier: exif?.burstIdentifier,
            isScreenshot: exif?.userComment == "Screenshot" || (exif?.make == nil && Self.isScreenshotName(name)))
        metadata.isDatedByName = named != nil
        return metadata
    }

    /// Names screen recorders give their videos: macOS's "Screen Recording
    /// 2024-…", Android's "Screen_Recording_…" and "screen-…" recorders',
    /// "ScreenRecorder…", "record_screen…".
    static func isScreenRecordingName(_ name: String) -> Bool {
        let name = name.lowercased()
        return ["screen recording", "screen_recording", "screen-recording", "screenrecording", "screenrecorder", "record_screen"]
            .contains { name.hasPrefix($0) }
    }

    /// Names screenshot tools give: "Screenshot 2024-...", "Screen Shot ...", "Screenshot_...".
    private static func isScreenshotName(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.hasPrefix("screenshot") || name.hasPrefix("screen shot")
    }
}
