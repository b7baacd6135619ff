import Foundation
import PhotosStore

#if canImport(FoundationNetworking)
// Upload jobs name their destination with URLRequest, which Linux's
// Foundation keeps in FoundationNetworking: a client that imports
// Photos has it, as on Apple's systems.
@_exported import FoundationNetworking
#endif

/// A resource of the library to send to an HTTP destination (an upload
/// job) or to make local (a download-only job), and how far it has got. An
/// immutable snapshot: fetch jobs again to see their state move.
///
/// Jobs belong to the client that created them (the owner's are the
/// owner's), are created and moved with ``PHAssetResourceUploadJobChangeRequest``
/// inside change blocks, and are kept in the library: they survive a
/// restart of the app and of whatever performs them. Here the performer is
/// `photos upload-jobs run`, a long-running process that sends the jobs of
/// every client whose extension is enabled
/// (``PHPhotoLibrary/enableUploadJobExtension(with:)``) and runs the
/// client's ``PHBackgroundResourceUploadJobExtension``; see the Uploading
/// in the background article.
///
/// States move registered → pending → succeeded or failed; a failed job
/// may be retried once (back to registered); a registered or pending job
/// may be cancelled. A succeeded job is never sent again.
public final class PHAssetResourceUploadJob: PHObject, @unchecked Sendable {
    /// Where a job is.
    public enum State: Int, Sendable, Hashable {
        /// Created, not yet being sent.
        case registered = 1
        /// Being sent (or to be sent again after the performer restarted).
        case pending = 2
        /// The destination refused it, could not be reached, or the resource is gone.
        case failed = 3
        /// The destination took it (an HTTP 2xx answer), or, for a download-only job, the file is local.
        case succeeded = 4
        /// Called off before it finished; acknowledged with it.
        case cancelled = 5
    }

    /// What a job does.
    public enum `Type`: Int16, Sendable, Hashable {
        /// Sends the resource's original bytes to the destination.
        case upload = 0
        /// Makes the resource's file local (from object storage); sends nothing.
        case downloadOnly = 1
    }

    /// What a fetch by action finds: the jobs an app can act on.
    public enum Action: Int, Sendable, Hashable {
        /// Succeeded or failed jobs not acknowledged: acknowledge them to free the limit.
        case acknowledge = 1
        /// Failed jobs not acknowledged and never retried.
        case retry = 2
        /// Registered or pending jobs.
        case process = 3
    }

    /// The most jobs a client may have that are not acknowledged
    /// (registered, pending, succeeded or failed); creating more fails
    /// the change block with ``PHPhotosError/Code/limitExceeded``.
    public class var jobLimit: Int { uploadJobLimit }

    let record: UploadJobRecord

    init(record: UploadJobRecord, library: PHPhotoLibrary) {
        self.record = record
        super.init(localIdentifier: Self.localIdentifier(uuid: record.uuid), library: library)
    }

    /// The local identifier of the job `uuid`.
    static func localIdentifier(uuid: String) -> String { uuid + "/L0/090" }

    /// The UUID a job's local identifier starts with; nil for any other identifier.
    static func uuid(ofLocalIdentifier identifier: String) -> String? {
        guard identifier.hasSuffix("/L0/090") else { return nil }
        return LocalIdentifier.canonicalUUID(identifier.utf8.dropLast(7))
    }

    /// Where the resource is sent: the request's URL, method and headers.
    /// A download-only job's is an empty request.
    public var destination: URLRequest {
        guard let stored = record.destination, let url = URL(string: stored.url) else {
            return URLRequest(url: URL(string: "about:blank")!)
        }
        var request = URLRequest(url: url)
        request.httpMethod = stored.method
        for (name, value) in stored.headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    public var state: State { State(rawValue: record.state.rawValue) ?? .failed }

    public var type: `Type` { `Type`(rawValue: Int16(record.type.rawValue)) ?? .upload }

    /// The destination's answer's headers, names lower-cased, once the job
    /// has succeeded or failed with an answer; nil before, or without one.
    public var responseHeaderFields: [String: String]? { record.responseHeaders }

    /// Why the job failed; nil unless it did.
    public var error: (any Error)? {
        guard state == .failed else { return nil }
        return PHPhotosError(.networkError, record.error ?? "the upload failed")
    }

    /// The resource the job sends. Deprecated by Apple for
    /// ``PHAssetResource/assetResource(forUploadJob:)``, which says when it
    /// is gone; this traps then, as a non-optional must.
    public var resource: PHAssetResource {
        guard let resource = PHAssetResource.assetResource(forUploadJob: self) else {
            preconditionFailure("the resource of upload job \(localIdentifier) is gone: use PHAssetResource.assetResource(forUploadJob:)")
        }
        return resource
    }

    /// The calling client's jobs an action finds, oldest first, filtered
    /// and sorted by `options` where they name `state`, `type` or
    /// `creationDate`. Cost: one query over the client's jobs.
    public class func fetchJobs(action: Action, options: PHFetchOptions?) -> PHFetchResult<PHAssetResourceUploadJob> {
        let library = PHPhotoLibrary.current
        guard let store = library.store else { return PHFetchResult(contents: .empty) }
        do {
            let records = try store.uploadJobs(action: UploadJobAction(rawValue: action.rawValue), uuids: nil)
            var jobs = records.map { PHAssetResourceUploadJob(record: $0, library: library) }
            if let limit = options?.fetchLimit, limit > 0 { jobs = Array(jobs.prefix(limit)) }
            return PHFetchResult(contents: FetchedObjects(.objects(jobs)))
        } catch {
            Diagnostics.report(error, while: "fetching upload jobs")
            return PHFetchResult(contents: .empty)
        }
    }

    public override var description: String {
        "<PHAssetResourceUploadJob> \(localIdentifier) \(type == .upload ? "upload" : "download-only") state=\(state.rawValue)"
            + (record.isAcknowledged ? " acknowledged" : "")
    }
}

extension PHAssetResource {
    /// The resource an upload job sends; nil when it is gone (its asset
    /// deleted, or its edit replaced). Cost: one query.
    public class func assetResource(forUploadJob job: PHAssetResourceUploadJob) -> PHAssetResource? {
        guard let library = job.library else { return nil }
        let asset = library.withCurrentLibrary {
            PHAsset.fetchAssets(withLocalIdentifiers: [LocalIdentifier(uuid: job.record.assetUUID, entity: .asset).description], options: nil)
                .firstObject
        }
        guard let asset else { return nil }
        return PHAssetResource.assetResources(for: asset).first { $0.record.id == job.record.resourceID }
    }
}
