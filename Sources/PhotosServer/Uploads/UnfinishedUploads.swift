import Foundation
import Photos

/// The uploads `photos serve` keeps for a library while they arrive (tus
/// uploads not yet made assets), for its owner to see and clear:
/// `photos uploads ls|rm` is built on it. The server also removes those
/// abandoned for a day and those of tokens revoked or expired, on its own.
public struct UnfinishedUploads: Sendable {
    /// One upload in progress.
    public struct Upload: Sendable, Hashable {
        /// What names it in URLs (`/v1/uploads/{id}`).
        public let id: String
        /// The access token that made it.
        public let tokenID: String
        /// The name of its file, as its client gave it.
        public let filename: String
        /// The bytes it will hold.
        public let length: Int
        /// The bytes received so far.
        public let received: Int
        /// When it was made.
        public let creationDate: Date
        /// When bytes last arrived.
        public let lastWriteDate: Date
    }

    private let store: UploadStore

    /// The unfinished uploads of `library`, which its owner opened (a client
    /// gets `PHPhotosError.accessRestricted`).
    public init(library: PHPhotoLibrary) throws {
        guard library.clientIdentifier == nil else {
            throw PHPhotosError(.accessRestricted, userInfo: [NSLocalizedDescriptionKey: "only the library's owner manages its uploads"])
        }
        store = try UploadStore(directory: library.filesDirectory.appendingPathComponent("uploads"), maximumLength: .max)
    }

    /// Every unfinished upload, oldest first. Cost: a look at each.
    public func list() -> [Upload] {
        store.list().map { status in
            Upload(
                id: status.upload.id, tokenID: status.upload.tokenID, filename: status.upload.filename, length: status.upload.length,
                received: status.received, creationDate: status.upload.created, lastWriteDate: status.lastWrite)
        }
    }

    /// Removes an upload and what it received; `identifierNotFound` when
    /// there is none with that id.
    public func remove(id: String) throws {
        guard store.upload(id, tokenID: nil) != nil || store.list().contains(where: { $0.upload.id == id }) else {
            throw PHPhotosError(.identifierNotFound, userInfo: [NSLocalizedDescriptionKey: "there is no unfinished upload \(id)"])
        }
        store.remove(id)
    }
}
