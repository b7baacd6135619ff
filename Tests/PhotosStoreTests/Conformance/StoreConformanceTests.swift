import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// What every engine backend must do to stand under `Photos`, checked
/// through the `PhotoStore` contract alone, for each backend this run has
/// (``TestBackend/available``: SQLite, and SQLite with its originals in
/// object storage when `script/services` runs): change sets applied and read back, history and its
/// retention, access scopes for each grant, incremental refresh against
/// refetch, and recovery of a commit session a crash interrupted.
@Suite struct StoreConformanceTests {
    /// A temporary library on one backend, removed at the end.
    final class Library {
        let backend: TestBackend
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        let url: URL
        let owner: any PhotoStore

        init(_ backend: TestBackend) throws {
            self.backend = backend
            url = backend.newLibraryURL(in: directory)
            owner = try backend.open(url, originals: try backend.newOriginals(in: directory))
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        func reopen(client: String? = nil) throws -> any PhotoStore {
            try backend.open(url, client: client)
        }

        /// Commits a set that must commit.
        @discardableResult
        func commit(_ set: ChangeSet, on store: (any PhotoStore)? = nil) throws -> CommitResult {
            try #require(try (store ?? owner).beginCommit().commit(set))
        }
    }

    static func asset(
        _ uuid: String = UUID().uuidString, created: TimeInterval, favorite: Bool = false,
        mediaType: AssetMediaType = .image
    ) -> NewAsset {
        NewAsset(
            record: AssetRecord(
                uuid: uuid, mediaType: mediaType, creationDate: Date(timeIntervalSince1970: created),
                modificationDate: Date(), addedDate: Date(), isFavorite: favorite, playbackStyle: .image),
            resources: [])
    }

    static let byCreation = AssetQuery(scope: .library, sort: [StoreSort(.creationDate, ascending: true)])

    /// The suite runs on every backend whose server is up; a run that
    /// starts them all (`script/test`, and so CI) names them in
    /// `PHOTOS_TEST_EXPECTED_BACKENDS`, and fails when one is missing rather
    /// than passing on fewer.
    @Test func everyBackendTheRunExpectsIsHere() {
        let available = Set(TestBackend.available.map(\.rawValue))
        for name in TestBackend.expected {
            #expect(TestBackend(rawValue: name) != nil, "PHOTOS_TEST_EXPECTED_BACKENDS names \(name), no backend")
            #expect(available.contains(name), "\(name) is expected, but its server is not running")
        }
    }

    // MARK: - Change sets

    @Test(arguments: TestBackend.available)
    func changeSetsAreAppliedWholeAndReadBack(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        let assets = [Self.asset(created: 300), Self.asset(created: 100, favorite: true), Self.asset(created: 200)]
        var set = ChangeSet()
        set.newAssets = assets
        let album = UUID().uuidString
        set.newCollections = [NewCollection(uuid: album, kind: .assetCollection, title: "Trip")]
        set.collectionEdits = [CollectionEdit(target: .collection(uuid: album), operations: [.add([assets[0].record.uuid, assets[1].record.uuid])])]
        let first = try library.commit(set)
        #expect(try store.lastChangeBlock() == first.changeBlock)
        #expect(Set(first.changes.filter { $0.kind == .inserted }.map(\.identifier.uuid)) == Set(assets.map(\.record.uuid) + [album]))

        let fetched = try store.fetchAssets(Self.byCreation)
        #expect(fetched.changeBlock == first.changeBlock)
        #expect(try store.assets(ids: fetched.ids).map(\.uuid) == [assets[1], assets[2], assets[0]].map(\.record.uuid))
        #expect(
            try store.assets(ids: fetched.ids.reversed()).map(\.uuid) == [assets[0], assets[2], assets[1]].map(\.record.uuid),
            "rows come back in the order asked")

        let albums = try store.fetchCollections(CollectionQuery(scope: .stored(.album, subtype: nil)))
        let record = try #require(try store.collections(ids: albums.ids).first)
        #expect(record.title == "Trip" && record.assetCount == 2 && record.type == .album)
        let members = try store.fetchAssets(AssetQuery(scope: .album(rowID: record.id)))
        #expect(try store.assets(ids: members.ids).map(\.uuid) == [assets[0], assets[1]].map(\.record.uuid), "members in album order")

