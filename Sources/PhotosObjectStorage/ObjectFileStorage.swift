import Foundation
import PhotosStore

#if canImport(Glibc)
import Glibc
#endif

/// A library's stored files (originals and edits) in S3-compatible object
/// storage, under `PREFIX/originals/X/NAME`, while its staging areas, its
/// derivatives and a read cache of originals stay in the library's local
/// directory (`cache/`).
///
/// How it keeps ``LibraryFileStorage``'s promises:
/// - `place` uploads each staged file to its final key after the backend
///   has journalled the keys locally, and deletes what it uploaded when one
///   upload fails; S3 acknowledges a PUT only once the object is durable.
/// - A crash between upload and database commit leaves objects the journal
///   names; recovery deletes those the database does not, as for a local
///   directory. Objects are only ever written under keys a journal named.
/// - Reads of a whole file (decoding an image) fetch the object once into
///   the cache (written to a temporary name and renamed), then read it
///   locally; a stored file never changes under its key, so the cache
///   never goes stale, and `remove` drops both. Reads by range (a video
///   streamed to a browser) ask the object for each range and cache nothing.
package final class ObjectFileStorage: LibraryFileStorage {
    /// The bucket and prefix the stored files live under.
    package let client: S3Client
    let layout: LibraryLayout
    private let local: LocalFileStorage
    /// Downloaded originals, by stored path.
    let cache: URL

    package init(layout: LibraryLayout, client: S3Client) {
        self.layout = layout
        self.client = client
        local = LocalFileStorage(layout: layout)
        cache = layout.root.appendingPathComponent("cache", isDirectory: true)
    }

    package var derivatives: DerivativeCache { local.derivatives }

    /// The cached copy's place, for a path of the library's shape.
    private func cachedURL(forStoredPath path: String) -> URL? {
        guard let shaped = layout.url(forRelativePath: path) else { return nil }
        return cache.appendingPathComponent(String(shaped.path.dropFirst(layout.root.path.count + 1)))
    }

    /// The cached copy when there is one, else the object itself, read by
    /// ranges and never cached whole.
    package func source(forStoredPath path: String) throws(StoreError) -> StoredFileSource? {
        guard let cached = cachedURL(forStoredPath: path) else { return nil }
        if FileManager.default.fileExists(atPath: cached.path) { return .local(cached) }
        do {
            let size = try Blocking.run { [client] () async throws(ObjectStorageError) -> Int64 in try await client.size(key: path) }
            return .remote(StoredObject(client: client, key: path, size: size))
        } catch .notFound {
            throw .fileSystem("\(path) is missing from object storage at \(client.location)")
        } catch {
            throw .fileSystem("cannot read \(path) from object storage: \(error)")
        }
    }

    package func readableURL(forStoredPath path: String) throws(StoreError) -> URL? {
        guard let cached = cachedURL(forStoredPath: path) else { return nil }
        if FileManager.default.fileExists(atPath: cached.path) { return cached }
        let data: Data
        do {
            data = try Blocking.run { [client] () async throws(ObjectStorageError) -> Data in try await client.get(key: path) }
        } catch .notFound {
            throw .fileSystem("\(path) is missing from object storage at \(client.location)")
        } catch {
            throw .fileSystem("cannot read \(path) from object storage: \(error)")
        }
        let temporary = cached.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).partial")
        do {
            try FileManager.default.createDirectory(at: cached.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: temporary)
            guard rename(temporary.path, cached.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .fileSystem("cannot keep \(path) in the cache \(cache.path): \(error.localizedDescription)")
        }
        return cached
    }

    package func makeStagingArea() throws(StoreError) -> StagingArea {
        try local.makeStagingArea()
    }

    /// Uploads the files, up to ``concurrentUploads`` at once; when one
    /// fails, deletes every one that may have gone up.
    package func place(_ files: [(file: StagedFile, path: String)]) throws(StoreError) {
        if let unshaped = files.first(where: { layout.url(forRelativePath: $0.path) == nil }) {
            throw .fileSystem("internal error: \(unshaped.path) is not a stored path")
        }
        let uploads = files.map { (url: $0.file.url, key: $0.path) }
        do {
            try Blocking.run { [client] () async throws(ObjectStorageError) in
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        var pending = uploads[...]
                        for _ in 0..<min(Self.concurrentUploads, pending.count) {
                            let upload = pending.removeFirst()
                            group.addTask { try await client.put(fileAt: upload.url, key: upload.key) }
                        }
                        while try await group.next() != nil {
                            if let upload = pending.popFirst() {
                                group.addTask { try await client.put(fileAt: upload.url, key: upload.key) }
                            }
                        }
                    }
                } catch {
                    throw error as? ObjectStorageError ?? .unreachable("\(error)")
                }
            }
        } catch {
            for upload in uploads {
                try? Blocking.run { [client] () async throws(ObjectStorageError) in try await client.delete(key: upload.key) }
            }
            throw .fileSystem("cannot store files in object storage at \(client.location): \(error)")
        }
    }

    /// How many files one change block sends at once.
    static let concurrentUploads = 8

    package func remove(_ entry: JournalEntry) {
        switch entry {
        case .file(let path):
            guard layout.url(forRelativePath: path) != nil else { return }
            try? Blocking.run { [client] () async throws(ObjectStorageError) in try await client.delete(key: path) }
            unlink(cachedURL(forStoredPath: path)!.path)
        case .renditions:
            local.remove(entry)
        }
    }

    package func hasAbandonedStaging() -> Bool {
        local.hasAbandonedStaging()
    }

    package func recoverAbandonedStaging(isReferenced: (JournalEntry) throws -> Bool) rethrows {
        try StagingArea.recoverAbandoned(layout: layout, isReferenced: isReferenced, remove: remove)
    }

    package func presentStoredPaths() -> [String] {
        (try? Blocking.run { [client] () async throws(ObjectStorageError) -> [String] in try await client.list(prefix: "originals/") }) ?? []
    }
}

/// One stored object, read by ranges (a video's seeks).
struct StoredObject: RemoteStoredFile {
    let client: S3Client
    let key: String
    let size: Int64

    func read(_ range: ClosedRange<Int64>) async throws(StoreError) -> Data {
        do {
            return try await client.get(key: key, range: range)
        } catch {
            throw .fileSystem("cannot read bytes \(range.lowerBound)-\(range.upperBound) of \(key) from object storage: \(error)")
        }
    }
}
