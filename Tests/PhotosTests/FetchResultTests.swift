import Foundation
import Testing

@testable import Photos

@Suite struct FetchResultTests {
    @Test func accessAndEnumeration() throws {
        let test = try TestLibrary()
        let ids = try test.insert((0..<600).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        let result = test.fetch { PHAsset.fetchAssets(with: nil) }
        #expect(result.count == 600)
        #expect(result.firstObject?.localIdentifier == ids[0] && result.lastObject?.localIdentifier == ids[599])
        #expect(result[300].localIdentifier == ids[300] && result.object(at: 511).localIdentifier == ids[511])
        #expect(result.objects(at: IndexSet([0, 255, 256, 599])).map(\.localIdentifier) == [ids[0], ids[255], ids[256], ids[599]])
        #expect(result.contains(result[42]) && result.index(of: result[420]) == 420)
        #expect(result.index(of: result[420], in: NSRange(location: 0, length: 400)) == NSNotFound)
        let sameAssetFetchedAgain = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[7]], options: nil) }[0]
        #expect(result.index(of: sameAssetFetchedAgain) == 7)

        var visited: [Int] = []
        result.enumerateObjects { asset, index, stop in
            #expect(asset.localIdentifier == ids[index])
            visited.append(index)
            if index == 299 { stop.pointee = true }
        }
        #expect(visited == Array(0...299))
        var reversed: [Int] = []
        result.enumerateObjects(options: .reverse) { _, index, stop in
            reversed.append(index)
            if reversed.count == 3 { stop.pointee = true }
        }
        #expect(reversed == [599, 598, 597])
        var picked: [Int] = []
        result.enumerateObjects(at: IndexSet([5, 300, 301]), options: []) { _, index, _ in picked.append(index) }
        #expect(picked == [5, 300, 301])
        #expect((result.copy() as? PHFetchResult<PHAsset>) === result)
        var iterator = NSFastEnumerationIterator(result)
        #expect(iterator.next() as? PHAsset == result[0])
    }

    /// Enumeration loads a chunk ahead of the block: over several chunks,
    /// forwards, in reverse, over indexes crossing chunks, inside another
    /// enumeration, and after the library changed under the result, every
    /// index comes once, in order, with its object, and stopping in a chunk
    /// stops there.
    @Test func enumerationAcrossChunks() throws {
        let test = try TestLibrary()
        let total = FetchedObjects.chunkSize * 3 + 300
        let ids = try test.insert((0..<total).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        let result = test.fetch { PHAsset.fetchAssets(with: nil) }
        func expectEveryObject(
            _ result: PHFetchResult<PHAsset>, options: NSEnumerationOptions = [],
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            var visited: [Int] = []
            result.enumerateObjects(options: options) { asset, index, _ in
                if asset.localIdentifier != ids[index] { Issue.record("index \(index) is \(asset.localIdentifier)", sourceLocation: sourceLocation) }
                visited.append(index)
            }
            let expected = Array(0..<total)
            #expect(visited == (options.contains(.reverse) ? expected.reversed() : expected), sourceLocation: sourceLocation)
        }
        expectEveryObject(result)
        expectEveryObject(result, options: .reverse)
        var outer = 0
        result.enumerateObjects { _, index, _ in
            outer += 1
            if index == FetchedObjects.chunkSize + 1 { expectEveryObject(result) }
        }
        #expect(outer == total)
        let stopAt = FetchedObjects.chunkSize + 10
        var stopped: [Int] = []
        result.enumerateObjects { _, index, stop in
            stopped.append(index)
            if index == stopAt { stop.pointee = true }
        }
        #expect(stopped == Array(0...stopAt))
        let picked = IndexSet(integersIn: 1000..<1100).union(IndexSet(integersIn: 2000..<3300))
        var visited: [Int] = []
        result.enumerateObjects(at: picked, options: []) { asset, index, _ in
            #expect(asset.localIdentifier == ids[index])
            visited.append(index)
        }
        #expect(visited == Array(picked))
        // Changed under the result: objects deleted since the fetch keep their identifiers.
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(result.objects(at: IndexSet([FetchedObjects.chunkSize + 1, total - 1])) as NSArray)
        }
        expectEveryObject(result)
        expectEveryObject(result, options: .reverse)
        #expect(result[total - 1].localIdentifier == ids[total - 1])
        // Added since the fetch, last in its order: not in the result.
        let later = result.count
        _ = try test.insert([TestLibrary.record(created: Date(timeIntervalSince1970: Double(total + 1) * 60))])
        expectEveryObject(result)
        #expect(result.count == later)
    }

    @Test func deletedCollectionsKeepTheirClassInOlderResults() throws {
        let test = try TestLibrary()
        var folderID = ""
        var albumID = ""
        try test.library.performChangesAndWait {
            folderID = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "F").placeholderForCreatedCollectionList.localIdentifier
            albumID = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").placeholderForCreatedAssetCollection.localIdentifier
        }
        let folders = test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil) }
        let topLevel = test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }
        let observer = RecordingObserver()
        test.library.register(observer)
        try test.library.performChangesAndWait {
            PHCollectionListChangeRequest.deleteCollectionLists(folders as any NSFastEnumeration)
            PHAssetCollectionChangeRequest.deleteAssetCollections([topLevel.allObjects.first { $0.localIdentifier == albumID }!] as NSArray)
        }
        // Read only now, from the results made before the deletion.
        let folder: PHCollectionList = folders[0]
        #expect(type(of: folder) == PHCollectionList.self && folder.localIdentifier == folderID)
        #expect(topLevel.allObjects.map { "\(type(of: $0))" }.sorted() == ["PHAssetCollection", "PHCollectionList"])
        #expect(topLevel.allObjects.map(\.localIdentifier).sorted() == [albumID, folderID].sorted())
        #expect(observer.wait())
        let change = try #require(observer.received.last)
        let details = try #require(change.changeDetails(for: folders))
        #expect(details.removedObjects.map { "\(type(of: $0)) \($0.localIdentifier)" } == ["PHCollectionList \(folderID)"])
        test.library.unregisterChangeObserver(observer)
    }

    /// A change request given a whole fetch result names its objects
    /// without building them (assets by the row ids it holds); rows purged
    /// since the fetch still name what they were, and fail the block as unknown.
    @Test func changeRequestsTakeAWholeFetchResultByItsRows() throws {
        let test = try TestLibrary()
        let ids = try test.insert((0..<3_000).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        let everything = test.fetch { PHAsset.fetchAssets(with: nil) }
        let firstTen = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: Array(ids.prefix(10)), options: nil) }
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(firstTen) }
        try test.library.emptyRecentlyDeleted()
        // The old result still names the ten purged assets, which are no more: the block fails and changes nothing.
        do {
            try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(everything) }
            Issue.record("deleting assets that were purged succeeded")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound)
            #expect(Set(ids.prefix(10)).contains((error.userInfo[PHLocalIdentifiersErrorKey] as? [String])?.first ?? ""))
        }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 2_990)
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(test.fetch { PHAsset.fetchAssets(with: nil) }) }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 0)
        let trash = try #require(
            test.fetch {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil).firstObject
            })
        let deleted = test.fetch { PHAsset.fetchAssets(in: trash, options: nil) }
        #expect(Set(deleted.identifiers) == Set(ids.dropFirst(10)))

        try test.library.performChangesAndWait { PHAssetChangeRequest.restoreDeletedAssets(deleted) }
        #expect(Set(test.fetch { PHAsset.fetchAssets(with: nil) }.identifiers) == Set(ids.dropFirst(10)))

        // Collections too: an album holding a fetched result's assets, deleted through a fetch of albums.
        var album = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "All")
            request.addAssets(test.fetch { PHAsset.fetchAssets(with: nil) })
            album = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        let albums = test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album], options: nil) }
        #expect(albums.firstObject?.estimatedAssetCount == 2_990)
        try test.library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections(albums) }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album], options: nil) }.count == 0)
    }

    /// Row ids mean something only in their own library: another
    /// library's fetch result names its assets by UUID, so a change block
    /// never reaches this library's assets that share its row ids.
    @Test func anotherLibrarysFetchResultNamesItsAssetsByIdentifier() throws {
        let (here, there) = (try TestLibrary(), try TestLibrary())
        let mine = try here.insert((0..<5).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        _ = try there.insert((0..<5).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        let theirs = there.fetch { PHAsset.fetchAssets(with: nil) }
        expectPhotosError(.identifierNotFound) {
            try here.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(theirs) }
        }
        #expect(Set(here.fetch { PHAsset.fetchAssets(with: nil) }.identifiers) == Set(mine))
        #expect(there.fetch { PHAsset.fetchAssets(with: nil) }.count == 5)
    }

    @Test func emptyResults() throws {
        let test = try TestLibrary()
        let empty = test.fetch { PHAsset.fetchAssets(with: nil) }
        #expect(empty.count == 0 && empty.firstObject == nil && empty.lastObject == nil)
        var called = false
        empty.enumerateObjects { _, _, _ in called = true }
        #expect(!called)
    }

    @Test func objectsAreImmutableSnapshotsEqualByIdentifier() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(1)
        let before = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }[0]
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: before).isFavorite = true }
        let after = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }[0]
        #expect(!before.isFavorite && after.isFavorite)
        #expect(before == after && before.hash == after.hash)
        #expect(Set([before, after]).count == 1)
        #expect(after.modificationDate! > before.modificationDate!)
    }

    @Test func transientCollectionsLiveInMemory() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(3)
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2], ids[0]], options: nil) }
        let transient = PHAssetCollection.transientAssetCollection(withAssetFetchResult: assets, title: "Picks")
        #expect(transient.localizedTitle == "Picks" && transient.estimatedAssetCount == 2)
        #expect(!transient.canPerform(.addContent))
        #expect(PHAsset.fetchAssets(in: transient, options: nil).identifiers == [ids[2], ids[0]])
        let list = PHCollectionList.transientCollectionList(with: [transient], title: "List")
        #expect(PHCollection.fetchCollections(in: list, options: nil).identifiers == [transient.localIdentifier])
        let titled = PHFetchOptions()
        titled.predicate = NSPredicate(format: "title == 'Other'")
        #expect(PHCollection.fetchCollections(in: list, options: titled).count == 0)
    }
}
