import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Counts callbacks and remembers the last change, thread-safely.
final class RecordingObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [PHChange] = []
    private(set) var calledOnMainThread = false
    let signal = DispatchSemaphore(value: 0)

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        lock.lock()
        changes.append(changeInstance)
        if Thread.isMainThread { calledOnMainThread = true }
        lock.unlock()
        signal.signal()
    }

    var received: [PHChange] {
        lock.lock()
        defer { lock.unlock() }
        return changes
    }

    /// Waits for a callback; false after `seconds` without one.
    func wait(seconds: Double = 5) -> Bool {
        signal.wait(timeout: .now() + seconds) == .success
    }
}

/// Seed 000's view controller, without UIKit: an album's title and its
/// contents, shown in a collection view modelled as the list of identifiers
/// it displays, kept in sync by the batch updates the change details drive.
final class AlbumViewController: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    /// Stands in for the main queue: the seed redispatches there.
    let interfaceQueue = DispatchQueue(label: "interface")
    var displayedAlbum: PHAssetCollection
    var albumContents: PHFetchResult<PHAsset>
    var title: String?
    var displayedItems: [String]
    var reloadedItems: [String] = []
    var failures: [String] = []
    var sawIncrementalChanges = false
    let updated = DispatchSemaphore(value: 0)

    init(album: PHAssetCollection) {
        displayedAlbum = album
        albumContents = PHAsset.fetchAssets(in: album, options: nil)
        title = album.localizedTitle
        displayedItems = albumContents.identifiers
    }

    func photoLibraryDidChange(_ changeInfo: PHChange) {
        // Photos may call this method on a background queue;
        // switch to the interface queue to update the interface.
        interfaceQueue.async { [self] in
            // Check for changes to the displayed album itself.
            if let albumChanges = changeInfo.changeDetails(for: displayedAlbum), let album = albumChanges.objectAfterChanges {
                displayedAlbum = album
                title = displayedAlbum.localizedTitle
            }
            // Check for changes to the list of assets (insertions, deletions, moves, or updates).
            if let collectionChanges = changeInfo.changeDetails(for: albumContents) {
                albumContents = collectionChanges.fetchResultAfterChanges
                if collectionChanges.hasIncrementalChanges {
                    sawIncrementalChanges = true
                    var moves: [(from: Int, to: Int)] = []
                    collectionChanges.enumerateMoves { moves.append(($0, $1)) }
                    do {
                        displayedItems = try BatchUpdate.apply(
                            to: displayedItems, removed: collectionChanges.removedIndexes!,
                            inserted: collectionChanges.insertedIndexes!, moves: moves,
                            after: albumContents.identifiers)
                    } catch {
                        failures.append("\(error)")
                    }
                    // Reload the changed items after the batch update: their indexes are after-state ones.
                    reloadedItems = collectionChanges.changedIndexes!.map { displayedItems[$0] }
                } else {
                    displayedItems = albumContents.identifiers
                }
            }
            updated.signal()
        }
    }
}