        // A failing set changes nothing: the whole block is refused.
        var failing = ChangeSet()
        failing.newAssets = [Self.asset(created: 400)]
        failing.trashedAssets = [.uuid(UUID().uuidString)]
        #expect(throws: StoreError.self) { try store.beginCommit().commit(failing) }
        #expect(try store.fetchAssets(Self.byCreation).ids == fetched.ids)
        #expect(try store.lastChangeBlock() == first.changeBlock)

        // Blocks are numbered in commit order, one each.
        var trash = ChangeSet()
        trash.trashedAssets = [.uuid(assets[2].record.uuid)]
        let second = try library.commit(trash)
        #expect(second.changeBlock == first.changeBlock + 1)
        #expect(try store.fetchAssets(Self.byCreation).ids.count == 2)
        let trashed = try store.fetchAssets(AssetQuery(scope: .smartAlbum(subtype: SmartAlbumSubtype.recentlyDeleted)))
        #expect(try store.assets(ids: trashed.ids).map(\.uuid) == [assets[2].record.uuid])
    }

    @Test(arguments: TestBackend.available)
    func trashingRestoringAndPurgingRecordEachAssetAndAlbumOnce(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        var create = ChangeSet()
        create.newAssets = (0..<300).map { Self.asset(created: Double($0)) }
        _ = try library.commit(create)
        let uuids = create.newAssets.map(\.record.uuid)
        // Albums with members among those trashed, one without.
        let (early, mixed, late) = (UUID().uuidString, UUID().uuidString, UUID().uuidString)
        var albums = ChangeSet()
        albums.newCollections = [early, mixed, late].map { NewCollection(uuid: $0, kind: .assetCollection, title: "Album") }
        albums.collectionEdits = [(early, Array(uuids[0..<5])), (mixed, [uuids[5], uuids[295]]), (late, Array(uuids[280..<290]))].map {
            CollectionEdit(target: .collection(uuid: $0), operations: [.add($1)])
        }
        _ = try library.commit(albums)

        var trash = ChangeSet()
        // Named by UUID and by row id (as a fetch result of the library names them), and some twice.
        let rowIDs = try store.rowIDs(entity: .asset, uuids: uuids)
        trash.trashedAssets =
            uuids[0..<200].enumerated().map { $0 < 100 ? .rowID(rowIDs[$1]!) : .uuid($1) }
            + uuids[0..<10].map { .uuid($0) } + uuids[100..<110].map { .rowID(rowIDs[$0]!) }
        let trashed = try library.commit(trash)
        let trashedAssets = trashed.changes.filter { $0.identifier.entity == .asset }
        #expect(trashedAssets.map(\.identifier.uuid) == Array(uuids[0..<200]), "each once, in the order asked")
        #expect(trashedAssets.allSatisfy { $0.kind == .updated && $0.changedAttributes == [.trashed] })
        let summaries = trashed.changes.filter { $0.identifier.entity == .assetCollection }
        #expect(Set(summaries.map(\.identifier.uuid)) == [early, mixed], "the albums that showed a trashed asset, each once")
        #expect(summaries.count == 2 && summaries.allSatisfy { $0.kind == .updated && $0.changedAttributes == [.summary] })
        #expect(try store.fetchAssets(Self.byCreation).ids.count == 100)

        // Those already in Recently Deleted stay and are not recorded again.
        var again = ChangeSet()
        again.trashedAssets = uuids[150..<250].map { .rowID(rowIDs[$0]!) }
        #expect(try library.commit(again).changes.map(\.identifier.uuid) == Array(uuids[200..<250]))

        // An unknown asset fails the whole block.
        var unknown = ChangeSet()
        unknown.trashedAssets = [.uuid(uuids[299]), .uuid(UUID().uuidString)]
        #expect(throws: StoreError.self) { try store.beginCommit().commit(unknown) }
        unknown.trashedAssets = [.uuid(uuids[299]), .rowID(rowIDs.values.max()! + 1)]
        #expect(throws: StoreError.self) { try store.beginCommit().commit(unknown) }
        #expect(try store.fetchAssets(Self.byCreation).ids.count == 50)

        var restore = ChangeSet()
        restore.restoredAssets = uuids[0..<250].map { .uuid($0) } + uuids[290..<300].map { .rowID(rowIDs[$0]!) }
        let restored = try library.commit(restore)
        let restoredAssets = restored.changes.filter { $0.identifier.entity == .asset }
        #expect(restoredAssets.map(\.identifier.uuid) == Array(uuids[0..<250]), "those not deleted are left as they are")
        #expect(restoredAssets.allSatisfy { $0.changedAttributes == [.restored] })
        #expect(Set(restored.changes.filter { $0.identifier.entity == .assetCollection }.map(\.identifier.uuid)) == [early, mixed])
        #expect(try store.fetchAssets(Self.byCreation).ids.count == 300)

        // Emptying Recently Deleted changes the members of the albums that held what it deletes.
        var doomed = ChangeSet()
        doomed.trashedAssets = [.uuid(uuids[1]), .rowID(rowIDs[uuids[295]]!)]
        _ = try library.commit(doomed)
        var purge = ChangeSet()
        purge.purge = .all
        let purged = try library.commit(purge)
        #expect(Set(purged.changes.filter { $0.kind == .deleted }.map(\.identifier.uuid)) == [uuids[1], uuids[295]])
        let emptied = purged.changes.filter { $0.identifier.entity == .assetCollection }
        #expect(Set(emptied.map(\.identifier.uuid)) == [early, mixed] && emptied.allSatisfy { $0.changedAttributes == [.members] })

        // A row id fetched before its asset was deleted for good names no asset; the error names the asset deleted.
        var stale = ChangeSet()
        stale.restoredAssets = [.rowID(rowIDs[uuids[295]]!)]
        let error = #expect(throws: StoreError.self) { try store.beginCommit().commit(stale) }
        guard case .notFound(entity: .asset, let identifier) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(identifier.hasPrefix(uuids[295]))
    }

