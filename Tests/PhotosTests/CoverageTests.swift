import Foundation
import Testing

@testable import Photos

/// Fetch methods, keys and creation paths not covered by the other suites.
@Suite struct CoverageTests {
    @Test func createsAnAssetFromAVideoFile() throws {
        let test = try TestLibrary()
        let video = test.files.appendingPathComponent("clip.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=96x64:rate=15",
            "-metadata", "creation_time=2021-06-01T10:00:00Z", "-pix_fmt", "yuv420p", video.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)

        var identifier = ""
        try test.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: video)!.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = try #require(test.fetch { PHAsset.fetchAssets(with: .video, options: nil) }.firstObject)
        #expect(asset.localIdentifier == identifier)
        #expect(asset.mediaType == .video && asset.playbackStyle == .video)
        #expect(asset.pixelWidth == 96 && asset.pixelHeight == 64)
        #expect(abs(asset.duration - 2) < 0.2)
        #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2021-06-01T10:00:00Z"))
        #expect(asset.contentType == .mpeg4Movie)

        #expect {
            try test.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: video)
            }
        } throws: { ($0 as? PHPhotosError)?.code == .invalidResource }
    }

    @Test func collectionListsByIdentifierAndKeyAssets() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        var folderID = ""
        var albumID = ""
        try test.library.performChangesAndWait {
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "F")
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A")
            album.addAssets(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids.reversed(), options: nil) })
            folder.addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
            folderID = folder.placeholderForCreatedCollectionList.localIdentifier
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let years = test.fetch { PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListYear, options: nil) }
        let lists = test.fetch {
            PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [years[0].localIdentifier, folderID, albumID, "junk"], options: nil)
        }
        #expect(lists.identifiers == [years[0].localIdentifier, folderID], "an album's identifier names no collection list")
        let titled = PHFetchOptions()
        titled.predicate = NSPredicate(format: "localizedTitle == 'F'")
        #expect(
            test.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [years[0].localIdentifier, folderID], options: titled) }
                .identifiers == [folderID])
        #expect(test.fetch { PHCollectionList.fetchCollectionLists(with: .smartFolder, subtype: .any, options: nil) }.count == 0)

        let album = try #require(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil) }.firstObject)
        let key = try #require(PHAsset.fetchKeyAssets(in: album, options: nil))
        #expect(key.identifiers == [ids[1]], "the key asset is the album's first")
    }

    @Test func modificationDateKeyAndEveryIntegerSpecifier() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let before = Date()
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil) }[0]).isHidden = false
        }
        let recent = PHFetchOptions()
        recent.predicate = NSPredicate(format: "modificationDate >= %@", before as any CVarArg)
        #expect(test.fetch { PHAsset.fetchAssets(with: recent) }.identifiers == [ids[0]])
        for format in ["mediaType == %i", "mediaType == %ld", "mediaType == %lu", "mediaType == %u", "mediaType == %lld", "mediaType == %qd"] {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format, 1)
            #expect(test.fetch { PHAsset.fetchAssets(with: options) }.count == 2, "\(format)")
        }
    }
}
