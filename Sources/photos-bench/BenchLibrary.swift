import Foundation
import GRDB
import PhotosSQLite
import PhotosStore

/// The large libraries the benchmarks run on: bulk-loaded once with plain
/// SQL (the setup is not what is measured) and reused while complete.
enum BenchLibrary {
    static let start = Date(timeIntervalSince1970: 1_400_000_000)
    static let span: TimeInterval = 10 * 365 * 86_400
    /// When the library's deleted assets were deleted: 2100, so that the
    /// 30-day purge of Recently Deleted, which opening a library runs, never
    /// finds them, and the library is the same in every measured run.
    static let trashedDate = Date(timeIntervalSince1970: 4_102_444_800)

    /// What the libraries hold, by version: a library built by another
    /// version of the setup is built again. 2: deleted assets are never
    /// purged. 3: no suite writes to them (they write to ``workingCopy(of:in:)``),
    /// so those that did (with history from every run) are built again.
    private static let contentsVersion = "3"

    /// The library `name` in `workdir`, built by `build` on first use and
    /// reused once a build of this version completed.
    static func cached(_ name: String, in workdir: URL, holding contents: String, build: (URL) throws -> Void) throws -> URL {
        let url = workdir.appendingPathComponent(name)
        let marker = url.appendingPathComponent("bench-complete")
        if (try? String(contentsOf: marker, encoding: .utf8)) == contentsVersion { return url }
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        print("setting up \(contents) in \(url.path) (once; later runs reuse it)...")
        let started = Date()
        try build(url)
        try Data(contentsVersion.utf8).write(to: marker)
        print(String(format: "set up in %.0f s", Date().timeIntervalSince(started)))
        return url
    }

