import Foundation
import PhotosStore
import Testing

@testable import Photos

@Suite struct FetchAssetsTests {
    let day = 86_400.0
    let start = Date(timeIntervalSince1970: 1_600_000_000)

    @Test func defaultFetchIsEveryVisibleUserLibraryAssetByCreationDate() throws {
        let test = try TestLibrary()
        let ids = try test.insert([
            TestLibrary.record(created: start.addingTimeInterval(3 * day)),
            TestLibrary.record(created: start.addingTimeInterval(1 * day)),
            TestLibrary.record(created: start.addingTimeInterval(2 * day), hidden: true),
            TestLibrary.record(created: start.addingTimeInterval(4 * day), source: 2),
            TestLibrary.record(created: start.addingTimeInterval(5 * day), source: 4),
            TestLibrary.record(created: nil),
        ])
        let result = test.fetch { PHAsset.fetchAssets(with: nil) }
        #expect(result.identifiers == [ids[5], ids[1], ids[0]], "hidden and other-source assets are left out; nil dates first")

        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAssetSourceTypes = [.typeUserLibrary, .typeCloudShared, .typeiTunesSynced]
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.identifiers == [ids[5], ids[1], ids[2], ids[0], ids[3], ids[4]])
        options.includeAssetSourceTypes = [.typeCloudShared]
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.identifiers == [ids[3]])
    }

    @Test func burstsShowTheirRepresentativeAndPicksUnlessAllAreAsked() throws {
        let test = try TestLibrary()
        let ids = try test.insert([
            TestLibrary.record(created: start, burst: "B1", representsBurst: true),
            TestLibrary.record(created: start.addingTimeInterval(1), burst: "B1"),
            TestLibrary.record(created: start.addingTimeInterval(2), burst: "B1", burstSelection: 2),
            TestLibrary.record(created: start.addingTimeInterval(3), burst: "B1", burstSelection: 1),
            TestLibrary.record(created: start.addingTimeInterval(4)),
        ])
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.identifiers == [ids[0], ids[2], ids[4]])
        #expect(test.fetch { PHAsset.fetchAssets(withBurstIdentifier: "B1", options: nil) }.identifiers == [ids[0], ids[2]])
        let all = PHFetchOptions()
        all.includeAllBurstAssets = true
        #expect(test.fetch { PHAsset.fetchAssets(withBurstIdentifier: "B1", options: all) }.identifiers == Array(ids[0...3]))
        #expect(test.fetch { PHAsset.fetchAssets(with: all) }.count == 5)
        let burst = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil) }
        #expect(burst.firstObject?.burstIdentifier == "B1" && burst.firstObject?.representsBurst == false)
    }

    @Test func identifierFetchesKeepTheGivenOrderIncludeHiddenAndSkipUnknowns() throws {
        let test = try TestLibrary()
        let ids = try test.insert([
            TestLibrary.record(created: start),
            TestLibrary.record(created: start.addingTimeInterval(day), hidden: true),
            TestLibrary.record(created: start.addingTimeInterval(2 * day)),
        ])
        let wanted = [
            ids[2], "garbage", ids[0], ids[1], ids[2], "00000000-0000-0000-0000-000000000000/L0/001",
            ids[0].replacingOccurrences(of: "/L0/001", with: "/L0/040"),
        ]
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: wanted, options: nil) }.identifiers == [ids[2], ids[0], ids[1]])
        let set: Set<String> = [ids[0], ids[1]]
        let sorted = PHFetchOptions()
        sorted.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        #expect(test.fetch { PHAsset.fetchAssets(with: set, options: sorted) }.identifiers == [ids[0]], "given options leave hidden assets out")
        sorted.includeHiddenAssets = true
        #expect(test.fetch { PHAsset.fetchAssets(with: set, options: sorted) }.identifiers == [ids[1], ids[0]])
    }

    @Test func identifierFetchesHonourGivenOptionsOnHiddenAssets() throws {
        let test = try TestLibrary()
        let ids = try test.insert([TestLibrary.record(created: start), TestLibrary.record(created: start, hidden: true)])
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }.identifiers == ids, "nil options include hidden assets")
        let visibleOnly = PHFetchOptions()
        visibleOnly.includeHiddenAssets = false
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: visibleOnly) }.identifiers == [ids[0]])
        visibleOnly.includeHiddenAssets = true
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: visibleOnly) }.identifiers == ids)
    }

    @Test func bareUUIDsNameTheirObjects() throws {
        let test = try TestLibrary()
        let ids = try test.insert([TestLibrary.record(created: start)])
        let bare = String(ids[0].prefix(36))
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [bare.lowercased()], options: nil) }.identifiers == ids)
        var album = ""
        var folder = ""
        try test.library.performChangesAndWait {
            album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").placeholderForCreatedAssetCollection.localIdentifier
            folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "F").placeholderForCreatedCollectionList.localIdentifier
        }
        let albums = test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [String(album.prefix(36))], options: nil) }
        #expect(albums.identifiers == [album])
        let folders = test.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [String(folder.prefix(36))], options: nil) }
        #expect(folders.identifiers == [folder])
        #expect(
            test.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [String(album.prefix(36))], options: nil) }.count == 0,
            "a bare UUID names an object of the kind fetched")
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [String(bare.dropLast())], options: nil) }.count == 0)
    }

    @Test func mediaTypeFetchAndCounts() throws {
        let test = try TestLibrary()
        try test.insert([
            TestLibrary.record(created: start), TestLibrary.record(created: start, mediaType: 2, duration: 3),
            TestLibrary.record(created: start, mediaType: 2, duration: 9), TestLibrary.record(created: start, mediaType: 3),
        ])
        let videos = test.fetch { PHAsset.fetchAssets(with: .video, options: nil) }
        #expect(videos.count == 2)
        #expect(videos.countOfAssets(with: .video) == 2 && videos.countOfAssets(with: .image) == 0)
        let all = test.fetch { PHAsset.fetchAssets(with: nil) }
        #expect(all.countOfAssets(with: .image) == 1 && all.countOfAssets(with: .audio) == 1)
        let long = PHFetchOptions()
        long.predicate = NSPredicate(format: "duration > 5")
        #expect(test.fetch { PHAsset.fetchAssets(with: .video, options: long) }.count == 1)
    }

    @Test func sortingByEverySupportedKeyAndFetchLimit() throws {
        let test = try TestLibrary()
        let ids = try test.insert([
            TestLibrary.record(created: start.addingTimeInterval(2), favorite: true, width: 300),
            TestLibrary.record(created: start.addingTimeInterval(1), width: 100),
            TestLibrary.record(created: start.addingTimeInterval(3), width: 200),
        ])
        func sorted(_ descriptors: [NSSortDescriptor], limit: Int = 0) -> [String] {
            let options = PHFetchOptions()
            options.sortDescriptors = descriptors
            options.fetchLimit = limit
            return test.fetch { PHAsset.fetchAssets(with: options) }.identifiers
        }
        #expect(sorted([NSSortDescriptor(key: "pixelWidth", ascending: true)]) == [ids[1], ids[2], ids[0]])
        #expect(sorted([NSSortDescriptor(key: "creationDate", ascending: false)]) == [ids[2], ids[0], ids[1]])
        #expect(sorted([NSSortDescriptor(key: "creationDate", ascending: false)], limit: 1) == [ids[2]])
        #expect(
            sorted([NSSortDescriptor(key: "isFavorite", ascending: false), NSSortDescriptor(key: "pixelWidth", ascending: true)])
                == [ids[0], ids[1], ids[2]])
        for key in [
            "localIdentifier", "modificationDate", "mediaType", "mediaSubtypes", "duration", "pixelHeight",
            "favorite", "hidden", "isHidden", "burstIdentifier",
        ] {
            #expect(sorted([NSSortDescriptor(key: key, ascending: true)]).count == 3, "\(key)")
        }
    }

    @Test func unsupportedKeysAreReportedWithTheirPosition() {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "mediaType == 1 AND filename == 'x'")
        #expect {
            try options.validate(for: PHAsset.self)
        } throws: { error in
            let error = error as! PHPredicateError
            return error.position == 19 && error.reason.contains("filename")
        }
        options.predicate = NSPredicate(format: "localizedTitle == 'x'")
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        #expect(throws: Never.self) { try options.validate(for: PHAssetCollection.self) }
        options.predicate = NSPredicate(format: "estimatedAssetCount > 1")
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHCollectionList.self) }
        options.predicate = nil
        options.sortDescriptors = [NSSortDescriptor(key: "filename", ascending: true)]
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        #expect(throws: Never.self) { try options.validate(for: PHAsset.self) }
        options.predicate = NSPredicate(format: "creationDate > 'yesterday'")
        #expect(throws: PHPredicateError.self) { try options.validate(for: PHAsset.self) }
        options.predicate = NSPredicate(block: { _, _ in true })
        #expect(throws: Never.self) { try options.validate(for: PHAsset.self) }
    }

    @Test func fetchOptionsDefaultsAreApples() {
        let options = PHFetchOptions()
        #expect(options.predicate == nil && options.sortDescriptors == nil)
        #expect(!options.includeHiddenAssets && !options.includeAllBurstAssets)
        #expect(options.includeAssetSourceTypes == [] && options.fetchLimit == 0)
        #expect(options.wantsIncrementalChangeDetails)
        options.fetchLimit = 3
        #expect((options.copy() as! PHFetchOptions).fetchLimit == 3)
    }
}
