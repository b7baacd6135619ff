import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Files made with libvips, ffmpeg and exiftool, imported through the public
/// API: what the library reads from them.
@Suite struct MediaImportTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func fullSize(_ asset: PHAsset) -> [Int] {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var size: [Int] = []
        PHImageManager.default().requestImage(
            for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .default,
            options: options
        ) { image, _ in
            size = image.map { [Int($0.size.width), Int($0.size.height)] } ?? []
        }
        return size
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        try DebianTool.run(tool, arguments)
    }

    @Test(arguments: 1...8) func everyOrientationIsAppliedToTheSize(orientation: Int) throws {
        let asset = try test.importAsset(try test.jpeg(width: 80, height: 40, orientation: orientation))
        let upright = orientation >= 5 ? [40, 80] : [80, 40]
        #expect([asset.pixelWidth, asset.pixelHeight] == upright)
        #expect(fullSize(asset) == upright)
    }

    @Test func gpsInEveryHemisphereAndTheCaptureTimeZone() throws {
        let places: [(Double, Double)] = [(48.8584, 2.2945), (40.6892, -74.0445), (-33.8568, 151.2153), (-22.9519, -43.2105)]
        for (latitude, longitude) in places {
            let asset = try test.importAsset(try test.jpeg(latitude: latitude, longitude: longitude))
            let location = try #require(asset.location)
            #expect(abs(location.coordinate.latitude - latitude) < 1e-4 && abs(location.coordinate.longitude - longitude) < 1e-4)
        }
        let instant = Date(timeIntervalSince1970: 1_577_880_000)  // 2020-01-01 12:00 UTC
        for offset in [19_800, -28_800, 0, 45 * 60 * 13] {
            let asset = try test.importAsset(try test.jpeg(taken: instant, utcOffset: offset))
            #expect(asset.creationDate == instant, "offset \(offset)")
            #expect(asset.record.timeZoneOffset == offset)
        }
        let camera = try test.importAsset(try test.jpeg(make: "FUJIFILM", model: "X100V", lens: "23mm f/2"))
        #expect(camera.record.cameraMake == "FUJIFILM" && camera.record.cameraModel == "X100V" && camera.record.lensModel == "23mm f/2")
    }

    /// EXIF that HEIF writers store as the bare TIFF structure (heif-enc,
    /// from a camera JPEG tagged by exiftool), and a TIFF's own, give the
    /// date and place as a JPEG's does.
    @Test func exifStoredWithoutItsHeaderIsRead() throws {
        let tagged = try taggedCameraJPEG("tagged.jpg")
        let heic = test.files.appendingPathComponent("tagged.heic")
        try run("heif-enc", ["-o", heic.path, tagged.path])
        // A TIFF is its own EXIF structure; libvips gives none for it.
        let tiff = test.files.appendingPathComponent("tagged.tif")
        try run("vips", ["copy", tagged.path, tiff.path])
        try run("exiftool", ["-q", "-overwrite_original", "-tagsFromFile", tagged.path, "-exif:all", tiff.path])
        for file in [heic, tiff] {
            try expectTheTaggedDateAndPlace(file)
        }
    }

    /// A camera JPEG that exiftool dated 2019-07-04 10:20:30 +02:00 and placed at 48.85° N, 2.35° E.
    private func taggedCameraJPEG(_ name: String) throws -> URL {
        let tagged = test.files.appendingPathComponent(name)
        try run("vips", ["copy", try test.jpeg(width: 64, height: 48).path, tagged.path])
        try run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-DateTimeOriginal=2019:07:04 10:20:30", "-OffsetTimeOriginal=+02:00",
                "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35", "-GPSLongitudeRef=E", tagged.path,
            ])
        return tagged
    }

    /// Imports `file` and expects the date, offset and place ``taggedCameraJPEG(_:)`` writes.
    private func expectTheTaggedDateAndPlace(_ file: URL) throws {
        let asset = try test.importAsset(file)
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_562_228_430), "\(file.lastPathComponent): 2019-07-04 08:20:30 UTC")
        #expect(asset.record.timeZoneOffset == 7200, "\(file.lastPathComponent)")
        let location = try #require(asset.location, "\(file.lastPathComponent)")
        #expect(abs(location.coordinate.latitude - 48.85) < 1e-4 && abs(location.coordinate.longitude - 2.35) < 1e-4, "\(file.lastPathComponent)")
    }

    /// EXIF in every container, and XMP and IPTC where a file keeps its
    /// date and place there: an iPhone's PNG screenshot (XMP only), a JPEG
    /// dated in IPTC and placed in XMP, AVIF, WebP and JPEG XL made by their
    /// encoders from a camera JPEG.
    @Test func datesAndPlacesAreReadFromEveryContainerAndSchema() throws {
        let camera = try taggedCameraJPEG("camera.jpg")
        let avif = test.files.appendingPathComponent("camera.avif")
        try run("heif-enc", ["-A", "-o", avif.path, camera.path])
        let webp = test.files.appendingPathComponent("camera.webp")
        try run("vips", ["copy", camera.path, webp.path])
        try run("exiftool", ["-q", "-overwrite_original", "-tagsFromFile", camera.path, "-exif:all", webp.path])
        let jxl = test.files.appendingPathComponent("camera.jxl")
        try run("cjxl", ["--quiet", camera.path, jxl.path])
        for file in [avif, webp, jxl] {
            try expectTheTaggedDateAndPlace(file)
        }

        let screenshot = test.files.appendingPathComponent("IMG_0042.PNG")
        try run("vips", ["copy", try test.jpeg(width: 48, height: 64).path, screenshot.path])
        try run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-photoshop:DateCreated=2020-06-08T00:30:00+02:00",
                "-XMP-exif:UserComment=Screenshot", screenshot.path,
            ])
        let shot = try test.importAsset(screenshot)
        #expect(shot.creationDate == Date(timeIntervalSince1970: 1_591_569_000), "2020-06-07 22:30 UTC")
        #expect(shot.mediaSubtypes.contains(.photoScreenshot))

        let press = test.files.appendingPathComponent("agency.jpg")
        try run("vips", ["copy", try test.jpeg(width: 64, height: 48).path, press.path])
        try run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-IPTC:DateCreated=2018:05:04", "-IPTC:TimeCreated=10:11:12-04:00",
                "-XMP-exif:GPSLatitude=40.7128", "-XMP-exif:GPSLongitude=-74.006", press.path,
            ])
        let agency = try test.importAsset(press)
        #expect(agency.creationDate == Date(timeIntervalSince1970: 1_525_443_072), "2018-05-04 14:11:12 UTC")
        #expect(agency.record.timeZoneOffset == -14_400)
        let place = try #require(agency.location)
        #expect(abs(place.coordinate.latitude - 40.7128) < 1e-4 && abs(place.coordinate.longitude + 74.006) < 1e-4)
    }

    /// A time without an offset is read in the zone of where it was taken,
    /// from the file's GPS position, whatever zone the importing machine is
    /// in: a camera's 00:30 in Tokyo is 15:30 UTC, recorded at +09:00; a
    /// video's UTC creation time stays, and gains Sydney's offset.
    @Test func theZoneOfATimeWithoutOffsetIsWhereItWasTaken() throws {
        let tokyo = try test.jpeg(width: 64, height: 48, latitude: 35.68, longitude: 139.69) { $0.dateTimeOriginal = "2020:06:08 00:30:00" }
        let photo = try test.importAsset(tokyo)
        #expect(photo.creationDate == ISO8601DateFormatter().date(from: "2020-06-07T15:30:00Z"))
        #expect(photo.record.timeZoneOffset == 32_400)

        let sydney = try test.video(seconds: 1, tags: ["creation_time": "2021-06-01T10:20:30Z", "location": "-33.8688+151.2093/"])
        let video = try test.importAsset(sydney, video: true)
        #expect(video.creationDate == ISO8601DateFormatter().date(from: "2021-06-01T10:20:30Z"))
        #expect(video.record.timeZoneOffset == 36_000)
    }

    /// A file with no date inside, named by the time it was taken as phones
    /// and messengers name them, is dated by its name (in the zone it is
    /// read in, which is recorded), not by the day it was copied.
    @Test func aFileWithoutADateIsDatedByItsName() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let photo = test.files.appendingPathComponent("IMG_20200608_003000.jpg")
        try FileManager.default.copyItem(at: try test.jpeg(width: 64, height: 48), to: photo)
        let video = test.files.appendingPathComponent("VID_20200609_174501.mp4")
        try run(
            "ffmpeg",
            [
                "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                "-map_metadata", "-1", "-fflags", "+bitexact", "-pix_fmt", "yuv420p", video.path,
            ])
        let whatsApp = test.files.appendingPathComponent("IMG-20200610-WA0003.jpg")
        try run("vips", ["copy", try test.jpeg(width: 32, height: 32).path, whatsApp.path])
        for (file, components) in [
            (photo, DateComponents(year: 2020, month: 6, day: 8, hour: 0, minute: 30)),
            (video, DateComponents(year: 2020, month: 6, day: 9, hour: 17, minute: 45, second: 1)),
            (whatsApp, DateComponents(year: 2020, month: 6, day: 10, hour: 12)),
        ] {
            let asset = try test.importAsset(file, video: file == video)
            #expect(asset.creationDate == calendar.date(from: components), "\(file.lastPathComponent)")
            #expect(asset.record.timeZoneOffset == TimeZone.current.secondsFromGMT(for: asset.creationDate!))
        }
    }

    @Test func otherImageFormats() throws {
        let jpeg = try test.jpeg(width: 64, height: 48)
        var expected: [(String, String)] = []
        for (ext, type) in [
            ("png", "public.png"), ("webp", "org.webmproject.webp"), ("tif", "public.tiff"),
            ("gif", "com.compuserve.gif"), ("heic", "public.heic"),
        ] {
            let url = test.files.appendingPathComponent("converted.\(ext)")
            try run("vips", ["copy", jpeg.path, url.path])
            let asset = try test.importAsset(url)
            #expect(asset.mediaType == .image && asset.pixelWidth == 64 && asset.pixelHeight == 48, "\(ext)")
            #expect(asset.contentType.identifier == type, "\(ext): \(asset.contentType.identifier)")
            #expect(fullSize(asset) == [64, 48], "\(ext)")
            expected.append((ext, type))
        }
        #expect(expected.count == 5)
    }

    /// A file's type is what its bytes are, not what its name says: a HEIC
    /// named `.JPG` (as some phones' exports name them) is stored, typed and
    /// served as a HEIC, under the name it came with.
    @Test func aFileIsTypedByItsBytesNotItsName() throws {
        let heic = test.files.appendingPathComponent("real.heic")
        try run("vips", ["copy", try test.jpeg(width: 64, height: 48).path, heic.path])
        let misnamed = test.files.appendingPathComponent("IMG_0009.JPG")
        try FileManager.default.copyItem(at: heic, to: misnamed)
        let png = test.files.appendingPathComponent("photo.png")
        try FileManager.default.copyItem(at: try test.jpeg(width: 64, height: 48), to: png)
        for (file, type, ext, mime) in [(misnamed, "public.heic", "heic", "image/heic"), (png, "public.jpeg", "jpg", "image/jpeg")] {
            let asset = try test.importAsset(file)
            #expect(asset.contentType.identifier == type && asset.contentType.preferredMIMEType == mime, "\(file.lastPathComponent)")
            let resource = test.fetch { PHAssetResource.assetResources(for: asset) }[0]
            #expect(try resource.fileURL().pathExtension == ext, "\(file.lastPathComponent)")
            #expect(resource.originalFilename == file.lastPathComponent)
        }
    }

    @Test func heifIgnoresTheOrientationItsEXIFRepeats() throws {
        // HEIF records rotation in its container, which libheif applies; an
        // EXIF orientation inside repeats it and must not be applied again.
        let rotated = try test.jpeg(width: 80, height: 40, orientation: 6)
        let heic = test.files.appendingPathComponent("rotated.heic")
        try run("vips", ["copy", rotated.path + "[autorotate=false]", heic.path])
        let asset = try test.importAsset(heic)
        #expect(asset.pixelWidth == 80 && asset.pixelHeight == 40)
        #expect(fullSize(asset) == [80, 40])
    }

    @Test func animatedImages() throws {
        let frames = test.files.appendingPathComponent("frames.gif")
        try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=20x20:rate=5", "-t", "1", frames.path])
        let asset = try test.importAsset(frames)
        #expect(asset.playbackStyle == .imageAnimated && asset.mediaSubtypes.contains(.photoAnimation))
        #expect(asset.pixelWidth == 20 && asset.pixelHeight == 20)
        let animated = test.fetch {
            PHAsset.fetchAssets(
                in: PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumAnimated, options: nil)[0], options: nil)
        }
        #expect(animated.count == 1 && animated[0].localIdentifier == asset.localIdentifier)
    }

    /// A video named as screen recorders name theirs is a screen recording,
    /// in its smart album; another video is not.
    @Test func screenRecordingsAreKnownByTheirNames() throws {
        let recording = try test.video(seconds: 1, name: "Screen Recording 2024-05-01 at 10.00.00.mov")
        let android = try test.video(seconds: 1, width: 128, height: 96, name: "Screen_Recording_20240501-100000_Chrome.mp4")
        let holiday = try test.video(seconds: 1, width: 96, height: 72, name: "VID_20240501_100000.mp4")
        let result = try test.library.importFiles([recording, android, holiday])
        #expect(result.failed.isEmpty, "\(result.failed)")
        let subtypes = Dictionary(
            uniqueKeysWithValues: result.imported.map { imported in
                (
                    imported.file.lastPathComponent,
                    test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [imported.localIdentifier], options: nil)[0] }.mediaSubtypes
                )
            })
        #expect(subtypes[recording.lastPathComponent]?.contains(.videoScreenRecording) == true)
        #expect(subtypes[android.lastPathComponent]?.contains(.videoScreenRecording) == true)
        #expect(subtypes[holiday.lastPathComponent]?.contains(.videoScreenRecording) == false)
        let album = test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumScreenRecordings, options: nil)[0] }
        #expect(test.fetch { PHAsset.fetchAssets(in: album, options: nil) }.count == 2)
    }

    /// Spatial photos and videos (a HEIC's stereo pair group, an MV-HEVC
    /// sample entry's extended usage) imported whole: spatial media, shown
    /// in the Spatial smart album, their plain twins in neither.
    @Test func spatialPhotosAndVideosAreSpatialMedia() throws {
        let photo = try SpatialFiles.photo(in: test.files)
        let video = try SpatialFiles.video(in: test.files)
        let result = try test.library.importFiles([photo.plain, photo.spatial, video.plain, video.spatial])
        #expect(result.failed.isEmpty, "\(result.failed)")
        let identifiers = Dictionary(uniqueKeysWithValues: result.imported.map { ($0.file.lastPathComponent, $0.localIdentifier) })
        func asset(_ url: URL) -> PHAsset? {
            identifiers[url.lastPathComponent].flatMap { identifier in
                test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject }
            }
        }
        #expect(asset(photo.spatial)?.mediaType == .image && asset(photo.spatial)?.pixelWidth == 64, "still the photo it is")
        #expect(asset(video.spatial)?.mediaType == .video && asset(video.spatial)?.pixelWidth == 320, "still the video it is")
        for url in [photo.spatial, video.spatial] { #expect(asset(url)?.mediaSubtypes.contains(.spatialMedia) == true, "\(url.lastPathComponent)") }
        for url in [photo.plain, video.plain] { #expect(asset(url)?.mediaSubtypes.contains(.spatialMedia) == false, "\(url.lastPathComponent)") }
        let album = test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumSpatial, options: nil)[0] }
        let shown = test.fetch { PHAsset.fetchAssets(in: album, options: nil) }
        try #require(shown.count == 2)
        #expect(
            Set(shown.objects(at: IndexSet(integersIn: 0..<2)).map(\.localIdentifier))
                == Set([photo.spatial, video.spatial].compactMap { identifiers[$0.lastPathComponent] }))
    }

    /// HDR video as phones record it (10-bit HEVC, BT.2020, HLG or PQ),
    /// made by converting SMPTE colour bars with reference white at
    /// 203 cd/m²: its poster (the thumbnail) and its playable H.264 copy
    /// show the bars as a standard-range picture of them looks, not the
    /// grey, washed-out colours of HDR values read as BT.709.
    @Test(arguments: ["arib-std-b67", "smpte2084"])
    func hdrVideosAreToneMappedInTheirPosterAndPlayableCopy(transfer: String) throws {
        let colourBars = "smptebars=size=640x360:rate=30:duration=1"
        let reference = test.files.appendingPathComponent("bars.png")
        try run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", colourBars, "-frames:v", "1", reference.path])
        let hdr = test.files.appendingPathComponent("IMG_\(transfer).MOV")
        try run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", colourBars,
                "-vf", "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=\(transfer):m=bt2020nc:p=bt2020:r=tv:npl=203,format=yuv420p10le",
                "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", hdr.path,
            ])
        let asset = try test.importAsset(hdr, video: true)

        // Grey, yellow, cyan, green, magenta, red and blue bars, along one row.
        func bars(_ pixels: RGBAPixels) -> [[Int]] {
            let bytes = pixels.bytes
            return (0..<7).map { bar in
                let (x, y) = ((2 * bar + 1) * pixels.width / 14, pixels.height / 4)
                return (0..<3).map { Int(bytes[(y * pixels.width + x) * 4 + $0]) }
            }
        }
        // Read as BT.709, HLG's grey is 160 and its yellow has blue 62; PQ's grey is 129.
        func expectBarsLikeTheReference(_ pixels: RGBAPixels, _ what: String) throws {
            let (got, expected) = (bars(pixels), bars(try ImageCodec.decode(fileAt: reference)))
            #expect(zip(got[0], expected[0]).allSatisfy { abs($0 - $1) <= 12 }, "\(what): grey \(got[0]) where it is \(expected[0])")
            for (got, want) in zip(got, expected) {
                #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 32 }, "\(what): \(got) where the bars are \(want)")
            }
        }
        let thumbnail = try #require(try PHImageManager.default().rendition(.thumbnail, of: asset).file)
        try expectBarsLikeTheReference(try ImageCodec.decode(fileAt: thumbnail), "the poster of \(transfer)")

        let copy = try PHImageManager.default().playableVideo(of: asset)
        let frame = test.files.appendingPathComponent("copy-frame.png")
        try run("ffmpeg", ["-v", "error", "-y", "-i", copy.path, "-frames:v", "1", frame.path])
        try expectBarsLikeTheReference(try ImageCodec.decode(fileAt: frame), "the playable copy of \(transfer)")
        let tagged = try DebianTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_transfer,pix_fmt",
                "-of", "csv=p=0", copy.path,
            ])
        #expect(tagged.trimmingCharacters(in: .whitespacesAndNewlines) == "yuv420p,bt709")
    }

    @Test func videoMetadata() throws {
        let clip = try test.video(
            seconds: 2, width: 320, height: 240, fps: 25, rotation: 90,
            tags: ["creation_time": "2021-06-01T10:20:30Z"])
        let video = try test.importAsset(clip, video: true)
        #expect(video.mediaType == .video && video.playbackStyle == .video)
        #expect(abs(video.duration - 2) < 0.1)
        #expect(video.pixelWidth == 240 && video.pixelHeight == 320)
        #expect(video.creationDate == ISO8601DateFormatter().date(from: "2021-06-01T10:20:30Z"))
        #expect(video.mediaSubtypes.isEmpty)

        let slowMotion = try test.importAsset(try test.video(seconds: 0.5, fps: 120), video: true)
        #expect(slowMotion.mediaSubtypes.contains(.videoHighFrameRate))
        let timeLapse = try test.importAsset(try test.video(seconds: 0.5, fps: 30, tags: ["com.android.capture.fps": "2.0"]), video: true)
        #expect(timeLapse.mediaSubtypes.contains(.videoTimelapse))
    }

    /// Videos of every common container, made by ffmpeg's encoders and all
    /// named `.mp4`, are typed, stored and served by what their bytes are.
    @Test func aVideoIsTypedByItsBytesNotItsName() throws {
        let kinds: [(format: [String], type: String, mime: String, ext: String)] = [
            (["-c:v", "libx265", "-tag:v", "hvc1", "-f", "mov"], "com.apple.quicktime-movie", "video/quicktime", "mov"),
            (["-c:v", "libx264", "-f", "mp4"], "public.mpeg-4", "video/mp4", "mp4"),
            (["-c:v", "h263", "-s", "176x144", "-f", "3gp"], "public.3gpp", "video/3gpp", "3gp"),
            (["-c:v", "libsvtav1", "-f", "webm"], "org.webmproject.webm", "video/webm", "webm"),
            (["-c:v", "mpeg4", "-f", "matroska"], "org.matroska.mkv", "video/x-matroska", "mkv"),
            (["-c:v", "mjpeg", "-f", "avi"], "public.avi", "video/x-msvideo", "avi"),
            (["-c:v", "libx264", "-f", "mpegts", "-mpegts_m2ts_mode", "1"], "public.mpeg-2-transport-stream", "video/mp2t", "mts"),
        ]
        for (index, kind) in kinds.enumerated() {
            let clip = test.files.appendingPathComponent("clip-\(index).mp4")
            try run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=176x144:rate=10",
                    "-pix_fmt", "yuv420p",
                ] + kind.format + [clip.path])
            let asset = try test.importAsset(clip, video: true)
            #expect(asset.mediaType == .video, "\(kind.type)")
            #expect(
                asset.contentType.identifier == kind.type && asset.contentType.preferredMIMEType == kind.mime,
                "\(kind.type): \(asset.contentType.identifier)")
            let resource = test.fetch { PHAssetResource.assetResources(for: asset) }[0]
            #expect(try resource.fileURL().pathExtension == kind.ext, "\(kind.type)")
        }
    }

    /// A file's numbers are data: a Matroska track tagged `rotate` with
    /// `nan`, `inf` or 1e300 (encoded by ffmpeg, then its tag's name put
    /// in lower case, as ffprobe then reports it) is imported upright, never
    /// trapping on the way.
    @Test(arguments: ["nan", "inf", "-inf", "1e300", "-1e300", "450"])
    func hostileRotationTagsAreData(rotation: String) throws {
        let encoded = test.files.appendingPathComponent("clip-\(UUID().uuidString).mkv")
        try run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=10", "-c:v", "mpeg4",
                "-metadata:s:v:0", "ROTATE=\(rotation)", encoded.path,
            ])
        var bytes = try Data(contentsOf: encoded)
        let name = Data("ROTATE".utf8)
        let range = try #require(bytes.range(of: name))
        bytes.replaceSubrange(range, with: Data("rotate".utf8))
        try bytes.write(to: encoded)
        let video = try test.importAsset(encoded, video: true)
        #expect(video.mediaType == .video)
        let expected: [Int] = rotation == "450" ? [48, 64] : [64, 48]
        #expect([video.pixelWidth, video.pixelHeight] == expected)
    }

    @Test func subtypesTheFileDeclares() throws {
        let screenshot = try test.importAsset(try test.jpeg { $0.userComment = "Screenshot" })
        #expect(screenshot.mediaSubtypes == .photoScreenshot)
        let named = try test.importAsset(
            try test.file(
                "Screenshot 2024-03-01 at 10.00.00.png",
                Data(
                    contentsOf: {
                        let url = test.files.appendingPathComponent("s.png")
                        try run("vips", ["copy", try test.jpeg().path, url.path])
                        return url
                    }())))
        #expect(named.mediaSubtypes == .photoScreenshot)
        let marked = try test.importAsset(try test.jpeg(width: 400, height: 100, make: "Apple") { $0.customRendered = 6 })
        #expect(marked.mediaSubtypes == .photoPanorama)
        // A phone's 20:9 photo, and even a 4:1 one, is no panorama unless the camera says so.
        for (width, height) in [(400, 180), (400, 100)] {
            let wide = try test.importAsset(try test.jpeg(width: width, height: height, make: "samsung", model: "SM-S918B"))
            #expect(wide.mediaSubtypes.isEmpty, "\(width) × \(height)")
        }
        let hdr = try test.importAsset(try test.jpeg { $0.customRendered = 3 })
        #expect(hdr.mediaSubtypes == .photoHDR)
        let portrait = try test.importAsset(try test.jpeg(make: "Apple", model: "iPhone 15 Pro") { $0.customRendered = 8 })
        #expect(portrait.mediaSubtypes == .photoDepthEffect)
        let portraitHDR = try test.importAsset(try test.jpeg(make: "Apple") { $0.customRendered = 7 })
        #expect(portraitHDR.mediaSubtypes == [.photoDepthEffect, .photoHDR])
    }

    /// A HEIF holding two images (as heif-enc writes it) is a still photo
    /// showing its primary image: only GIF and WebP frames animate.
    @Test func aHEIFOfSeveralImagesIsNotAnimated() throws {
        let first = try test.jpeg(width: 64, height: 48)
        let second = try test.jpeg(width: 32, height: 24)
        let heif = test.files.appendingPathComponent("two.heic")
        try run("heif-enc", ["-o", heif.path, first.path, second.path])
        let asset = try test.importAsset(heif)
        #expect(asset.playbackStyle == .image)
        #expect(asset.pixelWidth == 64 && asset.pixelHeight == 48)
    }

    @Test func livePhotosFromAPairedVideo() throws {
        let still = try test.jpeg(width: 64, height: 48) { $0.contentIdentifier = "A1B2C3D4-0000-4000-8000-000000000001" }
        let motion = try test.video(
            seconds: 1, width: 64, height: 48,
            tags: ["com.apple.quicktime.content.identifier": "A1B2C3D4-0000-4000-8000-000000000001"])
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: motion, options: nil)
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let live = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
        #expect(live.mediaSubtypes.contains(.photoLive) && live.playbackStyle == .livePhoto)
        #expect(PHAssetResource.assetResources(for: live).map(\.type) == [.photo, .pairedVideo])

        // An import pairs them by their shared content identifier.
        let other = try test.jpeg { $0.contentIdentifier = "A1B2C3D4-0000-4000-8000-000000000002" }
        let otherMotion = try test.video(seconds: 1, tags: ["com.apple.quicktime.content.identifier": "A1B2C3D4-0000-4000-8000-000000000002"])
        let lone = try test.video(seconds: 1)
        let result = try test.library.importFiles([otherMotion, lone, other])
        #expect(result.failed.isEmpty && result.imported.count == 3)
        let assets = Set(result.imported.map(\.localIdentifier))
        #expect(assets.count == 2, "the photo and its video are one asset")
        let pairedID = try #require(result.imported.first { $0.file == other }?.localIdentifier)
        #expect(result.imported.first { $0.file == otherMotion }?.localIdentifier == pairedID)
        let paired = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [pairedID], options: nil)[0] }
        #expect(paired.mediaSubtypes.contains(.photoLive))
    }

    @Test func burstsShowTheirFirstPhoto() throws {
        let shots = try (0..<3).map { index in
            try test.jpeg(taken: Date(timeIntervalSince1970: 1_600_000_000 + Double(index))) {
                $0.burstIdentifier = "BURST-0001"
            }
        }
        let result = try test.library.importFiles(shots)
        #expect(result.imported.count == 3)
        test.fetch {
            #expect(PHAsset.fetchAssets(with: nil).count == 1)
            let shown = PHAsset.fetchAssets(with: nil)[0]
            #expect(shown.representsBurst && shown.burstIdentifier == "BURST-0001")
            #expect(PHAsset.fetchAssets(withBurstIdentifier: "BURST-0001", options: nil).count == 1)
            let all = PHFetchOptions()
            all.includeAllBurstAssets = true
            #expect(PHAsset.fetchAssets(withBurstIdentifier: "BURST-0001", options: all).count == 3)
            #expect(PHAsset.fetchAssets(with: all).count == 3)
        }
    }

    @Test func duplicatesAreSkippedOrKept() throws {
        let photo = try test.jpeg()
        let first = try test.library.importFiles([photo])
        let original = try #require(first.imported.first?.localIdentifier)
        let copy = test.files.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: photo, to: copy)

        let again = try test.library.importFiles([copy, photo])
        #expect(again.imported.isEmpty)
        #expect(again.duplicates.map(\.localIdentifier) == [original, original])

        let fresh = try test.jpeg(width: 50)
        let freshCopy = test.files.appendingPathComponent("fresh-copy.jpg")
        try FileManager.default.copyItem(at: fresh, to: freshCopy)
        let within = try test.library.importFiles([fresh, freshCopy])
        #expect(within.imported.count == 1 && within.duplicates.count == 1)
        #expect(within.duplicates.first?.localIdentifier == within.imported.first?.localIdentifier)

        let kept = try test.library.importFiles([photo], options: .init(duplicates: .keep))
        #expect(kept.imported.count == 1 && kept.imported.first?.localIdentifier != original)
        #expect(test.fetch { PHAsset.fetchAssets(with: nil).count } == 3)
    }

    @Test func brokenFilesFailTheirBlockAndLeaveNothing() throws {
        let jpeg = try Data(contentsOf: try test.jpeg(width: 600, height: 400))
        let broken = [
            try test.file("truncated.jpg", jpeg.prefix(jpeg.count / 2)),
            try test.file("empty.jpg", Data()),
            try test.file("notes.jpg", Data("shopping list: milk, eggs".utf8)),
        ]
        for file in broken {
            expectPhotosError(.invalidResource, "\(file.lastPathComponent)") {
                try test.library.performChangesAndWait {
                    _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: try! test.jpeg())
                    _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)
                }
            }
        }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil).count } == 0)
        #expect(test.originalFiles.isEmpty && test.files(under: "derivatives").isEmpty && test.files(under: "staging").isEmpty)

        let result = try test.library.importFiles(broken + [try test.jpeg()])
        #expect(result.imported.count == 1 && Set(result.failed.map(\.file)) == Set(broken), "\(result)")
        #expect(result.failed.allSatisfy { $0.error.code == .invalidResource })
    }

    @Test func anInMemoryImage() throws {
        let pixels = [UInt8](repeating: 200, count: 30 * 20 * 4)
        let image = try #require(UIImage(rgbaPixels: pixels, width: 30, height: 20))
        var identifier = ""
        try test.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAsset(from: image).placeholderForCreatedAsset!.localIdentifier
        }
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
        #expect(asset.pixelWidth == 30 && asset.pixelHeight == 20 && fullSize(asset) == [30, 20])
    }

    private func cameraRaw(width: Int, height: Int, preview: (width: Int, height: Int)?, tags: [String]) throws -> URL {
        try CameraFiles.raw(width: width, height: height, preview: preview, tags: tags, in: test.files)
    }

    /// Google's Motion Photos, in both of the XMP schemas that locate their
    /// video (GCamera's MicroVideoOffset in `MVIMG_` files, the Container
    /// directory in Pixel's `.MP.jpg`), are Live Photos with that video paired.
    @Test func aMotionPhotoIsALivePhoto() throws {
        let video = test.files.appendingPathComponent("motion.mp4")
        try run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", video.path,
            ])
        let movie = try Data(contentsOf: video)
        let gcamera = test.files.appendingPathComponent("MVIMG_20200608_003000.jpg")
        try CameraFiles.motionPhoto(gcamera, still: try Data(contentsOf: try test.jpeg(width: 64, height: 48)), movie: movie, schema: .microVideo)
        let container = test.files.appendingPathComponent("PXL_20200608_003000123.MP.jpg")
        try CameraFiles.motionPhoto(container, still: try Data(contentsOf: try test.jpeg(width: 66, height: 48)), movie: movie, schema: .container)
        let result = try test.library.importFiles([gcamera, container])
        #expect(result.failed.isEmpty && result.imported.count == 2, "\(result.failed)")
        for (file, identifier) in result.imported {
            let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
            #expect(asset.mediaSubtypes.contains(.photoLive) && asset.playbackStyle == .livePhoto, "\(file.lastPathComponent)")
            let resources = test.fetch { PHAssetResource.assetResources(for: asset) }
            #expect(resources.map(\.type) == [.photo, .pairedVideo], "\(file.lastPathComponent)")
            #expect(try Data(contentsOf: try resources[1].fileURL()) == movie, "\(file.lastPathComponent): the video, byte for byte")
            #expect(resources[1].originalFilename.hasSuffix(".MP4") && !resources[1].originalFilename.contains(".MP.MP4"))
        }

        // Any creation pairs it, not only importFiles: here one request of a client's own.
        let single = test.files.appendingPathComponent("MVIMG_20200609_120000.jpg")
        try CameraFiles.motionPhoto(single, still: try Data(contentsOf: try test.jpeg(width: 60, height: 40)), movie: movie, schema: .microVideo)
        let live = try test.importAsset(single)
        #expect(live.mediaSubtypes.contains(.photoLive) && test.fetch { PHAssetResource.assetResources(for: live) }.map(\.type) == [.photo, .pairedVideo])

        // What the XMP points at is an MP4's head and then nothing a video is made of: a plain photo, the block unharmed.
        let broken = test.files.appendingPathComponent("MVIMG_20200609_120001.jpg")
        let junk = movie.prefix(16) + Data(repeating: 0x5A, count: 4_000)
        try CameraFiles.motionPhoto(broken, still: try Data(contentsOf: try test.jpeg(width: 60, height: 40)), movie: junk, schema: .microVideo)
        let plain = try test.importAsset(broken)
        #expect(!plain.mediaSubtypes.contains(.photoLive) && test.fetch { PHAssetResource.assetResources(for: plain) }.map(\.type) == [.photo])
        #expect(test.files(under: "staging").isEmpty)
    }

    /// A camera's RAW+JPEG pair is one photo, as Apple keeps it: the JPEG
    /// shown, the raw its alternatePhoto; apart when asked, or when the two
    /// were not taken at the same second.
    @Test func aRawAndItsJPEGAreOnePhoto() throws {
        let folder = test.files.appendingPathComponent("DCIM-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func pair(_ name: String, jpegTaken: Date) throws -> [URL] {
            let raw = folder.appendingPathComponent(name + ".RW2")
            try FileManager.default.moveItem(
                at: try cameraRaw(
                    width: 160, height: 120, preview: (80, 60),
                    tags: [
                        "-Make=Panasonic", "-Model=DMC-GH4", "-DateTimeOriginal=2021:05:04 10:11:12", "-OffsetTimeOriginal=-04:00",
                        "-ImageUniqueID=\(name)",
                    ]), to: raw)
            let jpeg = folder.appendingPathComponent(name + ".JPG")
            try FileManager.default.moveItem(at: try test.jpeg(width: 160, height: 120, taken: jpegTaken, utcOffset: -14_400), to: jpeg)
            return [raw, jpeg]
        }
        let taken = ISO8601DateFormatter().date(from: "2021-05-04T14:11:12Z")!
        let together = try pair("P1000123", jpegTaken: taken)
        let result = try test.library.importFiles(together)
        #expect(result.failed.isEmpty && result.imported.count == 2, "\(result.failed)")
        #expect(Set(result.imported.map(\.localIdentifier)).count == 1, "one asset")
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [result.imported[0].localIdentifier], options: nil)[0] }
        let resources = test.fetch { PHAssetResource.assetResources(for: asset) }
        #expect(resources.map(\.type) == [.photo, .alternatePhoto])
        #expect(resources.map(\.originalFilename) == ["P1000123.JPG", "P1000123.RW2"])
        #expect(asset.contentType.identifier == "public.jpeg" && asset.creationDate == taken)

        let later = try pair("P1000124", jpegTaken: taken + 60)
        #expect(Set(try test.library.importFiles(later).imported.map(\.localIdentifier)).count == 2, "taken a minute apart: two photos")
        let apart = try pair("P1000125", jpegTaken: taken + 0.5)
        let asked = try test.library.importFiles(apart, options: .init(duplicates: .keep, pairsRAWWithJPEG: false))
        #expect(Set(asked.imported.map(\.localIdentifier)).count == 2)
    }

    @Test func cameraRawFilesShowTheirEmbeddedPreview() throws {
        let raw = try cameraRaw(
            width: 160, height: 120, preview: (80, 60),
            tags: [
                "-ExifImageWidth=160", "-ExifImageHeight=120", "-Make=Panasonic", "-Model=DMC-GH4", "-DateTimeOriginal=2021:05:04 10:11:12",
                "-OffsetTimeOriginal=-04:00",
                "-GPSLatitude=33.5", "-GPSLatitudeRef=S", "-GPSLongitude=70.25", "-GPSLongitudeRef=W", "-Orientation#=6",
            ])
        let asset = try test.importAsset(raw)
        #expect(asset.mediaType == .image && asset.pixelWidth == 120 && asset.pixelHeight == 160, "the raw's size, upright")
        #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2021-05-04T14:11:12Z"))
        #expect(asset.location.map { [$0.coordinate.latitude, $0.coordinate.longitude] } == [-33.5, -70.25])
        #expect(PHAssetResource.assetResources(for: asset).map(\.uniformTypeIdentifier) == ["com.panasonic.raw-image"])
        #expect(fullSize(asset) == [60, 80], "the embedded preview, turned upright")
        #expect(test.library.derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .thumbnail) != nil)

        // No preview: kept with its metadata and file; image requests say why there is nothing to show.
        let bare = try test.importAsset(
            try cameraRaw(
                width: 64, height: 48, preview: nil,
                tags: ["-Make=Panasonic", "-ExifImageWidth=64", "-ExifImageHeight=48"]))
        #expect(bare.pixelWidth == 64 && bare.pixelHeight == 48)
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var error: PHPhotosError?
        PHImageManager.default().requestImage(
            for: bare, targetSize: CGSize(width: 100, height: 100), contentMode: .aspectFit,
            options: options
        ) { image, info in
            #expect(image == nil)
            error = info?[PHImageErrorKey] as? PHPhotosError
        }
        #expect(error?.code == .invalidResource)

        // A file named like a raw that is not one fails its block.
        let fake = try test.file("IMG_1.CR2", Data("not a raw file".utf8))
        expectPhotosError(.invalidResource) {
            try test.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: fake) }
        }
    }
}