    /// A watcher reading the log's index to skip idle checks still sees
    /// every commit: large ones, whose many writes come before they are
    /// visible, and small ones in quick succession.
    @Test(arguments: TestBackend.available)
    func aWatcherSeesTheLastOfABurstOfCommitsLargeAndSmall(backend: TestBackend) throws {
        let library = try Library(backend)
        let (_, watcher) = try Self.watchFromAnotherConnection(library)
        defer { watcher.stop() }
        var last: Int64 = 0
        for round in 0..<30 {
            var set = ChangeSet()
            set.newAssets = (0..<(round % 10 == 0 ? 2_000 : 1)).map { Self.asset(created: Double($0)) }
            last = try library.commit(set).changeBlock
        }
        #expect(watcher.waitUntilSeen(last) == last)
    }

    /// Another connection to `library`, and a watcher on it that notes the
    /// latest state it reports.
    private static func watchFromAnotherConnection(_ library: Library) throws -> (any PhotoStore, NotedCommits) {
        let other = try library.reopen()
        let start = try other.watchedState()
        let seen = LockedValue<WatchedState>(start)
        let watcher = try other.watchCommits(after: start, onChange: { seen.set($0) }, onUnavailable: { _ in })
        return (other, NotedCommits(watcher: watcher, seen: seen))
    }

    /// A watcher and the latest state it reported.
    private struct NotedCommits {
        let watcher: any CommitWatcher
        let seen: LockedValue<WatchedState>

        /// Waits up to 10 seconds for `changeBlock` to be reported; returns the latest reported.
        func waitUntilSeen(_ changeBlock: Int64) -> Int64 {
            _ = eventuallyBlocking(every: .milliseconds(5)) { seen.get().changeBlock >= changeBlock }
            return seen.get().changeBlock
        }

        /// Waits up to 10 seconds for a revocation mark other than `mark`; returns the latest reported.
        func waitUntilRevoked(after mark: String?) -> String? {
            _ = eventuallyBlocking(every: .milliseconds(5)) { seen.get().tokenRevocation != mark }
            return seen.get().tokenRevocation
        }

        func stop() { watcher.stop() }
    }