    /// A GRDB pool on a library's database that commits as durably as the
    /// engine: every commit synced (`synchronous = FULL`, which GRDB's WAL
    /// setup otherwise lowers to NORMAL). Baselines of commits write with it.
    static func durablePool(_ library: URL) throws -> DatabasePool {
        let pool = try DatabasePool(path: library.appendingPathComponent("database/Photos.sqlite").path)
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    /// A library of `assetCount` assets in `workdir`, made on first use.
    static func prepare(assetCount: Int, in workdir: URL) throws -> URL {
        try cached("library-\(assetCount).photoslibrary", in: workdir, holding: "\(assetCount) assets") { url in
            try load(assetCount: assetCount, into: url)
        }
    }

    private static func load(assetCount: Int, into url: URL) throws {
        _ = try SQLitePhotoStore(url: url)
        let pool = try DatabasePool(path: url.appendingPathComponent("database/Photos.sqlite").path)
        var random = SplitMix(state: 99)
        try pool.write { db in
            let statement = try db.makeStatement(sql: AssetRecord.insertSQL)
            for index in 0..<assetCount {
                try statement.execute(arguments: record(index: index, random: &random).insertArguments.statementArguments)
            }
        }
        try pool.writeWithoutTransaction { try $0.execute(sql: "ANALYZE") }
    }

    /// A plausible asset: ten years of photos, some videos, favorites, bursts, hidden and deleted ones.
    static func record(index: Int, random: inout SplitMix) -> AssetRecord {
        let roll = random.next() % 1000
        let date = start.addingTimeInterval(Double(random.next() % UInt64(span)))
        let mediaType: AssetMediaType = roll < 120 ? .video : roll < 130 ? .audio : .image
        let burst = roll >= 990 ? "burst-\(index / 10)" : nil
        let located = random.next() % 10 < 3
        return AssetRecord(
            uuid: UUID().uuidString, mediaType: mediaType,
            mediaSubtypes: AssetMediaSubtypes(rawValue: Int(random.next() % 3 == 0 ? 1 << (random.next() % 5) : 0)),
            pixelWidth: [4032, 3024, 1920, 1080][Int(random.next() % 4)], pixelHeight: [3024, 4032, 1080][Int(random.next() % 3)],
            creationDate: date, modificationDate: date, addedDate: date, duration: mediaType == .video ? Double(random.next() % 120) : 0,
            location: located ? StoredLocation(latitude: Double(random.next() % 180) - 90, longitude: Double(random.next() % 360) - 180) : nil,
            isFavorite: random.next() % 10 == 0, isHidden: random.next() % 100 == 0, sourceType: random.next() % 50 == 0 ? .cloudShared : .userLibrary,
            burstIdentifier: burst, burstSelectionTypes: [], representsBurst: burst != nil && index % 10 == 0,
            playbackStyle: mediaType == .video ? .video : .image, trashedDate: random.next() % 200 == 0 ? trashedDate : nil,
            originalFilename: String(format: "IMG_%05d.JPG", index % 100_000), uniformTypeIdentifier: "public.jpeg",
            cameraMake: "Apple", cameraModel: "iPhone",
            // Described as people describe theirs: a third rated, a quarter captioned, a third with keywords
            // (from the index alone, so that the random stream, and every other column, stays as it was).
            rating: AssetRating(rawValue: index % 3 == 0 ? 1 + index % 5 : 0) ?? .unset,
            extendedMetadata: index % 4 == 0 || index % 3 == 0
                ? ExtendedMetadataRecord(
                    caption: index % 4 == 0 ? "Walk by the river with the family, day \(index % 365)" : nil,
                    keywords: index % 3 == 0 ? ["holiday", "family", "place \(index % 50)"] : [])
                : nil)
    }

    /// Drops the library database's pages (and its WAL's) from the kernel's
    /// page cache, so that the next read comes from the disk: a cold start.
    /// Cost: one `posix_fadvise` per file; the pages are clean, so nothing is
    /// written.
    static func evictFromPageCache(_ library: URL) throws {
        for suffix in ["", "-wal"] {
            let path = library.appendingPathComponent("database/Photos.sqlite\(suffix)").path
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else {
                if errno == ENOENT && !suffix.isEmpty { continue }
                throw BenchError("could not open \(path) to evict it from the page cache")
            }
            defer { close(descriptor) }
            guard posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0 else {
                throw BenchError("posix_fadvise could not evict \(path) from the page cache")
            }
        }
    }

    /// A copy of `library` for one run to change, in `scratch/` (which the
    /// run deletes): its folders and files as they are, its database
    /// written afresh with `VACUUM INTO`. The suites that write work on
    /// copies made at the start of each run, ours and the baseline alike,
    /// so that neither side carries the history, deletions and free pages
    /// of earlier runs: the libraries they are made from never change.
    /// Cost: a read of the database and a write of the copy.
    static func workingCopy(of library: URL, in workdir: URL) throws -> URL {
        let copy = scratch(in: workdir)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: library.path) where name != "database" {
            try FileManager.default.copyItem(at: library.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        let database = copy.appendingPathComponent("database")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.readonly = true
        let source = try DatabaseQueue(path: library.appendingPathComponent("database/Photos.sqlite").path, configuration: configuration)
        try source.inDatabase { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [database.appendingPathComponent("Photos.sqlite").path])
        }
        return copy
    }

    /// `ids` as a JSON array, for SQLite's `json_each(?)`: the baselines'
    /// way to pass a list of rows in one argument.
    static func jsonList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// A library's location as a child process's `--library` takes it: a
    /// directory's path, or a database library's URL.
    static func argument(_ library: URL) -> String {
        library.isFileURL ? library.path : library.absoluteString
    }

    /// A new library location under `scratch/`, which the run deletes at the end.
    static func scratch(in workdir: URL) -> URL {
        workdir.appendingPathComponent("scratch/\(UUID().uuidString).photoslibrary")
    }

    /// Runs a suite's `steps` between two clean-ups of `scratch/`: what an
    /// earlier run left goes first, and what these steps leave goes
    /// whether they succeed or fail.
    static func withScratch(in workdir: URL, _ steps: () async throws -> Void) async throws {
        removeScratch(in: workdir)
        defer { removeScratch(in: workdir) }
        try await steps()
    }

    static func removeScratch(in workdir: URL) {
        try? FileManager.default.removeItem(at: workdir.appendingPathComponent("scratch"))
    }

}
