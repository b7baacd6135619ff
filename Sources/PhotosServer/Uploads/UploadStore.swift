import Foundation
import Synchronization

/// Uploads in progress, kept on disk beside the library (`uploads/`): each
/// is a data file, appended to as bytes arrive, and a small JSON
/// description written when it is created. The offset to resume from is
/// the data file's length, so an upload survives a dropped connection and
/// a server killed mid-write. Ids are random and server-made: a client's
/// names never become paths. Uploads older than `lifetime` are removed.
final class UploadStore: Sendable {
    struct Upload: Codable, Sendable {
        let id: String
        /// The token that created it; no other may see it.
        let tokenID: String
        let length: Int
        let filename: String
        let created: Date
    }

    let directory: URL
    let maximumLength: Int
    let lifetime: TimeInterval
    /// Uploads being written now: one writer at a time per upload.
    private let writing = Mutex<Set<String>>([])

    init(directory: URL, maximumLength: Int, lifetime: TimeInterval = 86_400) throws {
        self.directory = directory
        self.maximumLength = maximumLength
        self.lifetime = lifetime
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func create(tokenID: String, length: Int, filename: String) throws -> Upload {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let upload = Upload(id: id, tokenID: tokenID, length: length, filename: filename, created: Date())
        try JSONEncoder().encode(upload).write(to: descriptionURL(id), options: .atomic)
        guard FileManager.default.createFile(atPath: dataURL(id).path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: dataURL(id).path])
        }
        return upload
    }

    /// The upload with this id if `tokenID` made it and it has not expired.
    func upload(_ id: String, tokenID: String) -> Upload? {
        guard id.utf8.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let data = try? Data(contentsOf: descriptionURL(id)),
              let upload = try? JSONDecoder().decode(Upload.self, from: data),
              upload.tokenID == tokenID, Date().timeIntervalSince(upload.created) < lifetime else { return nil }
        return upload
    }

    /// How many bytes have arrived.
    func offset(of id: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: dataURL(id).path)[.size]) as? Int) ?? 0
    }

    func dataURL(_ id: String) -> URL { directory.appendingPathComponent(id + ".part") }
    private func descriptionURL(_ id: String) -> URL { directory.appendingPathComponent(id + ".json") }

    /// Claims the upload for one writer; false while another writes it.
    func beginWriting(_ id: String) -> Bool { writing.withLock { $0.insert(id).inserted } }
    func endWriting(_ id: String) { writing.withLock { _ = $0.remove(id) } }

    func remove(_ id: String) {
        try? FileManager.default.removeItem(at: dataURL(id))
        try? FileManager.default.removeItem(at: descriptionURL(id))
    }

    /// Removes uploads past their lifetime and files without a description.
    func removeExpired(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let id = String(name.prefix { $0 != "." })
            let description = descriptionURL(id)
            if let data = try? Data(contentsOf: description), let upload = try? JSONDecoder().decode(Upload.self, from: data),
               now.timeIntervalSince(upload.created) < lifetime {
                continue
            }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
