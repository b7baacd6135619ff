import Foundation
import PhotosStore

/// A request, inside a change block, to create an upload job or move one
/// of the calling client's jobs on: acknowledge it, retry it, cancel it.
///
/// Creating a job past ``PHAssetResourceUploadJob/jobLimit`` fails the
/// whole block with ``PHPhotosError/Code/limitExceeded``. Acting on a job
/// in a state the action does not apply to (acknowledging a registered
/// job, retrying a succeeded one, cancelling a finished one) fails the
/// block with ``PHPhotosError/Code/changeNotSupported``: fetch jobs by
/// ``PHAssetResourceUploadJob/Action`` to find those an action applies to.
public final class PHAssetResourceUploadJobChangeRequest: PHChangeRequest, @unchecked Sendable {
    private enum Request {
        case create(uuid: String, asset: String, resource: Int64, type: UploadJobType, destination: UploadDestination?)
        case edit(uuid: String)
    }

    private let request: Request
    private var actions: [UploadJobChange] = []

    private init(_ request: Request, api: String) {
        self.request = request
        super.init()
        ChangeBlock.required(by: api).add(self)
    }

    /// A request to send `resource`'s original bytes to `destination` (its
    /// URL, method and headers; the body is the resource). The resource
    /// must be of an asset the client can see, else the block fails with
    /// `identifierNotFound`.
    @discardableResult
    public class func creationRequestForJob(destination: URLRequest, resource: PHAssetResource) -> Self {
        Self(
            .create(
                uuid: UUID().uuidString, asset: assetUUID(of: resource), resource: resource.record.id, type: .upload,
                destination: UploadDestination(destination)),
            api: "PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination:resource:)")
    }

    /// A request to make `resource`'s file local, for a library whose
    /// originals are in object storage: sent nowhere; succeeded once the
    /// file is on this machine.
    @discardableResult
    public class func creationRequestForDownloadJob(resource: PHAssetResource) -> Self {
        Self(
            .create(uuid: UUID().uuidString, asset: assetUUID(of: resource), resource: resource.record.id, type: .downloadOnly, destination: nil),
            api: "PHAssetResourceUploadJobChangeRequest.creationRequestForDownloadJob(resource:)")
    }

    /// ``creationRequestForJob(destination:resource:)`` without the request;
    /// deprecated by Apple for it.
    public class func createJob(destination: URLRequest, resource: PHAssetResource) {
        _ = creationRequestForJob(destination: destination, resource: resource)
    }

    /// Stands for the job this request creates; nil for a request that edits one.
    public var placeholderForCreatedAssetResourceUploadJob: PHObjectPlaceholder? {
        guard case .create(let uuid, _, _, _, _) = request else { return nil }
        return PHObjectPlaceholder(localIdentifier: PHAssetResourceUploadJob.localIdentifier(uuid: uuid), library: nil)
    }

    /// A request to act on `job`, one of the calling client's.
    public convenience init?(for job: PHAssetResourceUploadJob) {
        self.init(.edit(uuid: job.record.uuid), api: "PHAssetResourceUploadJobChangeRequest(for:)")
    }

    /// Acknowledges a succeeded or failed job: it no longer counts against
    /// the limit, and no fetch by action finds it.
    public func acknowledge() {
        guard case .edit(let uuid) = request else { return }
        actions.append(.acknowledge(uuid: uuid))
    }

    /// Sends a failed job again (once in its life), to `destination` when
    /// given, else to its own: it is registered again.
    public func retry(destination: URLRequest?) {
        guard case .edit(let uuid) = request else { return }
        actions.append(.retry(uuid: uuid, destination: destination.map(UploadDestination.init)))
    }

    /// Calls off a registered or pending job: it is cancelled and
    /// acknowledged. A send under way when the block commits finishes, but
    /// its outcome is not recorded.
    public func cancel() {
        guard case .edit(let uuid) = request else { return }
        actions.append(.cancel(uuid: uuid))
    }

    override func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        switch request {
        case .create(let uuid, let asset, let resource, let type, let destination):
            if let destination, destination.url.isEmpty || !(destination.url.hasPrefix("http://") || destination.url.hasPrefix("https://")) {
                throw PHPhotosError(.invalidResource, "an upload job's destination is an http or https URL, not \(destination.url)")
            }
            builder.changeSet.uploadJobChanges.append(
                .create(NewUploadJob(uuid: uuid, assetUUID: asset, resourceID: resource, type: type, destination: destination)))
        case .edit:
            builder.changeSet.uploadJobChanges += actions
        }
    }
}

/// The UUID of the asset `resource` belongs to.
private func assetUUID(of resource: PHAssetResource) -> String {
    LocalIdentifier(resource.assetLocalIdentifier)?.uuid ?? ""
}

extension UploadDestination {
    /// A URL request's URL, method (POST when it names none) and headers.
    init(_ request: URLRequest) {
        self.init(
            url: request.url?.absoluteString ?? "", method: request.httpMethod ?? "POST",
            headers: request.allHTTPHeaderFields ?? [:])
    }
}
