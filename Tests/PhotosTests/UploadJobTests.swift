import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Upload jobs through the public API, with the performer's queue
/// (`UploadJobQueue`, what `photos upload-jobs run` drives) standing in
/// for the sending: creation, the limit, every state move PhotoKit
/// documents and those it does not allow, per-client ownership, and
/// durability across reopening.
@Suite struct UploadJobTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func photoResource(_ identifier: String, in library: PHPhotoLibrary? = nil) -> PHAssetResource {
        let library = library ?? test.library
        return library.withCurrentLibrary {
            PHAssetResource.assetResources(for: PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0])[0]
        }
    }

    private func jobs(_ action: PHAssetResourceUploadJob.Action, in library: PHPhotoLibrary? = nil) -> [PHAssetResourceUploadJob] {
        (library ?? test.library).withCurrentLibrary {
            let result = PHAssetResourceUploadJob.fetchJobs(action: action, options: nil)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
    }

    private func destination(_ path: String, method: String = "POST") -> URLRequest {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:9/\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        return request
    }

    @Test func enumerationsHaveApplesRawValues() {
        #expect([PHAssetResourceUploadJob.State.registered, .pending, .failed, .succeeded, .cancelled].map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect([PHAssetResourceUploadJob.Action.acknowledge, .retry, .process].map(\.rawValue) == [1, 2, 3])
        #expect(PHPhotosError.Code.limitExceeded.rawValue == 3307)
        #expect(PHAssetResourceUploadJob.jobLimit > 0)
        #expect(
            [PHBackgroundResourceUploadProcessingResult.failure, .processing, .completed].map {
                PHBackgroundResourceUploadProcessingResult(exitStatus: $0.exitStatus)
            } == [.failure, .processing, .completed])
    }

    @Test func jobsAreKeptWithTheirDestinationsAndOwners() throws {
        let ids = try test.importDays(2)
        var placeholder = ""
        try test.library.performChangesAndWait {
            let request = PHAssetResourceUploadJobChangeRequest.creationRequestForJob(
                destination: destination("a", method: "PUT"), resource: photoResource(ids[0]))
            placeholder = request.placeholderForCreatedAssetResourceUploadJob!.localIdentifier
            PHAssetResourceUploadJobChangeRequest.creationRequestForDownloadJob(resource: photoResource(ids[1]))
        }
        let found = jobs(.process)
        #expect(found.map(\.state) == [.registered, .registered] && found.map(\.type) == [.upload, .downloadOnly])
        #expect(found.map(\.type.rawValue) == [0, 1])
        #expect(found[0].localIdentifier == placeholder)
        #expect(found[0].destination.url?.absoluteString == "http://127.0.0.1:9/a" && found[0].destination.httpMethod == "PUT")
        #expect(found[0].destination.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(found[0].responseHeaderFields == nil && found[0].error == nil)
        #expect(PHAssetResource.assetResource(forUploadJob: found[0])?.assetLocalIdentifier == ids[0])
        #expect(found[0].resource.type == .photo)
        // Kept in the library: another instance finds them; another client has none.
        let reopened = try PHPhotoLibrary(url: test.library.url)
        #expect(jobs(.process, in: reopened).map(\.localIdentifier) == found.map(\.localIdentifier))
        try test.library.setAccess(.readWrite, forClient: "org.example.other")
        #expect(jobs(.process, in: try test.client("org.example.other")).isEmpty)
    }

    @Test func aDestinationMustBeHTTP() throws {
        let id = try test.importDays(1)[0]
        expectPhotosError(.invalidResource) {
            try test.library.performChangesAndWait {
                PHAssetResourceUploadJobChangeRequest.creationRequestForJob(
                    destination: URLRequest(url: URL(fileURLWithPath: "/etc/passwd")), resource: photoResource(id))
            }
        }
        #expect(jobs(.process).isEmpty)
    }

    @Test func theLimitFailsTheWholeBlock() throws {
        let id = try test.importDays(1)[0]
        let resource = photoResource(id)
        try test.library.performChangesAndWait {
            for index in 0..<PHAssetResourceUploadJob.jobLimit {
                PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("\(index)"), resource: resource)
            }
        }
        expectPhotosError(.limitExceeded) {
            try test.library.performChangesAndWait {
                PHAssetChangeRequest(for: test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] }).rating = .five
                PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("over"), resource: resource)
            }
        }
        #expect(jobs(.process).count == PHAssetResourceUploadJob.jobLimit)
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] }.rating == .unset, "nothing of the block")
    }

    /// Every state move: sent and failed, found for retry, retried once to a
    /// new destination, succeeded with its answer's headers, acknowledged;
    /// cancelled while registered; and what the states do not allow.
    @Test func jobsMoveAsPhotoKitDocuments() throws {
        let ids = try test.importDays(2)
        try test.library.enableUploadJobExtension(with: nil)
        try test.library.performChangesAndWait {
            PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("fail"), resource: photoResource(ids[0]))
            PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("later"), resource: photoResource(ids[1]))
        }
        let (first, second) = (jobs(.process)[0], jobs(.process)[1])
        let queue = UploadJobQueue(library: test.library)
        expectPhotosError(.changeNotSupported, "a registered job is not acknowledged") {
            try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: first)?.acknowledge() }
        }
        let work = try queue.next(limit: 10)
        #expect(work.map(\.uuid) == [first.record.uuid, second.record.uuid] && work[0].bytes != nil)
        try queue.start(first.record.uuid)
        #expect(jobs(.process)[0].state == .pending)
        try queue.finish(first.record.uuid, succeeded: false, responseHeaders: ["x-reason": "full"], error: "the destination answered 500")
        let failed = try #require(jobs(.retry).first)
        #expect(failed.state == .failed && failed.responseHeaderFields == ["x-reason": "full"] && failed.error != nil)
        try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: failed)?.retry(destination: destination("ok")) }
        let retried = jobs(.process).first { $0.record.uuid == first.record.uuid }
        #expect(retried?.state == .registered && retried?.destination.url?.lastPathComponent == "ok")
        try queue.start(first.record.uuid)
        try queue.finish(first.record.uuid, succeeded: false, responseHeaders: nil, error: "again")
        #expect(jobs(.retry).isEmpty, "retried once in its life")
        expectPhotosError(.changeNotSupported) {
            try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: jobs(.acknowledge)[0])?.retry(destination: nil) }
        }
        try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: jobs(.acknowledge)[0])?.acknowledge() }
        #expect(jobs(.acknowledge).isEmpty)

        try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: second)?.cancel() }
        #expect(jobs(.process).isEmpty && jobs(.acknowledge).isEmpty, "cancelled, and acknowledged with it")
        expectPhotosError(.changeNotSupported) {
            try test.library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: second)?.cancel() }
        }
        // A performer's late outcome does not undo the cancellation.
        try queue.finish(second.record.uuid, succeeded: true, responseHeaders: nil, error: nil)
        #expect(try queue.next(limit: 10).isEmpty)
    }

    /// Jobs wait while their client's extension is off; enabling needs
    /// read-write access to the whole library; a limited client's job must
    /// name what it can see.
    @Test func theExtensionDecidesWhatIsSentAndWhoMayAsk() throws {
        let ids = try test.importDays(2)
        #expect(!test.library.uploadJobExtensionEnabled && test.library.uploadJobExtensionOptions == nil)
        try test.library.performChangesAndWait {
            PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("x"), resource: photoResource(ids[0]))
        }
        let queue = UploadJobQueue(library: test.library)
        #expect(try queue.next(limit: 10).isEmpty, "the owner's extension is off")
        let options = PHAssetResourceUploadJobOptions()
        options.preventsExpensiveNetworkAccess = true
        options.extensionCommand = ["/usr/bin/true"]
        try test.library.enableUploadJobExtension(with: options)
        #expect(test.library.uploadJobExtensionEnabled)
        #expect(test.library.uploadJobExtensionOptions?.preventsExpensiveNetworkAccess == true)
        #expect(test.library.uploadJobExtensionOptions?.extensionCommand == ["/usr/bin/true"])
        #expect(try queue.next(limit: 10).count == 1)
        try test.library.setUploadJobExtensionOptions(PHAssetResourceUploadJobOptions())
        #expect(test.library.uploadJobExtensionOptions?.preventsExpensiveNetworkAccess == false)
        try test.library.disableUploadJobExtension()
        #expect(try queue.next(limit: 10).isEmpty && jobs(.process).count == 1, "kept, waiting")
        expectPhotosError(.changeNotSupported) { try test.library.setUploadJobExtensionOptions(options) }

        try test.library.setAccess(.limited, forClient: "org.example.limited")
        try test.library.addToLimitedSelection([ids[0]], ofClient: "org.example.limited")
        let limited = try test.client("org.example.limited")
        expectPhotosError(.accessRestricted) { try limited.enableUploadJobExtension(with: nil) }
        let outside = photoResource(ids[1])
        expectPhotosError(.identifierNotFound) {
            try limited.performChangesAndWait {
                PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("y"), resource: outside)
            }
        }
        try limited.performChangesAndWait {
            PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: destination("mine"), resource: photoResource(ids[0], in: limited))
        }
        #expect(jobs(.process, in: limited).count == 1 && jobs(.process).count == 1, "each client its own")
        #expect(throws: PHPhotosError.self) { try UploadJobQueue(library: limited).next(limit: 1) }
    }
}