@Suite struct ChangeObservationTests {
    private func album(_ test: TestLibrary, _ title: String, _ identifiers: [String]) throws -> PHAssetCollection {
        var albumID = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil))
            albumID = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil)[0] }
    }

    @Test func seedViewControllerFollowsAMixedChangeBlock() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(5)
        let album = try album(test, "Hike", Array(ids[0...3]))
        let controller = AlbumViewController(album: album)
        test.library.register(controller)
        defer { test.library.unregisterChangeObserver(controller) }

        let newPhoto = try test.jpeg()
        let shown = PHAsset.fetchAssets(in: album, options: nil)
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([shown[1]] as NSArray)
            PHAssetChangeRequest(for: shown[2]).isFavorite = true
            let created = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: newPhoto)!
            let request = PHAssetCollectionChangeRequest(for: album, assets: shown)!
            request.title = "Hike, day one"
            request.moveAssets(at: IndexSet([3]), to: 0)
            request.addAssets([created.placeholderForCreatedAsset!] as NSArray)
        }
        #expect(controller.updated.wait(timeout: .now() + 5) == .success)
        controller.interfaceQueue.sync {}
        let fresh = PHAsset.fetchAssets(in: album, options: nil).identifiers
        #expect(controller.failures.isEmpty, "\(controller.failures)")
        #expect(controller.sawIncrementalChanges)
        #expect(controller.displayedItems == fresh)
        #expect(controller.title == "Hike, day one")
        #expect(controller.reloadedItems == [ids[2]])
        #expect(fresh.count == 4 && fresh[0] == ids[3] && !fresh.contains(ids[1]))
    }

    @Test func observersHearOwnCommitsOffTheMainThreadAndChangesStayValid() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(3)
        let observer = RecordingObserver()
        let everything = test.fetch { PHAsset.fetchAssets(with: nil) }
        test.library.register(observer)
        test.library.register(observer)
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: everything[0]).isFavorite = true
        }
        #expect(observer.wait())
        #expect(!observer.calledOnMainThread)
        let change = try #require(observer.received.last)
        // Asked later, on another queue, the change still answers.
        let details = DispatchQueue(label: "later").sync { change.changeDetails(for: everything) }
        #expect(details?.changedIndexes == IndexSet([0]))
        let objectDetails = change.changeDetails(for: everything[0])
        #expect(objectDetails?.objectAfterChanges?.isFavorite == true && objectDetails?.objectWasDeleted == false)
        #expect(change.changeDetails(for: everything[1]) == nil)
        #expect(change.changeDetails(for: details!.fetchResultAfterChanges) == nil, "the result after changes is current")
        #expect(observer.received.count == 1, "registering twice delivers once")
        test.library.unregisterChangeObserver(observer)
        _ = ids
    }

    @Test func deletedObjectsAndRenamedAlbumsHaveObjectDetails() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let album = try album(test, "Before", ids)
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil)[0] }
        let observer = RecordingObserver()
        test.library.register(observer)
        defer { test.library.unregisterChangeObserver(observer) }
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([asset] as NSArray)
            PHAssetCollectionChangeRequest(for: album)!.title = "After"
        }
        #expect(observer.wait())
        let change = try #require(observer.received.last)
        let assetDetails = try #require(change.changeDetails(for: asset))
        #expect(assetDetails.objectWasDeleted && assetDetails.objectAfterChanges == nil && !assetDetails.assetContentChanged)
        #expect(assetDetails.objectBeforeChanges === asset)
        let albumDetails = try #require(change.changeDetails(for: album))
        #expect(albumDetails.objectAfterChanges?.localizedTitle == "After" && !albumDetails.objectWasDeleted)
        #expect(albumDetails.objectAfterChanges?.estimatedAssetCount == 1)
    }

    @Test func unregisteredDeallocatedAndFailedBlocksDeliverNothing() throws {
        let test = try TestLibrary()
        try test.importDays(1)
        let kept = RecordingObserver()
        let removed = RecordingObserver()
        test.library.register(kept)
        test.library.register(removed)
        test.library.unregisterChangeObserver(removed)
        final class Counter: @unchecked Sendable { var calls = 0 }
        let counter = Counter()
        do {
            final class Transient: NSObject, PHPhotoLibraryChangeObserver {
                let counter: Counter
                init(_ counter: Counter) { self.counter = counter }
                func photoLibraryDidChange(_ changeInstance: PHChange) { counter.calls += 1 }
            }
            test.library.register(Transient(counter))
        }
        #expect(throws: PHPhotosError.self) {
            try test.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(fileURLWithPath: "/missing.jpg"))
            }
        }
        #expect(!kept.wait(seconds: 0.5), "a failed change block is not delivered")
        try test.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Counted")
        }
        #expect(kept.wait())
        #expect(!removed.wait(seconds: 0.3) && removed.received.isEmpty)
        #expect(counter.calls == 0)
        test.library.unregisterChangeObserver(kept)
    }

    @Test func largeChangesAndUnwantedDetailsAreNotIncremental() throws {
        let test = try TestLibrary()
        try test.importDays(2)
        let observer = RecordingObserver()
        let all = test.fetch { PHAsset.fetchAssets(with: nil) }
        let quiet = PHFetchOptions()
        quiet.wantsIncrementalChangeDetails = false
        let allQuietly = test.fetch { PHAsset.fetchAssets(with: quiet) }
        test.library.register(observer)
        defer { test.library.unregisterChangeObserver(observer) }
        try test.insert((0..<30).map { _ in TestLibrary.record(created: Date()) })
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: all[0]).isFavorite = true }
        #expect(observer.wait())
        let change = try #require(observer.received.last)
        let large = try #require(change.changeDetails(for: all))
        #expect(!large.hasIncrementalChanges && large.insertedIndexes == nil && large.fetchResultAfterChanges.count == 32)
        let unwanted = try #require(change.changeDetails(for: allQuietly))
        #expect(!unwanted.hasIncrementalChanges && unwanted.fetchResultAfterChanges.count == 32)
    }

    @Test func diffingAnyTwoFetchResults() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(6)
        let first = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0], ids[1], ids[2], ids[3]], options: nil) }
        let second = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[3], ids[1], ids[4], ids[2]], options: nil) }
        let details = PHFetchResultChangeDetails(from: first, to: second, changedObjects: [second[1], second[2]])
        #expect(details.hasIncrementalChanges)
        #expect(details.removedIndexes == IndexSet([0]))
        #expect(details.insertedIndexes == IndexSet([2]))
        #expect(details.changedIndexes == IndexSet([1]), "only objects in both count as changed")
        var moves: [(Int, Int)] = []
        details.enumerateMoves { moves.append(($0, $1)) }
        let replayed = try BatchUpdate.apply(
            to: first.identifiers, removed: details.removedIndexes!, inserted: details.insertedIndexes!,
            moves: moves.map { ($0.0, $0.1) }, after: second.identifiers)
        #expect(replayed == second.identifiers)
        let transient = PHAssetCollection.transientAssetCollection(withAssetFetchResult: second, title: nil)
        let inMemory = PHAsset.fetchAssets(in: transient, options: nil)
        let mixed = PHFetchResultChangeDetails(from: first, to: inMemory, changedObjects: [])
        #expect(mixed.removedIndexes == IndexSet([0]) && mixed.insertedIndexes == IndexSet([2]))
    }

    /// Index sets built a run at a time hold exactly the indexes given:
    /// runs, gaps, lone indexes, the empty list.
    @Test(arguments: 0..<8)
    func indexSetsFromAscendingIndexesHoldThemAll(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var indexes: [Int] = []
        var next = Int.random(in: 0...3, using: &random)
        for _ in 0..<Int.random(in: 0...200, using: &random) {
            indexes.append(next)
            next += Bool.random(using: &random) ? 1 : Int.random(in: 2...9, using: &random)
        }
        let set = IndexSet(ascending: indexes)
        #expect(Array(set) == indexes)
        #expect(set == IndexSet(indexes))
    }
}
