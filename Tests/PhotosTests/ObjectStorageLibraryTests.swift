import Foundation
import PhotosObjectStorage
import PhotosStore
import PhotosTestSupport
import Testing
@testable import Photos

/// A library whose originals live in S3-compatible object storage (the
/// moto server `script/services` starts, checking signatures), its
/// database, thumbnails and read cache in its directory.
@Suite(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts (script/test starts it)"))
struct ObjectStorageLibraryTests {

    /// A new bucket, and the client the test inspects it with.
    static func bucket() throws -> (url: URL, client: S3Client) {
        let client = try #require(TestObjectStorageServer.current).newBucketClient(prefix: "family")
        return (try #require(URL(string: client.location.description)), client)
    }

    @Test func originalsGoToTheBucketAndComeBackForImagesAndResources() async throws {
        let (originals, client) = try Self.bucket()
        let test = try TestLibrary(originals: originals)
        let identifiers = try test.importImages([try test.jpeg(width: 64, height: 48), try test.jpeg(width: 40, height: 30)])
        #expect(test.files(under: "originals").isEmpty, "no original in the library's directory")
        #expect(test.originalFiles.count == 2)
        #expect(try await client.list(prefix: "originals/").count == 2)

        let asset = try #require(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil).firstObject })
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let copy = test.files.appendingPathComponent("copy.jpg")
        let written = DispatchSemaphore(value: 0)
        let failure = LockedValue<(any Error)?>(nil)
        PHAssetResourceManager.default().writeData(for: resource, toFile: copy, options: nil) { error in
            failure.set(error)
            written.signal()
        }
        written.wait()
        #expect(failure.get() == nil)
        #expect(try Data(contentsOf: copy) == (try await client.get(key: try #require(Self.storedPath(of: test, identifier: identifiers[0])))))

        // Gone from the bucket once purged from Recently Deleted.
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(try test.library.emptyRecentlyDeleted() == 1)
        #expect(try await client.list(prefix: "originals/").count == 1)
        #expect(try test.library.checkIntegrity().isWhole)
    }

    @Test func theLibraryRemembersWhereItsOriginalsAre() async throws {
        let (originals, _) = try Self.bucket()
        let test = try TestLibrary(originals: originals)
        try test.importImages([try test.jpeg()])
        // Reopened without saying where: the library knows.
        let reopened = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
        let count = reopened.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count }
        #expect(count == 1)
        // Asked to keep them elsewhere: refused, nothing changed.
        let elsewhere = try #require(URL(string: originals.absoluteString.replacingOccurrences(of: "/family", with: "/other")))
        #expect(throws: PHPhotosError.self) { try PHPhotoLibrary(url: test.library.url, originals: elsewhere, clientIdentifier: nil) }
    }

    /// The stored path of an asset's original, read from the engine.
    static func storedPath(of test: TestLibrary, identifier: String) throws -> String? {
        let store = try #require(test.library.store)
        let uuid = String(identifier.prefix(36))
        let rowID = try #require(try store.rowIDs(entity: .asset, uuids: [uuid])[uuid])
        return try store.resources(assetID: rowID).first?.relativePath
    }
}
