import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport

@testable import Photos

/// A library in a fresh temporary directory, removed when the value is
/// dropped, on the backend `PHOTOS_TEST_BACKEND` selects (``TestBackend``).
final class TestLibrary {
    let directory: URL
    let library: PHPhotoLibrary
    let files: URL

    /// `originals`: where a library keeps its originals when not in its
    /// directory (object storage). `directory`: a folder of its own to make
    /// it in; by default a new one in the temporary directory. An exit
    /// test, whose process ends without removing anything, passes one its
    /// parent removes (a ``ScratchDirectory``'s).
    init(options: PHPhotoLibrary.OpenOptions = [], originals: URL? = nil, in directory: URL? = nil) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("photos-test-\(UUID().uuidString)")
        files = self.directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        do {
            library = try PHPhotoLibrary(
                url: TestBackend.selected.newLibraryURL(in: self.directory),
                originals: try originals ?? TestBackend.selected.newOriginals(in: self.directory),
                options: options, clientIdentifier: nil)
        } catch {
            // deinit does not run for an instance whose initialiser throws.
            try? FileManager.default.removeItem(at: self.directory)
            throw error
        }
    }

    /// The same library opened by a client, whose access the owner (`library`) grants.
    func client(_ identifier: String) throws -> PHPhotoLibrary {
        try PHPhotoLibrary(url: library.url, clientIdentifier: identifier)
    }

    /// Removes the directory, and the library's own folder when it is
    /// elsewhere (a library in PostgreSQL with its originals in object
    /// storage caches its files in `PHOTOS_CACHE_DIR`).
    deinit {
        if let libraryFolder = (library.store as? any SQLPhotoStore)?.layout.root.standardizedFileURL.path,
            !libraryFolder.hasPrefix(directory.standardizedFileURL.path + "/")
        {
            try? FileManager.default.removeItem(atPath: libraryFolder)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes a small JPEG with the given EXIF and returns its URL.
    func jpeg(
        _ name: String = UUID().uuidString + ".jpg", width: Int = 48, height: Int = 32, taken: Date? = nil,
        utcOffset: Int = 0, latitude: Double? = nil, longitude: Double? = nil, orientation: Int? = nil,
        make: String? = nil, model: String? = nil, lens: String? = nil,
        configure: (inout ExifFields) -> Void = { _ in }
    ) throws -> URL {
        var exif = ExifFields()
        configure(&exif)
        if let taken {
            let (dateTime, offset) = ExifFields.exifDateTime(taken, utcOffset: utcOffset)
            exif.dateTimeOriginal = dateTime
            exif.offsetTimeOriginal = offset
        }
        exif.latitude = latitude
        exif.longitude = longitude
        exif.orientation = orientation
        exif.make = make
        exif.model = model
        exif.lensModel = lens
        let data = try SampleImage.jpeg(width: width, height: height, from: (20, 40, 60), to: (220, 180, 90), exif: exif)
        let url = files.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// Writes arbitrary bytes to a file and returns its URL.
    func file(_ name: String, _ data: Data) throws -> URL {
        let url = files.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// Creates one asset per file in one change block; returns their identifiers.
    @discardableResult
    func importImages(_ urls: [URL]) throws -> [String] {
        var identifiers: [String] = []
        try library.performChangesAndWait {
            for url in urls {
                let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)
                identifiers.append(request!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        return identifiers
    }

    /// Creates `count` assets taken a day apart from `start`; returns their identifiers in date order.
    @discardableResult
    func importDays(_ count: Int, from start: Date = Date(timeIntervalSince1970: 1_600_000_000)) throws -> [String] {
        try importImages((0..<count).map { try jpeg(taken: start.addingTimeInterval(Double($0) * 86_400)) })
    }

    /// Runs class fetch methods against this library.
    func fetch<T>(_ body: () throws -> T) rethrows -> T {
        try library.withCurrentLibrary(body)
    }

    /// Every stored original and edit, relative to `originals/`, wherever
    /// the library keeps them (its directory, or object storage), as its
    /// file storage lists them.
    var originalFiles: [String] {
        (library.store?.files.presentStoredPaths() ?? []).map { String($0.dropFirst("originals/".count)) }.sorted()
    }

    /// The directory holding the library's files (its own directory; for a
    /// database library, the one its originals, derivatives and staging are in).
    var libraryDirectory: URL {
        (library.store as? any SQLPhotoStore)?.layout.root ?? library.url
    }

    /// Every file under a folder of the library, relative to that folder.
    func files(under folder: String) -> [String] {
        let root = libraryDirectory.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files.sorted()
    }
}

extension TestLibrary {
    /// Stores asset rows directly through the engine, for states the public
    /// API cannot create (bursts, other sources, any media subtype). Returns
    /// their identifiers.
    @discardableResult
    func insert(_ records: [AssetRecord]) throws -> [String] {
        var changes = ChangeSet()
        changes.newAssets = records.map { NewAsset(record: $0, resources: []) }
        _ = try library.store!.beginCommit().commit(changes)
        return records.map { LocalIdentifier(uuid: $0.uuid, entity: .asset).description }
    }

    /// A row with sensible defaults.
    static func record(
        created: Date?, mediaType: Int = 1, subtypes: Int = 0, favorite: Bool = false, hidden: Bool = false,
        source: Int = 1, burst: String? = nil, representsBurst: Bool = false, burstSelection: Int = 0,
        width: Int = 100, height: Int = 100, duration: Double = 0, added: Date = Date()
    ) -> AssetRecord {
        AssetRecord(
            uuid: UUID().uuidString, mediaType: AssetMediaType(rawValue: mediaType) ?? .unknown, mediaSubtypes: AssetMediaSubtypes(rawValue: subtypes),
            pixelWidth: width,
            pixelHeight: height, creationDate: created, modificationDate: added, addedDate: added,
            duration: duration, isFavorite: favorite, isHidden: hidden, sourceType: AssetSourceTypes(rawValue: source),
            burstIdentifier: burst, burstSelectionTypes: AssetBurstSelectionTypes(rawValue: burstSelection), representsBurst: representsBurst,
            playbackStyle: mediaType == 2 ? .video : .image)
    }
}

extension TestLibrary {
    /// Makes a short video with ffmpeg's test pattern; `tags` become
    /// container metadata, `rotation` the display rotation in degrees.
    func video(
        seconds: Double = 1, width: Int = 160, height: Int = 120, fps: Int = 30, rotation: Int = 0,
        tags: [String: String] = [:], name: String = UUID().uuidString + ".mp4"
    ) throws -> URL {
        let url = files.appendingPathComponent(name)
        let encoded = rotation == 0 ? url : files.appendingPathComponent("unrotated-" + name)
        var arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=\(fps)",
            "-t", String(seconds), "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
        ]
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
            arguments += ["-metadata", "\(key)=\(value)"]
        }
        try Self.ffmpeg(arguments + ["-movflags", "use_metadata_tags", encoded.path])
        if rotation != 0 {
            // ffmpeg records a rotation only when it copies the stream, not when it encodes it.
            try Self.ffmpeg([
                "-v", "error", "-y", "-i", encoded.path, "-c", "copy", "-map_metadata", "0",
                "-metadata:s:v:0", "rotate=\(rotation)", "-movflags", "use_metadata_tags", url.path,
            ])
        }
        return url
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Imports one file as a new asset; returns it.
    func importAsset(_ url: URL, video: Bool = false) throws -> PHAsset {
        var identifier = ""
        try library.performChangesAndWait {
            let request =
                video
                ? PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url)
                : PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)
            identifier = request!.placeholderForCreatedAsset!.localIdentifier
        }
        return fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
    }
}
