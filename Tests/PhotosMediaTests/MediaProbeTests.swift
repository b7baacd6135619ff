import CPhotosMedia
import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

@Suite struct MediaProbeTests {
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("media")
    }

    private func write(_ data: Data, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func readsDateOffsetGPSAndCameraFromEXIF() throws {
        var exif = ExifFields()
        exif.dateTimeOriginal = "2019:07:14 16:30:05"
        exif.offsetTimeOriginal = "+02:00"
        exif.make = "Fujifilm"
        exif.model = "X-T3"
        exif.latitude = 46.5586
        exif.longitude = -7.8346
        exif.altitude = 2061.5
        let url = try write(try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50), exif: exif), "a.jpg")

        let metadata = try MediaProbe.probe(fileAt: url)

        #expect(metadata.kind == .image)
        #expect(metadata.pixelWidth == 64 && metadata.pixelHeight == 48)
        #expect(metadata.uniformTypeIdentifier == "public.jpeg")
        #expect(metadata.captureDate == ISO8601DateFormatter().date(from: "2019-07-14T14:30:05Z"))
        #expect(metadata.captureTimeZoneOffset == 7200)
        #expect(metadata.cameraMake == "Fujifilm" && metadata.cameraModel == "X-T3")
        let location = try #require(metadata.location)
        #expect(abs(location.latitude - 46.5586) < 1e-4)
        #expect(abs(location.longitude + 7.8346) < 1e-4)
        #expect(abs((location.altitude ?? 0) - 2061.5) < 0.01)
    }

    /// The shortcut that spares camera JPEGs a request to exiftool, checked
    /// against exiftool itself: where it skips, exiftool finds no other
    /// date; where XMP or IPTC is there, it asks.
    @Test func cameraJPEGsSkipExifToolOnlyWhenItWouldFindNothingMore() throws {
        var dated = ExifFields()
        dated.dateTimeOriginal = "2019:07:14 16:30:05"
        let camera = try write(try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50), exif: dated), "camera.jpg")
        let plain = try write(try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50)), "plain.jpg")
        let tagged = directory.appendingPathComponent("tagged.jpg")
        try FileManager.default.copyItem(at: plain, to: tagged)
        try DebianTool.run("exiftool", ["-q", "-overwrite_original", "-XMP-photoshop:DateCreated=2020-06-08T00:30:00", tagged.path])
        let iptc = directory.appendingPathComponent("iptc.jpg")
        try FileManager.default.copyItem(at: plain, to: iptc)
        try DebianTool.run("exiftool", ["-q", "-overwrite_original", "-IPTC:DateCreated=2018:05:04", iptc.path])
        for (file, exif, asks) in [(camera, dated, false), (plain, nil, false), (tagged, nil, true), (iptc, nil, true)] {
            #expect(MediaProbe.needsExifTool(loader: "jpegload", exif: exif, path: file.path) == asks, "\(file.lastPathComponent)")
            #expect(try EmbeddedMetadata.read(fileAt: file.path).otherCaptureTimes.isEmpty == !asks, "\(file.lastPathComponent)")
        }
        #expect(MediaProbe.needsExifTool(loader: "pngload", exif: nil, path: plain.path))
    }

    /// Ratings, captions and keywords as editors write them into a camera
    /// JPEG whose EXIF says all else (exiftool writing XMP as Lightroom
    /// and darktable do, and IPTC as older tools do): the probe asks
    /// exiftool for them, and reads them; a JPEG with XMP that describes
    /// nothing costs no request.
    @Test func editorsRatingsCaptionsAndKeywordsAreRead() throws {
        var complete = ExifFields()
        complete.dateTimeOriginal = "2019:07:14 16:30:05"
        (complete.latitude, complete.longitude) = (46.5, 7.8)
        let camera = try write(try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50), exif: complete), "camera.jpg")
        let xmp = directory.appendingPathComponent("xmp.jpg")
        try FileManager.default.copyItem(at: camera, to: xmp)
        try DebianTool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-xmp:Rating=4", "-XMP-dc:Description=Boats in the harbour",
                "-XMP-dc:Subject=harbour", "-XMP-dc:Subject=boats", "-XMP-dc:Subject=harbour", xmp.path,
            ])
        let iptc = directory.appendingPathComponent("iptc.jpg")
        try FileManager.default.copyItem(at: camera, to: iptc)
        try DebianTool.run(
            "exiftool", ["-q", "-overwrite_original", "-IPTC:Keywords=alps", "-IPTC:Keywords=snow", "-IPTC:Caption-Abstract=Ridge", iptc.path])
        let rejected = directory.appendingPathComponent("rejected.jpg")
        try FileManager.default.copyItem(at: camera, to: rejected)
        try DebianTool.run("exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=-1", "-XMP-dc:Title=Out of focus", rejected.path])
        let undescribed = directory.appendingPathComponent("undescribed.jpg")
        try FileManager.default.copyItem(at: camera, to: undescribed)
        try DebianTool.run("exiftool", ["-q", "-overwrite_original", "-XMP-xmp:CreatorTool=camera firmware", undescribed.path])

        #expect(
            try MediaProbe.probe(fileAt: xmp).descriptive == DescriptiveMetadata(rating: 4, caption: "Boats in the harbour", keywords: ["harbour", "boats"]))
        #expect(try MediaProbe.probe(fileAt: iptc).descriptive == DescriptiveMetadata(caption: "Ridge", keywords: ["alps", "snow"]))
        #expect(try MediaProbe.probe(fileAt: rejected).descriptive == DescriptiveMetadata(caption: "Out of focus"), "a rejection is no rating")
        #expect(!MediaProbe.needsExifTool(loader: "jpegload", exif: complete, path: undescribed.path))
        #expect(!MediaProbe.needsExifTool(loader: "jpegload", exif: complete, path: camera.path))
        #expect(try MediaProbe.probe(fileAt: camera).descriptive.isEmpty)
    }

    /// JPEG XL's EXIF box reader, given cjxl's real file cut short and
    /// with bytes changed anywhere in its boxes: it finds the EXIF or
    /// nothing, within its bounds, and never crashes.
    @Test func jpegXLBoxesAreReadSafelyWhateverTheyHold() throws {
        var exif = ExifFields()
        exif.dateTimeOriginal = "2019:07:14 16:30:05"
        let source = try write(try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50), exif: exif), "source.jpg")
        let jxl = directory.appendingPathComponent("source.jxl")
        try DebianTool.run("cjxl", ["--quiet", source.path, jxl.path])
        let original = try Data(contentsOf: jxl)
        func exifOf(_ data: Data) throws -> ExifFields? {
            let url = directory.appendingPathComponent("fuzzed.jxl")
            try data.write(to: url)
            var bytes: UnsafeMutableRawPointer?
            var length = 0
            guard pm_jxl_exif(url.path, &bytes, &length) == 0, let bytes else { return nil }
            defer { pm_free(bytes) }
            return ExifFields(block: UnsafeRawBufferPointer(start: bytes, count: length))
        }
        #expect(try exifOf(original)?.dateTimeOriginal == "2019:07:14 16:30:05", "cjxl's Brotli-compressed box")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var data = original
            if Bool.random(using: &generator) {
                data = data.prefix(Int.random(in: 0..<data.count, using: &generator))
            } else {
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    data[Int.random(in: 0..<min(data.count, 512), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            _ = try exifOf(data)
        }
    }

    /// A Motion Photo's XMP is data: a length past the file's start, one
    /// that lands on anything but an MP4, or none, is no video.
    @Test func motionPhotoOffsetsThatLeadNowhereAreNoVideo() throws {
        #expect(MotionPhoto.videoLength(xmp: #"GCamera:MicroVideo="1" GCamera:MicroVideoOffset="1234""#) == 1234)
        #expect(MotionPhoto.videoLength(xmp: #"GCamera:MicroVideo="0" GCamera:MicroVideoOffset="1234""#) == nil)
        #expect(MotionPhoto.videoLength(xmp: #"<rdf:li><Container:Item Item:Semantic="MotionPhoto" Item:Length="99"/></rdf:li>"#) == 99)
        #expect(MotionPhoto.videoLength(xmp: #"<rdf:li><Container:Item Item:Semantic="Primary" Item:Length="99"/></rdf:li>"#) == nil)
        let jpeg = try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50))
        for offset in ["-5", "99999999999999999999", "17", "0", "x"] {
            let body = Data("http://ns.adobe.com/xap/1.0/\0".utf8) + Data(#"<x GCamera:MicroVideo="1" GCamera:MicroVideoOffset="\#(offset)"/>"#.utf8)
            let tagged =
                jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]) + body
                + jpeg.dropFirst(2) + Data(repeating: 0x20, count: 64)
            let url = try write(tagged, "motion-\(UUID().uuidString).jpg")
            #expect(MotionPhoto.videoRange(inFileAt: url.path) == nil, "offset \(offset)")
        }
    }

    /// The zone of a place is the one whose boundary holds it (timezonefinder's
    /// data, which script/bootstrap installs), even beside a border where the
    /// nearest city lies across it; at sea it is the nearest shore's.
    @Test func placesAreInTheirTimeZones() throws {
        try #require(TimeZoneBoundaries.installed != nil, "script/bootstrap installs the time zone boundaries")
        let places: [(Double, Double, String)] = [
            (35.68, 139.69, "Asia/Tokyo"), (48.85, 2.35, "Europe/Paris"), (40.71, -74.0, "America/New_York"),
            (-33.87, 151.21, "Australia/Sydney"), (21.31, -157.86, "Pacific/Honolulu"), (-22.91, -43.17, "America/Sao_Paulo"),
            (64.15, -21.94, "Atlantic/Reykjavik"), (28.61, 77.21, "Asia/Kolkata"),
            // Beside borders, where the nearest city of 15,000 is Polish and Spanish.
            (54.38, 20.64, "Europe/Kaliningrad"), (38.86, -7.10, "Europe/Lisbon"),
            // Mid-Atlantic: the nearest shore's, not the nautical Etc/GMT+2.
            (10.0, -30.0, "Atlantic/Cape_Verde"),
        ]
        for (latitude, longitude, zone) in places {
            #expect(TimeZoneLocator.zone(latitude: latitude, longitude: longitude)?.identifier == zone, "\(latitude), \(longitude)")
        }
        #expect(
            TimeZoneLocator.nearestCityZone(latitude: 54.38, longitude: 20.64)?.identifier == "Europe/Warsaw",
            "the nearest city alone would be wrong there")
        #expect(TimeZoneLocator.zone(latitude: 91, longitude: 0) == nil)
        #expect(TimeZoneLocator.zone(latitude: .nan, longitude: 0) == nil)
    }

    /// Boundary files that do not hold together (cut short, or pointing
    /// outside themselves) are refused whole, and the nearest city answers.
    @Test func brokenBoundaryFilesAreRefused() throws {
        let installed = URL(fileURLWithPath: TimeZoneBoundaries.defaultFolder)
        try #require(FileManager.default.fileExists(atPath: installed.appendingPathComponent("poly_data.bin").path))
        for (broken, damage) in [
            ("poly_bounds.bin", Data([1, 2, 3])), ("poly_adr2data.bin", Data(repeating: 0xFF, count: 5280)),
            ("timezone_names.json", Data("{}".utf8)),
        ] {
            let folder = directory.appendingPathComponent("boundaries-\(broken)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: installed.path) {
                try FileManager.default.createSymbolicLink(
                    at: folder.appendingPathComponent(name),
                    withDestinationURL: installed.appendingPathComponent(name))
            }
            try FileManager.default.removeItem(at: folder.appendingPathComponent(broken))
            try damage.write(to: folder.appendingPathComponent(broken))
            #expect(throws: (any Error).self, "\(broken)") { try TimeZoneBoundaries(folder: folder) }
        }
    }

    /// MOV, MP4, 3GP and AVI files are read through the running exiftool
    /// rather than an ffprobe process each; what it reads is what ffprobe
    /// reads (and a Matroska or WebM file, read by ffprobe, reads the same):
    /// size (turned by the rotation), duration, frame rate, Apple's and
    /// Android's keys, the place and the HDR transfer, in files written the
    /// ways phones and ffmpeg write them.
    @Test func isoMediaIsReadAsFFprobeReadsIt() throws {
        let common = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1.5", "-pix_fmt", "yuv420p"]
        let files: [(String, [String])] = [
            (
                "iphone.mov",
                [
                    "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error",
                    "-metadata", "com.apple.quicktime.creationdate=2020-06-08T00:30:00+0900",
                    "-metadata", "com.apple.quicktime.location.ISO6709=+35.6895+139.6917+040.000/",
                    "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
                    "-metadata", "com.apple.quicktime.software=17.5",
                    "-metadata", "com.apple.quicktime.content.identifier=A1B2C3D4-0000-4000-8000-0000000000EE",
                    "-movflags", "use_metadata_tags",
                ]
            ),
            (
                "android.mp4",
                [
                    "-c:v", "libx264", "-preset", "ultrafast", "-metadata", "creation_time=2021-06-01T10:20:30Z",
                    "-metadata", "location=-33.8688+151.2093/", "-metadata", "com.android.capture.fps=240",
                    "-movflags", "use_metadata_tags",
                ]
            ),
            ("plain.mp4", ["-c:v", "libx264", "-preset", "ultrafast"]),
            ("phone.3gp", ["-c:v", "h263", "-s", "176x144"]),
            (
                "hlg.mov",
                [
                    "-c:v", "libx265", "-x265-params", "log-level=error", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67",
                    "-colorspace", "bt2020nc",
                ]
            ),
            ("camera.mkv", ["-c:v", "libx264", "-preset", "ultrafast", "-metadata", "creation_time=2021-06-01T10:20:30Z"]),
            (
                "hlg.webm",
                [
                    "-c:v", "libvpx-vp9", "-deadline", "realtime", "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020",
                    "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
                ]
            ),
            ("compact.avi", ["-c:v", "mjpeg"]),
        ]
        for (name, arguments) in files {
            var url = directory.appendingPathComponent(name)
            try DebianTool.run("ffmpeg", common + arguments + [url.path])
            if name == "plain.mp4" {
                // A portrait phone video: the rotation in the track's matrix, as ffmpeg copies it.
                let turned = directory.appendingPathComponent("turned.mp4")
                try DebianTool.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned.path])
                url = turned
            }
            let head = try #require(try FileHandle(forReadingFrom: url).read(upToCount: 256))
            let read = try #require(try VideoProbe.probe(path: url.path, head: head), "\(name)")
            let probed = try #require(try VideoProbe.probeWithFFprobe(path: url.path, head: head), "\(name)")
            #expect(read.pixelWidth == probed.pixelWidth && read.pixelHeight == probed.pixelHeight, "\(name)")
            #expect(abs(read.duration - probed.duration) < 0.05, "\(name): \(read.duration) and \(probed.duration)")
            #expect(abs((read.frameRate ?? 0) - (probed.frameRate ?? 0)) < 0.01, "\(name)")
            #expect(read.captureDate == probed.captureDate && read.captureTimeZoneOffset == probed.captureTimeZoneOffset, "\(name)")
            #expect(read.location?.latitude == probed.location?.latitude && read.location?.longitude == probed.location?.longitude, "\(name)")
            #expect(
                read.cameraMake == probed.cameraMake && read.cameraModel == probed.cameraModel && read.software == probed.software,
                "\(name): \(read.software ?? "-") and \(probed.software ?? "-")")
            #expect(read.contentIdentifier == probed.contentIdentifier && read.captureFrameRate == probed.captureFrameRate, "\(name)")
            #expect(read.dynamicRange == probed.dynamicRange && read.uniformTypeIdentifier == probed.uniformTypeIdentifier, "\(name)")
        }
    }

    @Test func orientationSwapsDisplayedDimensions() throws {
        var exif = ExifFields()
        exif.orientation = 6
        let url = try write(try SampleImage.jpeg(width: 80, height: 20, from: (0, 0, 0), to: (255, 255, 255), exif: exif), "r.jpg")
        let metadata = try MediaProbe.probe(fileAt: url)
        #expect(metadata.orientation == 6)
        #expect(metadata.pixelWidth == 20 && metadata.pixelHeight == 80)
    }

    @Test func refusesTruncatedEmptyAndForeignFiles() throws {
        let jpeg = try SampleImage.jpeg(width: 512, height: 512, from: (0, 0, 0), to: (255, 0, 0))
        let truncated = try write(jpeg.prefix(jpeg.count / 3), "t.jpg")
        let empty = try write(Data(), "e.jpg")
        let text = try write(Data("hello, not a photo".utf8), "x.jpg")
        for url in [truncated, empty, text, directory.appendingPathComponent("missing.jpg")] {
            #expect(throws: MediaError.self) { try MediaProbe.probe(fileAt: url) }
        }
    }

    @Test func pngRoundTripsThroughDecodeAndEncode() throws {
        let pixels = RGBAPixels(width: 2, height: 1, bytes: [255, 0, 0, 255, 0, 0, 255, 128])
        let png = try ImageCodec.encode(pixels, as: .png)
        let decoded = try ImageCodec.decode(data: png)
        #expect(decoded == pixels)
    }
}
