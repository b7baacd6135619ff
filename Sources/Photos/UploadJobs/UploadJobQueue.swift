import Foundation
import PhotosStore

/// The performer's side of upload jobs: what is to be sent, and the
/// record of each job started and finished, committed to the library so
/// that a performer that stops finds every job where it left it. Only the
/// library's owner performs. Used by `photos upload-jobs run`.
package struct UploadJobQueue: Sendable {
    /// One job to perform.
    package struct Work: Sendable {
        package var uuid: String
        /// The client whose job it is ("" for the owner).
        package var client: String
        package var isDownloadOnly: Bool
        package var destination: UploadDestination?
        /// The resource's bytes; nil when the resource is gone.
        package var bytes: ResourceBytes?
        /// The resource's stored path, for a download-only job.
        package var storedPath: String?
        package var filename: String?
    }

    package let library: PHPhotoLibrary

    package init(library: PHPhotoLibrary) {
        self.library = library
    }

    /// The next unfinished jobs of clients with an enabled extension, at most `limit`.
    package func next(limit: Int) throws -> [Work] {
        let store = try library.requireStore()
        let jobs: [UploadJobRecord]
        do {
            jobs = try store.unfinishedUploadJobs(limit: limit)
        } catch {
            throw PHPhotosError(storeError: error)
        }
        return jobs.map { job in
            let resource = library.withCurrentLibrary { () -> PHAssetResource? in
                let identifier = LocalIdentifier(uuid: job.assetUUID, entity: .asset).description
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject else { return nil }
                return PHAssetResource.assetResources(for: asset).first { $0.record.id == job.resourceID }
            }
            return Work(
                uuid: job.uuid, client: job.client, isDownloadOnly: job.type == .downloadOnly, destination: job.destination,
                bytes: try? resource?.bytes(), storedPath: resource?.record.relativePath, filename: resource?.originalFilename)
        }
    }

    /// Every client's enabled extension.
    package func extensions() throws -> [UploadExtensionRecord] {
        do {
            return try library.requireStore().allUploadExtensions()
        } catch let error as StoreError {
            throw PHPhotosError(storeError: error)
        }
    }

    /// Records that the job is being sent (pending), before a byte goes.
    package func start(_ uuid: String) throws {
        try commit(.start(uuid: uuid))
    }

    /// Records the job's outcome: succeeded with the answer's headers, or failed with why.
    package func finish(_ uuid: String, succeeded: Bool, responseHeaders: [String: String]?, error: String?) throws {
        try commit(.finish(uuid: uuid, succeeded: succeeded, responseHeaders: responseHeaders, error: error))
    }

    /// Makes a stored file local (a download-only job). Cost: a download
    /// the first time, for a library whose originals are in object storage.
    package func makeLocal(storedPath: String) throws {
        do {
            guard try library.requireStore().files.readableURL(forStoredPath: storedPath) != nil else {
                throw PHPhotosError(.missingResource, "\(storedPath) is not a file of the library")
            }
        } catch let error as StoreError {
            throw PHPhotosError(storeError: error)
        }
    }

    private func commit(_ change: UploadJobChange) throws {
        let store = try library.requireStore()
        var changes = ChangeSet()
        changes.uploadJobChanges = [change]
        do {
            _ = try store.beginCommit().commit(changes)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}
