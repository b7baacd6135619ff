import Foundation
import Testing

@testable import Photos

@Suite struct AlbumTests {
    private func makeAlbum(_ test: TestLibrary, _ title: String, assets: [String] = []) throws -> PHAssetCollection {
        var identifier = ""
        let members = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: assets, options: nil) }
        try test.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets(members)
            identifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return try #require(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil) }.firstObject)
    }

    private func contents(_ test: TestLibrary, _ album: PHAssetCollection) -> [String] {
        PHAsset.fetchAssets(in: album, options: nil).identifiers
    }

    /// Titles are bounded, and text: a title of more than 1 KiB, or with a
    /// control character, is refused, and nothing of its block is stored.
    @Test func titlesAreBoundedAndHoldNoControlCharacters() throws {
        let test = try TestLibrary()
        let longest = String(repeating: "é", count: 512)
        for title in [longest + "x", "Summer\u{0}", "Line\nbreak", "\u{1B}[31mRed", "\u{202E}txt.exe"] {
            expectPhotosError(.changeNotSupported, "\(title.debugDescription)") {
                try test.library.performChangesAndWait {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                }
            }
            expectPhotosError(.changeNotSupported, "\(title.debugDescription)") {
                try test.library.performChangesAndWait { PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: title) }
            }
        }
        try test.library.performChangesAndWait { PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: longest) }
        let album = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }[0]
        #expect(album.localizedTitle == longest)
        expectPhotosError(.changeNotSupported) {
            try test.library.performChangesAndWait { PHAssetCollectionChangeRequest(for: album)!.title = longest + "é" }
        }
        let link = try test.library.withCurrentLibrary { try test.library.createShareLink(for: album) }
        #expect(link.token.label.utf8.count <= 1024 && link.token.label.hasPrefix("share: éé"))
    }

    @Test func createAnAlbumWithNewAssetsThroughPlaceholders() throws {
        let test = try TestLibrary()
        let urls = try (0..<3).map { try test.jpeg(taken: Date(timeIntervalSince1970: 1_500_000_000 + Double($0) * 3600)) }
        var albumID = ""
        var assetIDs: [String] = []
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Hike")
            let placeholders = urls.map { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: $0)!.placeholderForCreatedAsset! }
            album.addAssets(placeholders as NSArray)
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
            assetIDs = placeholders.map(\.localIdentifier)
        }
        let album = try #require(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil) }.firstObject)
        #expect(album.localIdentifier.hasSuffix("/L0/040"))
        #expect(album.localizedTitle == "Hike")
        #expect(album.assetCollectionType == .album && album.assetCollectionSubtype == .albumRegular)
        #expect(album.estimatedAssetCount == 3)
        #expect(album.startDate == Date(timeIntervalSince1970: 1_500_000_000))
        #expect(album.endDate == Date(timeIntervalSince1970: 1_500_007_200))
        #expect(album.canContainAssets && !album.canContainCollections)
        #expect(album.canPerform(.addContent) && album.canPerform(.rename) && album.canPerform(.delete))
        #expect(contents(test, album) == assetIDs)
        let placeholder = PHObjectPlaceholder(localIdentifier: albumID, library: nil)
        #expect(placeholder == album, "a placeholder equals the object it created")
        let containing = test.fetch {
            PHAssetCollection.fetchAssetCollectionsContaining(
                PHAsset.fetchAssets(withLocalIdentifiers: [assetIDs[1]], options: nil)[0],
                with: .album, options: nil)
        }
        #expect(containing.identifiers == [albumID])
    }

    @Test func orderedMembershipEdits() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(6)
        let album = try makeAlbum(test, "Days", assets: Array(ids[0...3]))
        #expect(contents(test, album) == Array(ids[0...3]))

        func edit(_ body: @escaping (PHAssetCollectionChangeRequest, PHFetchResult<PHAsset>) -> Void) throws {
            let others = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: Array(ids[4...5]), options: nil) }
            try test.library.performChangesAndWait {
                body(PHAssetCollectionChangeRequest(for: album)!, others)
            }
        }
        try edit { request, others in request.insertAssets(others, at: IndexSet([0, 3])) }
        #expect(contents(test, album) == [ids[4], ids[0], ids[1], ids[5], ids[2], ids[3]])
        try edit { request, _ in request.moveAssets(at: IndexSet([0, 1]), to: 4) }
        #expect(contents(test, album) == [ids[1], ids[5], ids[2], ids[3], ids[4], ids[0]])
        try edit { request, _ in request.removeAssets(at: IndexSet([0, 5])) }
        #expect(contents(test, album) == [ids[5], ids[2], ids[3], ids[4]])
        try edit { request, others in request.replaceAssets(at: IndexSet([1]), withAssets: [others[0]] as NSArray) }
        #expect(contents(test, album) == [ids[5], ids[4], ids[3]])
        try edit { request, others in request.removeAssets(others) }
        #expect(contents(test, album) == [ids[3]])
        try edit { request, others in
            request.addAssets(others)
            request.addAssets(others)
        }
        #expect(contents(test, album) == [ids[3], ids[4], ids[5]], "adding twice adds once")
        try edit { request, _ in request.title = "Renamed" }
        #expect(
            test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album.localIdentifier], options: nil) }
                .firstObject?.localizedTitle == "Renamed")

        #expect {
            try edit { request, _ in request.removeAssets(at: IndexSet([7])) }
        } throws: { ($0 as? PHPhotosError)?.code == .changeNotSupported }
        #expect(contents(test, album) == [ids[3], ids[4], ids[5]], "a failed edit changes nothing")
    }

    @Test func indexesReferToTheSnapshotGivenToTheRequest() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(4)
        let album = try makeAlbum(test, "Snapshot", assets: Array(ids[0...2]))
        let seen = PHAsset.fetchAssets(in: album, options: nil)
        // Another writer hides the first asset: a default fetch no longer shows it.
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: seen[0]).isHidden = true
        }
        #expect(contents(test, album) == [ids[1], ids[2]])
        try test.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album, assets: seen)!.removeAssets(at: IndexSet([1]))
        }
        let everything = PHFetchOptions()
        everything.includeHiddenAssets = true
        #expect(
            PHAsset.fetchAssets(in: album, options: everything).identifiers == [ids[0], ids[2]],
            "index 1 of the snapshot is the second asset, and the hidden one keeps its place")
    }

    @Test func foldersNestAndMoveCollections() throws {
        let test = try TestLibrary()
        let summer = try makeAlbum(test, "Summer")
        let winter = try makeAlbum(test, "Winter")
        var tripsID = ""
        var yearsID = ""
        try test.library.performChangesAndWait {
            let trips = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            let years = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "2024")
            years.addChildCollections([summer, winter] as NSArray)
            trips.addChildCollections([years.placeholderForCreatedCollectionList] as NSArray)
            tripsID = trips.placeholderForCreatedCollectionList.localIdentifier
            yearsID = years.placeholderForCreatedCollectionList.localIdentifier
        }
        #expect(tripsID.hasSuffix("/L0/020"))
        let top = test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }
        #expect(top.identifiers == [tripsID], "albums moved into a folder leave the top level")
        let trips = try #require(top.firstObject as? PHCollectionList)
        #expect(trips.collectionListType == .folder && trips.collectionListSubtype == .regularFolder)
        #expect(trips.canContainCollections && !trips.canContainAssets)
        let years = try #require(PHCollection.fetchCollections(in: trips, options: nil).firstObject as? PHCollectionList)
        #expect(years.localIdentifier == yearsID)
        #expect(PHCollection.fetchCollections(in: years, options: nil).identifiers == [summer.localIdentifier, winter.localIdentifier])
        #expect(PHCollectionList.fetchCollectionListsContaining(summer, options: nil).identifiers == [yearsID])

        #expect {
            try test.library.performChangesAndWait {
                PHCollectionListChangeRequest(for: years)!.addChildCollections([trips] as NSArray)
            }
        } throws: { ($0 as? PHPhotosError)?.code == .changeNotSupported }

        try test.library.performChangesAndWait {
            PHCollectionListChangeRequest(for: years)!.removeChildCollections([winter] as NSArray)
        }
        #expect(test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }.identifiers == [tripsID, winter.localIdentifier])

        let topLevel = test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }
        try test.library.performChangesAndWait {
            PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: topLevel)!.moveChildCollections(at: IndexSet([1]), to: 0)
        }
        #expect(test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }.identifiers == [winter.localIdentifier, tripsID])

        try test.library.performChangesAndWait {
            PHCollectionListChangeRequest.deleteCollectionLists([trips] as NSArray)
        }
        #expect(test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }.identifiers == [winter.localIdentifier])
        #expect(test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil) }.count == 0)
        #expect(
            test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.identifiers
                == [winter.localIdentifier], "deleting a folder deletes what it holds")
        #expect(top.firstObject?.localIdentifier == tripsID, "an old fetch result still answers for a deleted folder")
    }

    @Test func deletingAnAlbumKeepsItsAssets() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let album = try makeAlbum(test, "Gone", assets: ids)
        try test.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections([album] as NSArray)
        }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 0)
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 2)
        #expect(PHAsset.fetchAssets(in: album, options: nil).count == 0)
    }

    @Test func collectionPredicatesAndSorts() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(3)
        _ = try makeAlbum(test, "Alpha", assets: ids)
        _ = try makeAlbum(test, "beta", assets: [ids[0]])
        _ = try makeAlbum(test, "Gamma")
        func titles(_ format: String, sort: String = "title") -> [String] {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            options.sortDescriptors = [NSSortDescriptor(key: sort, ascending: true)]
            return test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: options) }
                .allObjects.compactMap(\.localizedTitle)
        }
        #expect(titles("estimatedAssetCount > 0") == ["Alpha", "beta"])
        #expect(titles("title BEGINSWITH[c] 'B'") == ["beta"])
        #expect(titles("localizedTitle IN {'Gamma', 'Alpha'}") == ["Alpha", "Gamma"])
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "endDate > %@", Date(timeIntervalSince1970: 1_600_000_000 + 86_400) as any CVarArg)
        #expect(
            test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options) }
                .allObjects.compactMap(\.localizedTitle) == ["Alpha"])
        #expect(titles("startDate == nil") == ["Gamma"])
        #expect(titles("TRUEPREDICATE", sort: "estimatedAssetCount") == ["Gamma", "beta", "Alpha"])
    }
}