    /// Revoking a token writes no history, yet wakes every watcher of the
    /// library with a new mark, so that servers in other processes stop
    /// honouring it at once; forgetting a token that is not there does not.
    @Test(arguments: TestBackend.available)
    func aRevokedTokenWakesAnotherConnectionsWatcher(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        for id in ["first", "second"] {
            try store.addAccessToken(
                AccessTokenRecord(
                    id: id, secretHash: Data(repeating: 1, count: 32), client: nil, isReadOnly: false,
                    label: id, createdAt: Date(), expiresAt: nil, passwordHash: nil))
        }
        let (_, watcher) = try Self.watchFromAnotherConnection(library)
        defer { watcher.stop() }
        let before = try store.watchedState()
        #expect(try store.removeAccessToken(id: "first"))
        let first = watcher.waitUntilRevoked(after: before.tokenRevocation)
        #expect(first != nil && first != before.tokenRevocation)
        #expect(try store.watchedState() == WatchedState(changeBlock: before.changeBlock, tokenRevocation: first))
        #expect(try store.removeAccessToken(id: "absent") == false)
        #expect(try store.watchedState().tokenRevocation == first)
        #expect(try store.removeAccessToken(id: "second"))
        #expect(watcher.waitUntilRevoked(after: first) != first)
    }

    @Test(arguments: TestBackend.available)
    func aCommitIsVisibleToAnotherConnectionAndWakesItsWatcher(backend: TestBackend) throws {
        let library = try Library(backend)
        let (other, watcher) = try Self.watchFromAnotherConnection(library)
        defer { watcher.stop() }
        var set = ChangeSet()
        set.newAssets = [Self.asset(created: 1)]
        let result = try library.commit(set)
        #expect(try other.lastChangeBlock() == result.changeBlock)
        #expect(try other.fetchAssets(Self.byCreation).ids.count == 1)
        #expect(watcher.waitUntilSeen(result.changeBlock) == result.changeBlock)
    }

