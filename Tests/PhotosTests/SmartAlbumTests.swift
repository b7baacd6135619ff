import Foundation
import PhotosMedia
import PhotosStore
import Testing

@testable import Photos

@Suite struct SmartAlbumTests {
    private func smartAlbum(_ test: TestLibrary, _ subtype: PHAssetCollectionSubtype) throws -> PHAssetCollection {
        try #require(test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: nil) }.firstObject)
    }

    @Test func everyLibraryHasTheSmartAlbums() throws {
        let test = try TestLibrary()
        let all = test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil) }
        let subtypes = Set(all.allObjects.map(\.assetCollectionSubtype))
        let expected: Set<PHAssetCollectionSubtype> = [
            .smartAlbumUserLibrary, .smartAlbumFavorites, .smartAlbumRecentlyAdded, .smartAlbumVideos, .smartAlbumPanoramas,
            .smartAlbumScreenshots, .smartAlbumSelfPortraits, .smartAlbumLivePhotos, .smartAlbumBursts, .smartAlbumTimelapses,
            .smartAlbumSlomoVideos, .smartAlbumAllHidden, .smartAlbumLongExposures, .smartAlbumAnimated, .smartAlbumRAW,
            .smartAlbumCinematic, .smartAlbumDepthEffect, .smartAlbumScreenRecordings, .smartAlbumSpatial, .smartAlbumRecentlyDeleted,
        ]
        #expect(subtypes == expected)
        let library = try smartAlbum(test, .smartAlbumUserLibrary)
        #expect(library.assetCollectionType == .smartAlbum && library.assetCollectionSubtype.rawValue == 209)
        #expect(library.estimatedAssetCount == NSNotFound)
        #expect(!library.canPerform(.addContent) && !library.canPerform(.delete))
        #expect(try smartAlbum(test, .smartAlbumRecentlyDeleted).assetCollectionSubtype.rawValue == 1_000_000_201)
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumGeneric, options: nil) }.count == 0)
        try test.library.performChangesAndWait {
            #expect(PHAssetCollectionChangeRequest(for: library) == nil, "smart albums cannot be edited")
        }
        #expect(test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }.count == 0, "smart albums are not user collections")
    }

    @Test func membershipIsComputedFromAssetState() throws {
        let test = try TestLibrary()
        let now = Date()
        let ids = try test.insert([
            TestLibrary.record(created: now, favorite: true),
            TestLibrary.record(created: now, mediaType: 2, subtypes: AssetMediaSubtypes.videoTimelapse.rawValue),
            TestLibrary.record(created: now, mediaType: 2, subtypes: AssetMediaSubtypes.videoHighFrameRate.rawValue),
            TestLibrary.record(created: now, subtypes: AssetMediaSubtypes([.photoPanorama, .photoScreenshot]).rawValue),
            TestLibrary.record(created: now, subtypes: AssetMediaSubtypes([.photoLive, .photoDepthEffect]).rawValue),
            TestLibrary.record(created: now, hidden: true),
            TestLibrary.record(created: now, burst: "B", representsBurst: true),
            TestLibrary.record(created: now, added: now.addingTimeInterval(-40 * 86_400)),
        ])
        let expectations: [(PHAssetCollectionSubtype, [Int])] = [
            (.smartAlbumFavorites, [0]), (.smartAlbumVideos, [1, 2]), (.smartAlbumTimelapses, [1]), (.smartAlbumSlomoVideos, [2]),
            (.smartAlbumPanoramas, [3]), (.smartAlbumScreenshots, [3]), (.smartAlbumLivePhotos, [4]), (.smartAlbumDepthEffect, [4]),
            (.smartAlbumAllHidden, [5]), (.smartAlbumBursts, [6]), (.smartAlbumRecentlyAdded, [0, 1, 2, 3, 4, 6]),
            (.smartAlbumUserLibrary, [0, 1, 2, 3, 4, 6, 7]), (.smartAlbumRecentlyDeleted, []),
        ]
        for (subtype, members) in expectations {
            let album = try smartAlbum(test, subtype)
            #expect(Set(PHAsset.fetchAssets(in: album, options: nil).identifiers) == Set(members.map { ids[$0] }), "\(subtype)")
        }
        let favorites = try smartAlbum(test, .smartAlbumFavorites)
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: PHAsset.fetchAssets(in: favorites, options: nil)[0]).isFavorite = false
        }
        #expect(PHAsset.fetchAssets(in: favorites, options: nil).count == 0)
        #expect(PHAsset.fetchKeyAssets(in: favorites, options: nil) == nil)
    }

    @Test func longExposuresAreThePhotosExposedASecondOrMore() throws {
        let test = try TestLibrary()
        let ids = try test.importImages([
            try test.jpeg(make: "Canon") { $0.exposureTime = 4 },
            try test.jpeg(make: "Canon") { $0.exposureTime = 1.0 / 250 },
            try test.jpeg(make: "Canon") { $0.exposureTime = 1 },
            try test.jpeg(),
        ])
        let album = try smartAlbum(test, .smartAlbumLongExposures)
        #expect(Set(test.fetch { PHAsset.fetchAssets(in: album, options: nil) }.identifiers) == [ids[0], ids[2]])
    }

    @Test func deletedAssetsGoToRecentlyDeletedAndCanComeBack() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(3)
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        var albumID = ""
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Keep")
            album.addAssets(assets)
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([assets[0], assets[1]] as NSArray)
        }
        let trash = try smartAlbum(test, .smartAlbumRecentlyDeleted)
        #expect(Set(PHAsset.fetchAssets(in: trash, options: nil).identifiers) == [ids[0], ids[1]])
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.identifiers == [ids[2]])
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }.identifiers == [ids[2]])
        let album = try #require(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil) }.firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: nil).identifiers == [ids[2]])
        #expect(album.estimatedAssetCount == 1)

        try test.library.performChangesAndWait {
            PHAssetChangeRequest.restoreDeletedAssets([assets[0]] as NSArray)
        }
        #expect(PHAsset.fetchAssets(in: album, options: nil).identifiers == [ids[0], ids[2]], "restored assets keep their albums")
        #expect(test.originalFiles.count == 3)

        #expect(try test.library.emptyRecentlyDeleted() == 1)
        #expect(test.originalFiles.count == 2, "emptying the trash deletes the files")
        #expect(PHAsset.fetchAssets(in: trash, options: nil).count == 0)
        #expect(assets.count == 3 && assets[1].localIdentifier == ids[1])
        let stale = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        #expect(stale.identifiers == [ids[0], ids[2]])
        #expect(try test.library.emptyRecentlyDeleted() == 0)
    }

    @Test func emptyingRecentlyDeletedDeletesEveryFileOfTheAssets() throws {
        let test = try TestLibrary()
        let ids = try test.importImages([try test.jpeg(width: 2_000, height: 1_500), try test.jpeg()])
        let gone = String(ids[0].prefix(36))
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        // A preview as well as the thumbnail made at import.
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        PHImageManager.default().requestImage(
            for: assets[0], targetSize: CGSize(width: 1_200, height: 1_200),
            contentMode: .aspectFit, options: options
        ) { _, _ in }
        #expect(test.files(under: "derivatives").filter { $0.contains(gone) }.count == 2)
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[0]] as NSArray) }
        #expect(test.files(under: "derivatives").filter { $0.contains(gone) }.count == 2, "Recently Deleted keeps everything")
        #expect(try test.library.emptyRecentlyDeleted() == 1)
        #expect(test.files(under: "derivatives").filter { $0.contains(gone) }.isEmpty, "thumbnails and previews go too")
        #expect(test.originalFiles.filter { $0.contains(gone) }.isEmpty)
        #expect(test.files(under: "derivatives").contains { $0.contains(ids[1].prefix(36)) }, "other assets keep theirs")
    }

    @Test func oldDeletionsArePurgedWhenTheLibraryOpens() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
        }
        let store = try #require(test.library.store)
        #expect(try store.beginCommit().commit(ChangeSet(purge: .deletedBefore(Date().addingTimeInterval(-RetentionWindows.recentlyDeleted)))) == nil)
        #expect(try store.beginCommit().commit(ChangeSet(purge: .deletedBefore(Date().addingTimeInterval(1))))?.changes.count == 2)
        #expect(test.originalFiles.isEmpty)
    }
}
