import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Random change blocks against many shapes of fetch result: the details of
/// every change must replay, as a collection view's batch update, from the
/// fetch result before to exactly a fresh fetch after, and say which of the
/// objects shown changed.
@Suite(.tags(.slow)) struct ObservationPropertyTests {
    typealias Random = SeededRandom

    /// A fetched object's identity without reading its row: its row id when
    /// it is stored, else its identifier.
    static func key(_ object: PHObject) -> String {
        if let asset = object as? PHAsset { return "asset \(asset.record.id)" }
        if let id = (object as? PHCollection)?.storedRowID { return "collection \(id)" }
        return object.localIdentifier
    }

    /// The identities of a fetch result's objects, without reading rows.
    static func keys<T>(_ result: PHFetchResult<T>) -> [String] {
        switch result.contents.source {
        case .rows(_, .assets, let ids): ids.map { "asset \($0)" }
        case .rows(_, .collections, let ids): ids.map { "collection \($0)" }
        case .objects(let objects): objects.map(key)
        }
    }

    /// Checks one fetch result's details against a fresh fetch.
    /// `updated`: identifiers of the assets the block edited, when the
    /// shape shows assets (nil for collections, whose changes are derived).
    static func verify<T: PHObject>(
        _ shape: String, before: PHFetchResult<T>, details: PHFetchResultChangeDetails<T>?,
        fresh: PHFetchResult<T>, updated: Set<String>?, incrementalAllowed: Bool = true,
        context: String
    ) {
        let beforeIDs = keys(before)
        let freshIDs = keys(fresh)
        guard let details else {
            #expect(beforeIDs == freshIDs, "\(shape): no details but the fetch changed; \(context)")
            if let updated {
                #expect(Set(beforeIDs).isDisjoint(with: updated), "\(shape): no details but a shown asset changed; \(context)")
            }
            return
        }
        #expect(details.fetchResultBeforeChanges === before)
        let afterIDs = keys(details.fetchResultAfterChanges)
        #expect(afterIDs == freshIDs, "\(shape): the result after changes is not a fresh fetch; \(context)")
        guard details.hasIncrementalChanges else {
            #expect(details.removedIndexes == nil && details.insertedIndexes == nil && details.changedIndexes == nil && !details.hasMoves)
            return
        }
        #expect(incrementalAllowed, "\(shape): incremental details were not wanted; \(context)")
        var moves: [(from: Int, to: Int)] = []
        details.enumerateMoves { moves.append(($0, $1)) }
        #expect(details.hasMoves == !moves.isEmpty)
        let removed = details.removedIndexes!
        let inserted = details.insertedIndexes!
        let changed = details.changedIndexes!
        do {
            let replayed = try BatchUpdate.apply(to: beforeIDs, removed: removed, inserted: inserted, moves: moves, after: afterIDs)
            #expect(replayed == afterIDs, "\(shape): the batch update ends elsewhere; \(details); \(context)")
        } catch {
            Issue.record("\(shape): \(error); \(details); \(context)")
        }
        #expect(details.removedObjects.map(key) == removed.map { beforeIDs[$0] })
        #expect(details.insertedObjects.map(key) == inserted.map { afterIDs[$0] })
        let changedIDs = changed.map { afterIDs[$0] }
        #expect(details.changedObjects.map(key) == changedIDs)
        #expect(changed.isDisjoint(with: inserted), "\(shape): an inserted object is also changed; \(context)")
        #expect(Set(changedIDs).isDisjoint(with: removed.map { beforeIDs[$0] }))
        #expect(Set(changedIDs).isSubset(of: beforeIDs))
        if let updated {
            #expect(
                Set(changedIDs) == updated.intersection(beforeIDs).intersection(afterIDs),
                "\(shape): changed \(changedIDs) but edited \(updated); \(context)")
        }
    }

    /// A library to mutate: assets, a main album, a folder of albums.
    final class World {
        let test: TestLibrary
        var random: Random
        var albumID = ""
        var folderID = ""
        var knownIdentifiers: [String] = []

        init(seed: UInt64) throws {
            test = try TestLibrary()
            random = Random(seed: seed &* 31 &+ 5)
            knownIdentifiers = try test.insert((0..<Int.random(in: 12...30, using: &random)).map { _ in newRecord() })
            let members = Array(knownIdentifiers.shuffled(using: &random).prefix(8))
            try test.library.performChangesAndWait { [self] in
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Main")
                album.addAssets(members.map { PHObjectPlaceholder(localIdentifier: $0, library: nil) } as NSArray)
                let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Folder")
                let inner = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Inner")
                inner.addAssets(members.prefix(3).map { PHObjectPlaceholder(localIdentifier: $0, library: nil) } as NSArray)
                folder.addChildCollections([inner.placeholderForCreatedAssetCollection] as NSArray)
                albumID = album.placeholderForCreatedAssetCollection.localIdentifier
                folderID = folder.placeholderForCreatedCollectionList.localIdentifier
            }
        }

        func newRecord() -> AssetRecord {
            let day = 86_400.0 * Double(Int.random(in: 0..<6, using: &random))
            return TestLibrary.record(
                created: Date(timeIntervalSince1970: 1_700_000_000 + day),
                favorite: Int.random(in: 0..<4, using: &random) == 0,
                hidden: Int.random(in: 0..<10, using: &random) == 0,
                width: [100, 200, 300][Int.random(in: 0..<3, using: &random)])
        }

        var album: PHAssetCollection { test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil)[0] } }
        var folder: PHCollectionList { test.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folderID], options: nil)[0] } }

        func everything(_ options: PHFetchOptions = PHFetchOptions()) -> PHFetchResult<PHAsset> {
            options.includeHiddenAssets = true
            return test.fetch { PHAsset.fetchAssets(with: options) }
        }

        /// Applies one random change block; returns the assets it edited.
        func randomBlock() throws -> Set<String> {
            var updated = Set<String>()
            let library = test.library
            let trash = test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil)[0] }
            func pick<T>(_ result: PHFetchResult<T>) -> T? {
                result.count == 0 ? nil : result[Int.random(in: 0..<result.count, using: &random)]
            }
            let operations = Int.random(in: 1...3, using: &random)
            for _ in 0..<operations {
                // Earlier operations of the block may have deleted what an older fetch shows.
                let visible = everything()
                let trashed = PHAsset.fetchAssets(in: trash, options: nil)
                switch Int.random(in: 0..<12, using: &random) {
                case 0:
                    knownIdentifiers += try test.insert((0..<Int.random(in: 1...3, using: &random)).map { _ in newRecord() })
                case 1, 2:
                    guard let asset = pick(visible) else { continue }
                    try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = !asset.isFavorite }
                    updated.insert(asset.localIdentifier)
                case 3:
                    guard let asset = pick(visible) else { continue }
                    try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = !asset.isHidden }
                    updated.insert(asset.localIdentifier)
                case 4:
                    guard let asset = pick(visible) else { continue }
                    let date = Date(timeIntervalSince1970: 1_700_000_000 + 86_400 * Double(Int.random(in: 0..<6, using: &random)))
                    try library.performChangesAndWait { PHAssetChangeRequest(for: asset).creationDate = date }
                    updated.insert(asset.localIdentifier)
                case 5:
                    guard let asset = pick(visible) else { continue }
                    try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
                    updated.insert(asset.localIdentifier)
                case 6:
                    guard let asset = pick(trashed) else { continue }
                    try library.performChangesAndWait { PHAssetChangeRequest.restoreDeletedAssets([asset] as NSArray) }
                    updated.insert(asset.localIdentifier)
                case 7:
                    let album = self.album
                    let contents = PHAsset.fetchAssets(in: album, options: nil)
                    let additions = (0..<2).compactMap { _ in pick(visible) }
                    try library.performChangesAndWait { [self] in
                        let request = PHAssetCollectionChangeRequest(for: album, assets: contents)!
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0 where contents.count > 1:
                            request.moveAssets(
                                at: IndexSet([Int.random(in: 0..<contents.count, using: &random)]),
                                to: Int.random(in: 0..<contents.count, using: &random))
                        case 1 where contents.count > 0:
                            request.removeAssets(at: IndexSet([Int.random(in: 0..<contents.count, using: &random)]))
                        case 2 where !additions.isEmpty:
                            // An asset already in the album moves: the album keeps its count.
                            let last = contents.contains(additions[0]) ? contents.count - 1 : contents.count
                            request.insertAssets([additions[0]] as NSArray, at: IndexSet([Int.random(in: 0...last, using: &random)]))
                        default:
                            request.addAssets(additions as NSArray)
                        }
                    }
                case 8:
                    let folder = self.folder
                    try library.performChangesAndWait { [self] in
                        let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                            withTitle: "New \(Int.random(in: 0..<100, using: &random))")
                        if let asset = pick(visible) { album.addAssets([asset] as NSArray) }
                        if Bool.random(using: &random) {
                            PHCollectionListChangeRequest(for: folder)!.addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
                        }
                    }
                case 9:
                    let children = PHCollection.fetchCollections(in: folder, options: nil)
                    guard let child = pick(children) as? PHAssetCollection else { continue }
                    let folder = self.folder
                    try library.performChangesAndWait { [self] in
                        switch Int.random(in: 0..<3, using: &random) {
                        case 0: PHAssetCollectionChangeRequest(for: child)!.title = "Renamed \(Int.random(in: 0..<100, using: &random))"
                        case 1: PHCollectionListChangeRequest(for: folder)!.removeChildCollections([child] as NSArray)
                        default: PHAssetCollectionChangeRequest.deleteAssetCollections([child] as NSArray)
                        }
                    }
                case 10:
                    let top = test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }
                    guard top.count > 1 else { continue }
                    try library.performChangesAndWait { [self] in
                        PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: top)!
                            .moveChildCollections(at: IndexSet([Int.random(in: 0..<top.count, using: &random)]), to: 0)
                    }
                default:
                    if Int.random(in: 0..<4, using: &random) == 0 { _ = try library.emptyRecentlyDeleted() }
                }
            }
            return updated
        }
    }

    /// Change blocks per seed: 250 on SQLite. On PostgreSQL every read is a
    /// round trip through postgres-nio, which in an unoptimised (test)
    /// build made this suite 15 times slower (445 s against 29); 30 blocks
    /// a seed keep it near a minute there, and the SQL and the diffing
    /// under test are the same code on every backend.
    static let blocksPerSeed = TestBackend.selected.isSQLite ? 250 : 30

    @Test(arguments: 0..<8)
    func changeDetailsReplayToAFreshFetch(seed: UInt64) throws {
        let world = try World(seed: seed)
        let test = world.test
        let library = test.library
        for block in 0..<Self.blocksPerSeed {
            // The fetch results an app would hold, before the change.
            func options(_ configure: (PHFetchOptions) -> Void) -> PHFetchOptions {
                let options = PHFetchOptions()
                configure(options)
                return options
            }
            let byWidth = options { $0.sortDescriptors = [NSSortDescriptor(key: "pixelWidth", ascending: false)] }
            let favorites = options {
                $0.predicate = NSPredicate(format: "favorite == YES")
                $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            }
            let newestFive = options {
                $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                $0.fetchLimit = 5
            }
            let noIncrements = options { $0.wantsIncrementalChangeDetails = false }
            let bigAlbums = options {
                $0.predicate = NSPredicate(format: "estimatedAssetCount > 2")
                $0.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            }
            let smart = { (subtype: PHAssetCollectionSubtype) in
                test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: nil)[0] }
            }
            let identifiers = world.knownIdentifiers
            let assetShapes: [(String, PHFetchOptions?, () -> PHFetchResult<PHAsset>)] = [
                ("library", nil, { test.fetch { PHAsset.fetchAssets(with: nil) } }),
                ("by width", nil, { test.fetch { PHAsset.fetchAssets(with: byWidth) } }),
                ("favorites newest first", nil, { test.fetch { PHAsset.fetchAssets(with: favorites) } }),
                ("newest five", nil, { test.fetch { PHAsset.fetchAssets(with: newestFive) } }),
                ("with hidden", nil, { world.everything() }),
                ("album", nil, { PHAsset.fetchAssets(in: world.album, options: nil) }),
                ("Favorites", nil, { PHAsset.fetchAssets(in: smart(.smartAlbumFavorites), options: nil) }),
                ("Hidden", nil, { PHAsset.fetchAssets(in: smart(.smartAlbumAllHidden), options: nil) }),
                ("Recently Deleted", nil, { PHAsset.fetchAssets(in: smart(.smartAlbumRecentlyDeleted), options: nil) }),
                ("identifiers", nil, { test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) } }),
                ("not incremental", noIncrements, { test.fetch { PHAsset.fetchAssets(with: noIncrements) } }),
            ]
            let collectionShapes: [(String, () -> PHFetchResult<PHCollection>)] = [
                ("top level", { test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) } }),
                ("folder", { PHCollection.fetchCollections(in: world.folder, options: nil) }),
            ]
            let albumShapes: [(String, () -> PHFetchResult<PHAssetCollection>)] = [
                ("albums over 2", { test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: bigAlbums) } }),
                ("moments", { test.fetch { PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil) } }),
            ]
            let assetsBefore = assetShapes.map { $0.2() }
            let collectionsBefore = collectionShapes.map { $0.1() }
            let albumsBefore = albumShapes.map { $0.1() }

            let start = try library.store!.lastChangeBlock()
            let updatedIdentifiers = try world.randomBlock()
            let updated = Set(
                try library.store!.rowIDs(entity: .asset, uuids: updatedIdentifiers.compactMap { LocalIdentifier($0)?.uuid })
                    .values.map { "asset \($0)" })
            let end = try library.store!.lastChangeBlock()
            let change = PHChange(library: library, from: start, to: end)
            let context = "seed \(seed) block \(block)"

            for (index, shape) in assetShapes.enumerated() {
                Self.verify(
                    shape.0, before: assetsBefore[index], details: change.changeDetails(for: assetsBefore[index]),
                    fresh: shape.2(), updated: updated, incrementalAllowed: shape.1 == nil, context: context)
            }
            for (index, shape) in collectionShapes.enumerated() {
                Self.verify(
                    shape.0, before: collectionsBefore[index], details: change.changeDetails(for: collectionsBefore[index]),
                    fresh: shape.1(), updated: nil, context: context)
            }
            for (index, shape) in albumShapes.enumerated() {
                Self.verify(
                    shape.0, before: albumsBefore[index], details: change.changeDetails(for: albumsBefore[index]),
                    fresh: shape.1(), updated: nil, context: context)
            }
        }
    }
}