    @Test(arguments: TestBackend.available)
    func aScanReadsWhatAFetchSelectsInBatches(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        var set = ChangeSet()
        set.newAssets = (0..<25).map { Self.asset(created: Double(($0 * 7) % 25), favorite: $0 % 3 == 0) }
        try library.commit(set)
        let favorites = AssetQuery(
            scope: .library, filter: .compare(.attribute(.isFavorite), .equal, .value(.integer(1)), []),
            sort: [StoreSort(.creationDate, ascending: false)])
        for query in [Self.byCreation, favorites] {
            let fetched = try store.fetchAssets(query).ids
            for reverse in [false, true] {
                var batches: [[Int64]] = []
                #expect(
                    try store.scanAssets(query, reverse: reverse, batchSize: 4) { records in
                        batches.append(records.map(\.id))
                        return true
                    })
                #expect(batches.flatMap { $0 } == (reverse ? fetched.reversed() : fetched))
                #expect(batches.dropLast().allSatisfy { $0.count == 4 })
            }
        }
        var seen = 0
        #expect(
            try store.scanAssets(Self.byCreation, reverse: false, batchSize: 4) { records in
                seen += records.count
                return false
            })
        #expect(seen == 4, "a scan stops when its reader does")
        var limited = Self.byCreation
        limited.limit = 10
        #expect(try store.scanAssets(limited, reverse: false, batchSize: 4) { _ in true })
        #expect(
            try store.scanAssets(limited, reverse: true, batchSize: 4) { _ in
                Issue.record("a limited query is not scanned backwards")
                return true
            } == false)
    }

    // MARK: - History

    /// Objects read one at a time (as a fetch result reads at random) run
    /// outside a transaction on SQLite, on a connection of their own that
    /// threads share: from many threads at once, while another connection
    /// commits, each lookup returns the row asked for, whole, and a
    /// change committed before it began.
    @Test(arguments: TestBackend.available)
    func lookupsByIDFromManyThreadsDuringCommitsReadWholeCurrentRows(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        var insert = ChangeSet()
        let assets = (0..<40).map { Self.asset(created: Double($0)) }
        insert.newAssets = assets
        try library.commit(insert)
        let ids = try store.fetchAssets(Self.byCreation).ids
        let writer = try library.reopen()
        let problems = Mutex<[String]>([])
        let finished = Mutex(false)
        let committing = Thread {
            var round = 0
            while !finished.withLock({ $0 }) {
                var edit = ChangeSet()
                edit.assetEdits = assets.map { AssetEdit(uuid: $0.record.uuid, isFavorite: round % 2 == 0) }
                do { _ = try writer.beginCommit().commit(edit) } catch { problems.withLock { $0.append("commit: \(error)") } }
                round += 1
            }
        }
        committing.start()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            for _ in 0..<5 {
                for (index, id) in ids.enumerated() {
                    do {
                        let records = try store.assets(ids: [id])
                        if records.map(\.id) != [id] || records[0].creationDate != Date(timeIntervalSince1970: Double(index)) {
                            problems.withLock { $0.append("row \(id): \(records)") }
                        }
                    } catch {
                        problems.withLock { $0.append("row \(id): \(error)") }
                    }
                }
            }
        }
        finished.withLock { $0 = true }
        try #require(eventuallyBlocking(within: .seconds(60)) { committing.isFinished })
        #expect(problems.withLock { $0 } == [])

        var last = ChangeSet()
        last.assetEdits = [AssetEdit(uuid: assets[7].record.uuid, isFavorite: true)]
        try library.commit(last, on: writer)
        #expect(try store.assets(ids: [ids[7]]).first?.isFavorite == true)
        var unfavorite = ChangeSet()
        unfavorite.assetEdits = [AssetEdit(uuid: assets[7].record.uuid, isFavorite: false)]
        try library.commit(unfavorite, on: writer)
        #expect(try store.assets(ids: [ids[7]]).first?.isFavorite == false)
    }

    @Test(arguments: TestBackend.available)
    func historyTellsEachBlocksChangesInOrder(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        let start = try store.lastChangeBlock()
        let asset = Self.asset(created: 10)
        var insert = ChangeSet()
        insert.newAssets = [asset]
        try library.commit(insert)
        var favorite = ChangeSet()
        favorite.assetEdits = [AssetEdit(uuid: asset.record.uuid, isFavorite: true)]
        try library.commit(favorite)
        var trash = ChangeSet()
        trash.trashedAssets = [.uuid(asset.record.uuid)]
        let last = try library.commit(trash)

        let span = try store.history(after: start, through: last.changeBlock)
        #expect(span.isComplete)
        let entries = span.entries.filter { $0.identifier.uuid == asset.record.uuid }
        #expect(entries.map(\.kind) == [.inserted, .updated, .updated])
        #expect(entries.map(\.changeBlock) == [start + 1, start + 2, start + 3])
        #expect(entries[1].attributes == [.favorite])
        #expect(entries[2].attributes.contains(.trashed))

        let changes = try store.persistentChanges(since: HistoryPoint(changeBlock: 0, stamp: 0))
        #expect(changes.map(\.point.changeBlock).suffix(3) == [start + 1, start + 2, start + 3])
    }

    @Test(arguments: TestBackend.available)
    func retentionForgetsOldBlocksAndOldTokensExpire(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        try store.setHistoryRetention(HistoryRetention(maximumAge: nil, maximumChangeCount: 2, maximumObjectsPerChange: nil))
        #expect(try store.historyRetention().maximumChangeCount == 2)
        var blocks: [Int64] = []
        for index in 0..<5 {
            var set = ChangeSet()
            set.newAssets = [Self.asset(created: Double(index))]
            blocks.append(try library.commit(set).changeBlock)
        }
        let early = try #require(try store.persistentChanges(since: HistoryPoint(changeBlock: 0, stamp: 0)).first?.point)
        #expect(try store.historyNeedsPruning(now: Date()))
        try store.pruneHistory(through: nil, now: Date())
        #expect(try store.keptHistory().changeBlocks <= 2)
        #expect(try store.history(after: blocks[0], through: blocks[4]).isComplete == false, "a span reaching into pruned blocks says so")
        #expect(try store.history(after: blocks[3], through: blocks[4]).isComplete)
        do {
            _ = try store.persistentChanges(since: early)
            Issue.record("a token older than what is kept must expire")
        } catch {
            guard case .historyExpired = error else {
                Issue.record("expected historyExpired, got \(error)")
                return
            }
        }
    }

    // MARK: - Access scopes

    @Test(arguments: TestBackend.available, [AccessGrant?.none, .denied, .addOnly, .limited, .readWrite])
    func eachGrantSeesWhatItCovers(backend: TestBackend, grant: AccessGrant?) throws {
        let library = try Library(backend)
        let assets = (0..<3).map { Self.asset(created: Double($0)) }
        var set = ChangeSet()
        set.newAssets = assets
        try library.commit(set)
        let client = "conformance.client"
        let clientStore = try library.reopen(client: client)
        _ = try clientStore.requestAccess(level: .readWrite)
        var changes: [AccessChange] = [.setGrant(grant, client: client)]
        if grant == .limited {
            changes.append(.changeSelection(client: client, adding: [assets[1].record.uuid], removing: []))
        }
        let committed = try library.owner.beginCommit().commit(ChangeSet(accessChanges: changes))
        #expect((committed == nil) == (grant == nil), "undecided stays undecided: nothing to commit")

        switch grant {
        case .readWrite?:
            #expect(try clientStore.fetchAssets(Self.byCreation).ids.count == 3)
        case .limited?:
            let ids = try clientStore.fetchAssets(Self.byCreation).ids
            #expect(try clientStore.assets(ids: ids).map(\.uuid) == [assets[1].record.uuid])
            let everything = try library.owner.fetchAssets(Self.byCreation).ids
            #expect(try clientStore.assets(ids: everything).map(\.uuid) == [assets[1].record.uuid], "rows outside the grant do not load")
            #expect(
                try clientStore.uuids(entity: .asset, rowIDs: everything) == [ids[0]: assets[1].record.uuid],
                "nor do their identifiers")
            let owned = try library.owner.uuids(entity: .asset, rowIDs: everything)
            #expect(Set(owned.values) == Set(assets.map(\.record.uuid)))
            #expect(try library.owner.rowIDs(entity: .asset, uuids: Array(owned.values)) == Dictionary(uniqueKeysWithValues: owned.map { ($1, $0) }))
            var edit = ChangeSet()
            edit.assetEdits = [AssetEdit(uuid: assets[0].record.uuid, isFavorite: true)]
            #expect(throws: StoreError.self, "an asset outside the grant cannot be changed") { try clientStore.beginCommit().commit(edit) }
        case .addOnly?, .denied?, .sharedAlbum?, nil:
            do {
                _ = try clientStore.fetchAssets(Self.byCreation)
                Issue.record("a client granted \(String(describing: grant)) must not read")
            } catch {
                guard case .accessDenied = error else {
                    Issue.record("expected accessDenied, got \(error)")
                    return
                }
            }
        }
        if grant == .addOnly {
            var create = ChangeSet()
            create.newAssets = [Self.asset(created: 9)]
            #expect(try clientStore.beginCommit().commit(create) != nil, "add-only may create")
        }
        #expect(try clientStore.grant() == grant)
    }

    /// A share link's grant: its album as it is at each read (the members
    /// neither hidden nor deleted), the album alone among collections, no
    /// moments, no writes, and history about the album and its members only.
    @Test(arguments: TestBackend.available)
    func aSharedAlbumSeesItsAlbumAsItIsAndNothingElse(backend: TestBackend) throws {
        let library = try Library(backend)
        let assets = (0..<4).map { Self.asset(created: Double($0) * 86_400) }
        let (shared, other) = (UUID().uuidString, UUID().uuidString)
        var set = ChangeSet()
        set.newAssets = assets
        set.newCollections = [
            NewCollection(uuid: shared, kind: .assetCollection, title: "Public"),
            NewCollection(uuid: other, kind: .assetCollection, title: "Secret"),
        ]
        set.collectionEdits = [
            CollectionEdit(target: .collection(uuid: shared), operations: [.add(assets[0...2].map(\.record.uuid))]),
            CollectionEdit(target: .collection(uuid: other), operations: [.add([assets[0].record.uuid])]),
        ]
        set.assetEdits = [AssetEdit(uuid: assets[2].record.uuid, isHidden: true)]
        try library.commit(set)
        let client = "share.conformance"
        try library.commit(ChangeSet(accessChanges: [.shareAlbum(shared, client: client)]))
        let store = try library.reopen(client: client)
        #expect(try store.grant() == .sharedAlbum)
        let start = try store.currentHistoryPoint()
        func visible() throws -> [String] { try store.assets(ids: store.fetchAssets(Self.byCreation).ids).map(\.uuid) }
        #expect(try visible() == [assets[0], assets[1]].map(\.record.uuid), "the album's members, not hidden ones")
        let collections = try store.fetchCollections(CollectionQuery(scope: .stored(.album, subtype: nil)))
        #expect(try store.collections(ids: collections.ids).map(\.uuid) == [shared], "no other album, not even its title")
        #expect(
            try store.fetchCollections(
                CollectionQuery(
                    scope: .albumsContaining(
                        assetRowID: try #require(
                            try library.owner.rowIDs(entity: .asset, uuids: [assets[0].record.uuid])[assets[0].record.uuid])))
            ).ids.count == 1)
        #expect(try store.fetchCollections(CollectionQuery(scope: .stored(.smartAlbum, subtype: nil))).ids.isEmpty)
        #expect(try store.moments().isEmpty)
        var write = ChangeSet()
        write.assetEdits = [AssetEdit(uuid: assets[0].record.uuid, isFavorite: true)]
        #expect(throws: StoreError.self, "a share link writes nothing") { try store.beginCommit().commit(write) }

        // A change elsewhere is not the client's to hear of; its album's are, at once.
        var elsewhere = ChangeSet()
        elsewhere.assetEdits = [AssetEdit(uuid: assets[3].record.uuid, isFavorite: true)]
        try library.commit(elsewhere)
        #expect(try store.currentHistoryPoint() == start)
        var membership = ChangeSet()
        membership.collectionEdits = [
            CollectionEdit(
                target: .collection(uuid: shared),
                operations: [
                    .add([assets[3].record.uuid]),
                    .remove([assets[1].record.uuid]),
                ])
        ]
        try library.commit(membership)
        #expect(try visible() == [assets[0], assets[3]].map(\.record.uuid), "membership as it is now")
        // History is read as the album is now: the block that changed the
        // photo just added comes with the block that added it.
        let changes = try store.persistentChanges(since: start)
        #expect(changes.count == 2)
        let entries = try store.persistentChangeEntries(
            after: start.changeBlock == 0 ? 0 : changes[0].point.changeBlock - 1,
            through: changes[1].point.changeBlock
        ).entries
        #expect(Set(entries.map(\.identifier.uuid)).isSubset(of: [shared, assets[3].record.uuid, assets[1].record.uuid]))
        var trash = ChangeSet()
        trash.trashedAssets = [.uuid(assets[0].record.uuid)]
        try library.commit(trash)
        #expect(try visible() == [assets[3].record.uuid], "never a deleted photo")
        var gone = ChangeSet()
        gone.deletedCollections = [shared]
        try library.commit(gone)
        #expect(try visible().isEmpty, "an album deleted leaves the link nothing")
    }

    // MARK: - Refresh against refetch

    @Test(arguments: TestBackend.available)
    func incrementalRefreshesAgreeWithRefetching(backend: TestBackend) throws {
        var random = SeededRandom.fromEnvironment()
        let library = try Library(backend)
        let store = library.owner
        let queries = [
            Self.byCreation,
            AssetQuery(
                scope: .library, filter: .compare(.attribute(.isFavorite), .equal, .value(.integer(1)), []),
                sort: [StoreSort(.creationDate, ascending: false)]),
            AssetQuery(scope: .smartAlbum(subtype: SmartAlbumSubtype.favorites)),
            AssetQuery(scope: .smartAlbum(subtype: SmartAlbumSubtype.recentlyDeleted)),
        ]
        var uuids: [String] = []
        var snapshots = try queries.map { try store.fetchAssets($0) }
        for _ in 0..<40 {
            var set = ChangeSet()
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch (Int.random(in: 0..<5, using: &random), uuids.randomElement(using: &random)) {
                case (0, _), (_, nil):
                    let asset = Self.asset(created: Double(Int.random(in: 0..<50, using: &random)), favorite: Bool.random(using: &random))
                    uuids.append(asset.record.uuid)
                    set.newAssets.append(asset)
                case (1, let uuid?) where !set.assetEdits.contains { $0.uuid == uuid }:
                    set.assetEdits.append(AssetEdit(uuid: uuid, isFavorite: Bool.random(using: &random)))
                case (2, let uuid?) where !set.assetEdits.contains { $0.uuid == uuid }:
                    set.assetEdits.append(
                        AssetEdit(uuid: uuid, creationDate: .some(Date(timeIntervalSince1970: Double(Int.random(in: 0..<50, using: &random))))))
                case (3, let uuid?):
                    set.trashedAssets.append(.uuid(uuid))
                case (_, let uuid?):
                    set.restoredAssets.append(.uuid(uuid))
                }
            }
            set.trashedAssets = Array(Set(set.trashedAssets).subtracting(set.restoredAssets))
            set.restoredAssets = Array(Set(set.restoredAssets))
            _ = try store.beginCommit().commit(set)
            for (index, query) in queries.enumerated() {
                let previous = snapshots[index]
                let refetched = try store.fetchAssets(query)
                if let refresh = try store.refreshAssets(query, from: previous) {
                    #expect(refresh.snapshot.ids == refetched.ids, "query \(index), seed \(random.seed)")
                    #expect(
                        Self.apply(refresh.difference, to: previous.ids, new: refresh.snapshot.ids) == refresh.snapshot.ids,
                        "the difference replays, query \(index), seed \(random.seed)")
                } else {
                    #expect(previous.ids == refetched.ids, "nil means nothing shown changed, query \(index), seed \(random.seed)")
                }
                snapshots[index] = refetched
            }
        }
    }

    /// Replays a difference: removals from the old ids, then insertions at
    /// their new indexes (a move is a removal and an insertion).
    static func apply(_ difference: IdentityDifference, to old: [Int64], new: [Int64]) -> [Int64] {
        let removed = Set(difference.removed + difference.moves.map(\.from))
        var result = old.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        for index in (difference.inserted + difference.moves.map(\.to)).sorted() {
            result.insert(new[index], at: index)
        }
        return result
    }

    // MARK: - Crash recovery of a commit session

    @Test(arguments: TestBackend.available)
    func aCommitSessionADeadProcessLeftIsRecoveredOnOpening(backend: TestBackend) throws {
        let library = try Library(backend)
        let store = library.owner
        // A committed asset, its file placed by the session.
        let session = store.beginCommit()
        let kept = UUID().uuidString
        let file = try session.stage(data: Data("kept".utf8), pathExtension: "jpg")
        var set = ChangeSet()
        set.newAssets = [
            NewAsset(
                record: Self.asset(kept, created: 1).record,
                resources: [
                    NewResource(
                        type: .photo, file: file, originalFilename: "a.jpg",
                        uniformTypeIdentifier: "public.jpeg", pixelWidth: 1, pixelHeight: 1)
                ])
        ]
        #expect(try session.commit(set) != nil)
        let keptPaths = Set(store.files.presentStoredPaths())
        #expect(keptPaths.count == 1)

        // A process that journalled and placed a file, then died before its commit.
        let orphan = "originals/Z/\(UUID().uuidString).jpg"
        let area = try store.files.makeStagingArea()
        let staged = try area.stage(data: Data("orphan".utf8), pathExtension: "jpg")
        try area.recordJournal([.file(orphan)] + keptPaths.map(JournalEntry.file))
        try store.files.place([(staged, orphan)])
        let dead = area.directory.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        try FileManager.default.copyItem(at: area.directory, to: dead)
        area.discard()
        #expect(Set(store.files.presentStoredPaths()) == keptPaths.union([orphan]))

        // A session in flight in a live process is left alone.
        let live = store.beginCommit()
        _ = try live.stage(data: Data("in flight".utf8), pathExtension: "jpg")

        let reopened = try library.reopen()
        #expect(Set(reopened.files.presentStoredPaths()) == keptPaths, "the orphan goes, the committed file stays")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(try reopened.fetchAssets(Self.byCreation).ids.count == 1)
        live.discard()
    }
}
