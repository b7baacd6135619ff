import CBenchVips
import Foundation
import GRDB
import PhotosStore

/// The import baseline: what importing a photo must do, done plainly.
/// `bench_import_photo` runs for each photo, as many at once as there are
/// cores (the copy and its sync, the content hash, the EXIF capture date,
/// the 360-px thumbnail and its sync), then every asset and resource row
/// goes in one durable transaction. What the engine does besides (a
/// staging journal, the ThumbHash placeholder, history rows) it does not.
struct ImportBaseline {
    /// Holds `originals/` and `thumbnails/`.
    let files: URL
    /// A library database, committing durably (``BenchLibrary/durablePool(_:)``).
    let pool: DatabasePool

    init(files: URL, pool: DatabasePool) throws {
        self.files = files
        self.pool = pool
        for folder in ["originals", "thumbnails"] {
            try FileManager.default.createDirectory(at: files.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    /// EXIF's date form, read as UTC, as both baselines read capture dates.
    static let exifDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter
    }()

    /// Imports `photos`; returns the new assets' UUIDs, in order.
    @discardableResult
    func importPhotos(_ photos: [URL]) throws -> [String] {
        let uuids = photos.map { _ in UUID().uuidString }
        let results = ImportSlots<bench_imported_photo>(count: photos.count)
        DispatchQueue.concurrentPerform(iterations: photos.count) { index in
            var photo = bench_imported_photo()
            let status = bench_import_photo(photos[index].path, original(uuids[index]).path, thumbnail(uuids[index]).path, &photo)
            results.set(index, status == 0 ? photo : nil)
        }
        let imported = try results.values.map { photo in
            guard let photo else { throw BenchError("the import baseline failed on a photo") }
            return photo
        }
        let now = Date()
        try pool.write { db in
            let asset = try db.makeStatement(sql: AssetRecord.insertSQL)
            let resource = try db.makeStatement(
                sql: """
                    INSERT INTO resource (asset_id, type, relative_path, original_filename, uniform_type_identifier, pixel_width, pixel_height, file_size)
                    VALUES (?, 1, ?, ?, 'public.jpeg', ?, ?, ?)
                    """)
            for (index, photo) in imported.enumerated() {
                let taken = withUnsafeBytes(of: photo.date_time_original) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let hash = withUnsafeBytes(of: photo.content_hash) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let name = photos[index].lastPathComponent
                let record = AssetRecord(
                    uuid: uuids[index], mediaType: .image, pixelWidth: Int(photo.pixel_width), pixelHeight: Int(photo.pixel_height),
                    creationDate: Self.exifDate.date(from: taken) ?? now, modificationDate: now, addedDate: now, playbackStyle: .image,
                    originalFilename: name, uniformTypeIdentifier: "public.jpeg", contentHash: hash)
                try asset.execute(arguments: record.insertArguments.statementArguments)
                let size = FileStatus(atPath: original(uuids[index]).path)?.size ?? 0
                try resource.execute(arguments: [
                    db.lastInsertedRowID, "originals/\(uuids[index]).jpg", name,
                    photo.pixel_width, photo.pixel_height, size,
                ])
            }
        }
        return uuids
    }

    /// Deletes what ``importPhotos(_:)`` added for `uuids`: rows and files.
    func remove(_ uuids: [String]) throws {
        try pool.write { db in
            try db.execute(
                sql: "DELETE FROM asset WHERE uuid IN (SELECT value FROM json_each(?))",
                arguments: [String(decoding: try JSONEncoder().encode(uuids), as: UTF8.self)])
        }
        for uuid in uuids {
            try FileManager.default.removeItem(at: original(uuid))
            try FileManager.default.removeItem(at: thumbnail(uuid))
        }
    }

    /// Where the original of `uuid` is copied, under `pathExtension`.
    func original(_ uuid: String, pathExtension: String = "jpg") -> URL { files.appendingPathComponent("originals/\(uuid).\(pathExtension)") }
    /// Where the thumbnail of `uuid` is written.
    func thumbnail(_ uuid: String) -> URL { files.appendingPathComponent("thumbnails/\(uuid).jpg") }
}

/// What concurrent workers found, one slot each; nil for a failure or
/// nothing yet.
final class ImportSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Value?) {
        lock.withLock { slots[index] = value }
    }

    var values: [Value?] { lock.withLock { slots } }
}
