import Foundation
import PhotosMedia
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

    /// Videos whose originals are in the bucket get their poster and their
    /// playable copy as local ones do: an HEVC MOV, and a Live Photo's HEVC
    /// motion, each become an H.264 MP4 kept with the derivatives.
    @Test func videosInTheBucketArePlayedAsBrowsersPlayThem() async throws {
        let (originals, _) = try Self.bucket()
        let test = try TestLibrary(originals: originals)
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000DD"
        func hevc(_ name: String, tags: [String] = []) throws -> URL {
            let url = test.files.appendingPathComponent(name)
            try DebianTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1",
                    "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p",
                ]
                    + tags + [url.path])
            return url
        }
        let video = try hevc("IMG_0001.MOV")
        let motion = try hevc(
            "IMG_0002.MOV",
            tags: [
                "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
                "-movflags", "use_metadata_tags",
            ])
        let still = try test.jpeg("IMG_0002.JPG") { $0.contentIdentifier = identifier }
        let result = try test.library.importFiles([video, motion, still])
        #expect(result.failed.isEmpty && result.imported.count == 3, "\(result.failed)")
        #expect(test.files(under: "originals").isEmpty)
        let ids = Dictionary(result.imported.map { ($0.file.lastPathComponent, $0.localIdentifier) }, uniquingKeysWith: { first, _ in first })
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids["IMG_0001.MOV"]!, ids["IMG_0002.JPG"]!], options: nil) }
        let (movie, live) = (
            assets.objects(at: IndexSet(integersIn: 0..<2)).first { $0.mediaType == .video }!,
            assets.objects(at: IndexSet(integersIn: 0..<2)).first { $0.mediaType == .image }!
        )
        #expect(try PHImageManager.default().rendition(.thumbnail, of: movie).file != nil, "the video's poster")
        for (asset, part) in [(movie, PHImageManager.PlayableVideoPart.video), (live, .motion)] {
            let copy = try PHImageManager.default().playableVideo(of: asset, part)
            #expect(
                try DebianTool.run(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name",
                        "-of", "csv=p=0", copy.path,
                    ]
                ).hasPrefix("h264"), "\(part)")
            #expect(try PHImageManager.default().existingPlayableVideo(of: asset, part) == copy)
        }
    }

    /// The stored path of an asset's original, read from the engine.
    static func storedPath(of test: TestLibrary, identifier: String) throws -> String? {
        let store = try #require(test.library.store)
        let uuid = String(identifier.prefix(36))
        let rowID = try #require(try store.rowIDs(entity: .asset, uuids: [uuid])[uuid])
        return try store.resources(assetID: rowID).first?.relativePath
    }
}
