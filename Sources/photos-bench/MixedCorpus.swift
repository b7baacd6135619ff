import Foundation
import PhotosMedia

/// A mixed corpus of real files, as a person's camera roll and download
/// folders hold them: the camera and phone photos and videos of Debian's
/// forensics-samples-files, each photo also as HEIC and AVIF (heif-enc),
/// JPEG XL (cjxl), WebP, PNG and TIFF (libvips); videos made by ffmpeg's real
/// encoders in the containers phones, cameras and browsers write (HEVC MOV,
/// H.264 MP4 with a place, AV1 MP4, VP9 WebM, H.263 3GP, Motion-JPEG AVI,
/// H.264 M2TS); and a Live Photo, a phone photo re-encoded with an iPhone's
/// content identifier beside its HEVC MOV. Made once in the work folder and
/// reused by later runs.
enum MixedCorpus {
    /// The corpus's files, made when missing; `quick` makes one photo in each
    /// format and few small videos.
    static func files(in workdir: URL, quick: Bool) throws -> [URL] {
        let folder = workdir.appendingPathComponent(quick ? "mixed-corpus-quick" : "mixed-corpus", isDirectory: true)
        let ready = folder.appendingPathComponent(".complete")
        if !FileManager.default.fileExists(atPath: ready.path) {
            print("making the mixed corpus in \(folder.path) (once; later runs reuse it)...")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try make(in: folder, quick: quick)
            try Data().write(to: ready)
        }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static let debianSamples = URL(fileURLWithPath: "/usr/share/forensics-samples/original-files")

    /// The phone and camera photos among Debian's samples (not its logos).
    private static let debianPhotos = [
        "pic1/IMG_20200827_231612.jpg", "pic2/IMG_20191224_234846.jpg", "pic1/IMG_1054.JPG",
        "pic1/IMG-20191006-WA0002.jpg",
    ]
    /// An Android phone's video, and one clip in three old containers.
    private static let debianVideos = [
        "movie1/VID_20191220_170832.mp4", "movie2/movie-hello.avi", "movie2/movie-hello.mpeg",
        "movie2/movie-hello.mp4",
    ]

    private static func make(in folder: URL, quick: Bool) throws {
        let photos = (quick ? Array(debianPhotos.suffix(1)) : debianPhotos).map { debianSamples.appendingPathComponent($0) }
        let videos = (quick ? Array(debianVideos.prefix(1)) : debianVideos).map { debianSamples.appendingPathComponent($0) }
        guard (photos + videos).allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else {
            throw BenchError("the mixed corpus needs Debian's forensics-samples-files: run script/bootstrap")
        }
        for source in photos + videos {
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(source.lastPathComponent))
        }
        for (index, photo) in photos.enumerated() {
            let stem = folder.appendingPathComponent(String(format: "photo-%02d", index)).path
            try run("heif-enc", ["-q", "60", "-o", stem + ".heic", photo.path])
            try run("heif-enc", ["-A", "-q", "60", "-p", "speed=9", "-o", stem + ".avif", photo.path])
            try run("cjxl", ["--quiet", "-d", "1", "-e", "3", "--lossless_jpeg=0", photo.path, stem + ".jxl"])
            try run("vips", ["copy", photo.path, stem + ".webp[Q=80]"])
            try run("vips", ["copy", photo.path, stem + ".png"])
            try run("vips", ["copy", photo.path, stem + ".tif[compression=jpeg]"])
        }
        try livePhoto(from: photos[0], in: folder, size: quick ? "640x480" : "1440x1080")
        let size = quick ? "320x240" : "1920x1080"
        let clips: [(name: String, seconds: Int, size: String, arguments: [String])] =
            [
                (
                    "VID_20240601_101500.mp4", 3, size,
                    [
                        "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac",
                        "-metadata", "location=+48.8566+002.3522/", "-movflags", "+faststart",
                    ]
                ),
                ("3GP_0001.3gp", 3, "176x144", ["-c:v", "h263", "-c:a", "aac", "-ar", "8000", "-ac", "1"]),
            ]
            + (quick
                ? []
                : [
                    ("MVI_0042.AVI", 3, "640x480", ["-c:v", "mjpeg", "-q:v", "5", "-c:a", "pcm_s16le"]),
                    ("00001.MTS", 2, "1440x1080", ["-c:v", "libx264", "-preset", "veryfast", "-c:a", "ac3", "-f", "mpegts"]),
                    ("clip-av1.mp4", 2, "1280x720", ["-c:v", "libsvtav1", "-preset", "12", "-c:a", "aac"]),
                    ("clip-vp9.webm", 2, "1280x720", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"]),
                ])
        for clip in clips {
            try run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(clip.size):rate=30:duration=\(clip.seconds)",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=\(clip.seconds)", "-pix_fmt", "yuv420p",
                ]
                    + clip.arguments + [folder.appendingPathComponent(clip.name).path])
        }
    }

    /// A Live Photo's two files as an iPhone writes them: `photo`'s pixels
    /// re-encoded with Apple's content identifier in its EXIF, and an HEVC
    /// MOV carrying the same identifier.
    private static func livePhoto(from photo: URL, in folder: URL, size: String) throws {
        let identifier = "6B1D3E2A-0000-4000-8000-00000000B001"
        var exif = ExifFields()
        exif.contentIdentifier = identifier
        exif.make = "Apple"
        exif.model = "iPhone 15"
        let taken = Date(timeIntervalSince1970: 1_717_236_000)
        let (dateTime, offset) = ExifFields.exifDateTime(taken, utcOffset: 7_200)
        exif.dateTimeOriginal = dateTime
        exif.offsetTimeOriginal = offset
        let still = try ImageCodec.encode(try ImageCodec.decode(fileAt: photo), as: .jpeg(quality: 90), exif: exif.encoded())
        try still.write(to: folder.appendingPathComponent("IMG_0100.JPG"))
        try run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=3",
                "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p",
                "-metadata", "com.apple.quicktime.content.identifier=\(identifier)", "-movflags", "use_metadata_tags",
                folder.appendingPathComponent("IMG_0100.MOV").path,
            ])
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        // Encoders report their settings on standard error: shown only when they fail.
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw BenchError("\(tool) is missing: run script/bootstrap")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}
