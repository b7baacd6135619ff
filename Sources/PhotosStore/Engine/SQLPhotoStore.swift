import Foundation
import GRDB
import Synchronization

/// The engine shared by the backends that keep the catalogue in a SQL
/// database (`SQLitePhotoStore`, and PostgreSQL's store): every fetch,
/// refresh, history read and change block of ``PhotoStore`` is written
/// once, here and in this folder, over ``SQLConnection``. A backend supplies
/// transactions on its database and what it alone knows: how it opens, how
/// its errors read, how commits are watched, when it cannot be written.
package protocol SQLPhotoStore: PhotoStore {
    /// Hides block numbers in restricted clients' change tokens.
    var tokenCipher: TokenCipher { get }
    /// Off only in benchmarks that measure what history costs.
    var writesHistoryEntries: Bool { get }
    /// The moments of the latest change block, computed once per block.
    var momentCache: MomentCache { get }
    /// Runs `body` in one read transaction: one snapshot of the library.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T
    /// Runs `body`, which runs exactly one statement, without a transaction
    /// of its own: a single statement sees one state of the library by
    /// itself, and a lookup by id costs less than a transaction's start
    /// and end. Used where one object or one list of ids is read.
    func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T
    /// Runs `body` in one write transaction and commits it, durably; refuses
    /// a library that cannot take a write (see ``checkWritable()``).
    func write<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T
    /// Throws why nothing can be written now (read-only, damaged, gone).
    func checkWritable() throws(StoreError)
    /// Why a commit that returned cannot last after all (SQLite's
    /// write-ahead log deleted under it); nil when it can.
    func commitLossProblem() -> StoreError?
    /// What the database's own checks find wrong in it (pages, keys,
    /// derived tables); empty when it is whole. Cost: reading all of it.
    func databaseProblems() -> [String]
    /// Remembers what a full check concluded: damage found is recorded so
    /// that nothing more is written, a whole database clears it.
    func recordIntegrity(databaseIsWhole: Bool, problem: String?)
    /// Throws when the tables that say which files are stored (`asset`,
    /// `resource`) cannot be trusted, before an abandoned change block's
    /// files are judged by them (see ``recoverAbandonedChangeBlocks()``).
    func checkTablesBeforeRecovery() throws(StoreError)
}

/// The moments of one change block, kept until the next commit.
package final class MomentCache: Sendable {
    private let cached = Mutex<(changeBlock: Int64, moments: [MomentRecord])?>(nil)

    /// An empty cache.
    package init() {}

    /// The moments, when they were computed for `changeBlock`.
    func moments(at changeBlock: Int64) -> [MomentRecord]? {
        cached.withLock { value in value.flatMap { $0.changeBlock == changeBlock ? $0.moments : nil } }
    }

    func store(_ moments: [MomentRecord], at changeBlock: Int64) {
        cached.withLock { $0 = (changeBlock, moments) }
    }

    func clear() {
        cached.withLock { $0 = nil }
    }
}

extension SQLPhotoStore {
    // MARK: - Reading

    /// Reads objects: resolves this process's access scope in the same
    /// transaction and refuses a client that may not read.
    func readObjects<T>(_ body: (any SQLConnection, AccessScope) throws -> T) throws(StoreError) -> T {
        try read { db in
            let scope = try AccessScope.resolve(db, client: client)
            if let denial = scope.readDenial { throw denial }
            return try body(db, scope)
        }
    }

    /// Reads objects with one statement: for the library's owner, whose
    /// scope needs no query, outside a transaction (see
    /// ``readStatement(_:)``); for a client, whose grant is read first, in
    /// one transaction with it (see ``readObjects(_:)``).
    func readObjectsInOneStatement<T>(_ body: (any SQLConnection, AccessScope) throws -> T) throws(StoreError) -> T {
        guard let scope = AccessScope.withoutQuery(client: client) else { return try readObjects(body) }
        return try readStatement { db in try body(db, scope) }
    }

    /// The bytes of the files stored for the assets this process may see
    /// (originals and edits, Recently Deleted included). Cost: one query
    /// over the visible assets' resources.
    package func storedBytes() throws(StoreError) -> Int64 {
        try readObjects { db, scope in
            try db.fetchOne(
                Int64.self,
                """
                SELECT CAST(COALESCE(SUM(r.file_size), 0) AS BIGINT) FROM resource r JOIN asset a ON a.id = r.asset_id\(
                    scope.assetCondition(.asset).whereClause)
                """) ?? 0
        }
    }

    package func allResourcePaths() throws(StoreError) -> Set<String> {
        try read { db in Set(try db.fetchAll(String.self, sql: "SELECT relative_path FROM resource")) }
    }

    package func allAssetUUIDs() throws(StoreError) -> Set<String> {
        try read { db in Set(try db.fetchAll(String.self, sql: "SELECT uuid FROM asset")) }
    }

    package func fetchAssets(_ query: AssetQuery) throws(StoreError) -> FetchSnapshot {
        try readObjects { db, scope in
            let changeBlock = try HistoryLog.lastChangeBlock(db)
            guard let statement = FetchSQL.assetIDs(query, scope: scope, dialect: db.dialect, now: Date()) else {
                return FetchSnapshot(ids: [], changeBlock: changeBlock)
            }
            return FetchSnapshot(ids: try db.fetchAll(Int64.self, statement), changeBlock: changeBlock)
        }
    }

    package func refreshAssets(_ query: AssetQuery, from previous: FetchSnapshot) throws(StoreError) -> FetchRefresh? {
        try readObjects { db, scope in
            try FetchRefresher.assets(db, query: query, previous: previous, scope: scope, client: client)
        }
    }

    package func refreshCollections(_ query: CollectionQuery, from previous: FetchSnapshot) throws(StoreError) -> FetchRefresh? {
        try readObjects { db, scope in
            try FetchRefresher.collections(db, query: query, previous: previous, scope: scope, client: client)
        }
    }

    package func history(after: Int64, through: Int64) throws(StoreError) -> HistorySpan {
        try readObjects { db, scope in try HistoryLog.span(db, after: after, through: through, scope: scope, client: client) }
    }

    package func assets(ids: [Int64], extendedMetadata: Bool) throws(StoreError) -> [AssetRecord] {
        try readRows(ids) { db, scope in
            let condition = scope.assetCondition(.asset)
            let table = SQLFragment(sql: TableAlias.asset.source)
            if extendedMetadata {
                return try Self.loadRows(
                    db, ids: ids, table: table, alias: .asset, condition: condition, selection: AssetRecord.selectionWithExtendedMetadata,
                    selectionByID: condition == nil ? AssetRecord.selectionWithExtendedMetadataByID : nil,
                    decode: AssetRecord.init(rowWithExtendedMetadata:))
            }
            return try Self.loadRows(
                db, ids: ids, table: table, alias: .asset, condition: condition, selection: AssetRecord.selection,
                selectionByID: condition == nil ? AssetRecord.selectionByID : nil, decode: AssetRecord.init(row:))
        }
    }

    package func scanAssets(
        _ query: AssetQuery, reverse: Bool, batchSize: Int, extendedMetadata: Bool,
        _ body: ([AssetRecord]) -> Bool
    ) throws(StoreError) -> Bool {
        try readObjects { db, scope in
            guard let plan = FetchSQL.assetPlan(query, scope: scope, dialect: db.dialect, now: Date()) else { return true }
            let selection = extendedMetadata ? AssetRecord.selectionWithExtendedMetadata : AssetRecord.selection
            guard let statement = plan.rows(selection, reverse: reverse) else { return false }
            let decode = extendedMetadata ? AssetRecord.init(rowWithExtendedMetadata:) : AssetRecord.init(row:)
            try db.scan(statement, batchSize: batchSize) { rows in body(try rows.map(decode)) }
            return true
        }
    }

    package func collections(ids: [Int64]) throws(StoreError) -> [CollectionRecord] {
        try readRows(ids) { db, scope in
            try Self.loadRows(
                db, ids: ids, table: FetchSQL.collectionSource(scope) + " c", alias: .collection, condition: scope.collectionCondition(.collection),
                selection: CollectionRecord.selection, selectionByID: nil, decode: CollectionRecord.init(row:))
        }
    }

    /// Reads the rows of `ids` with ``loadRows(_:ids:table:alias:condition:selection:decode:)``:
    /// in one statement when they fit in one chunk, else in one transaction.
    private func readRows<Record>(_ ids: [Int64], _ body: (any SQLConnection, AccessScope) throws -> [Record]) throws(StoreError) -> [Record] {
        ids.count <= Self.loadChunk ? try readObjectsInOneStatement(body) : try readObjects(body)
    }

    /// Loads rows by id and returns them in the order of `ids`; ids missing
    /// from the table drop out. Each chunk joins the list of its ids to the
    /// table. On SQLite, CROSS JOIN makes it loop over the list, in order,
    /// and seek each row, so rows come back in the list's order without the
    /// cost of sorting them (an ORDER BY would sort whole rows); PostgreSQL
    /// is told the order. Rows are decoded in place, none copied first.
    /// `selectionByID`, when given, is the same one-row statement written
    /// once, with the id as its argument: a lookup of one row then neither
    /// renders a statement nor binds more than the id.
    private static func loadRows<Record>(
        _ db: any SQLConnection, ids: [Int64], table: SQLFragment, alias: TableAlias, condition: SQLFragment?, selection: String, selectionByID: String?,
        decode: (any SQLColumnReader) throws(StoredValueError) -> Record
    ) throws -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(ids.count)
        if ids.count == 1 {
            // One row, as a fetch result reads at random: sought by id, without a list to join.
            if let selectionByID {
                try db.prepare(sql: selectionByID).forEachRow(id: ids[0]) { records.append(try decode($0)) }
            } else {
                try db.forEachRow("SELECT \(sql: selection) FROM \(table) WHERE \(sql: alias["id"]) = \(ids[0])\(condition.andClause)") {
                    records.append(try decode($0))
                }
            }
            return records
        }
        for start in stride(from: 0, to: ids.count, by: loadChunk) {
            let chunk = Array(ids[start..<min(start + loadChunk, ids.count)])
            let list = db.dialect.table(of: chunk, alias: .listElement)
            let statement: SQLFragment =
                switch db.dialect {
                case .sqlite:
                    "SELECT \(sql: selection) FROM \(list) CROSS JOIN \(table) ON \(sql: alias["id"]) = \(sql: TableAlias.listElement["value"])\(condition.whereClause)"
                case .postgres:
                    "SELECT \(sql: selection) FROM \(list) JOIN \(table) ON \(sql: alias["id"]) = \(sql: TableAlias.listElement["value"])\(condition.whereClause) ORDER BY \(sql: TableAlias.listElement["key"])"
                }
            try db.forEachRow(statement) { records.append(try decode($0)) }
        }
        return records
    }

    /// Rows per query: large enough to amortise a statement, small enough for SQLite's limits.
    private static var loadChunk: Int { 1024 }

    package func countAssets(ids: [Int64], mediaType: AssetMediaType) throws(StoreError) -> Int {
        try readObjectsInOneStatement { db, scope in
            try db.fetchOne(
                Int.self,
                """
                SELECT COUNT(*) FROM asset a
                WHERE a.media_type = \(mediaType.rawValue) AND a.id IN (\(db.dialect.elements(of: ids)))\(
                    scope.assetCondition(.asset).andClause)
                """) ?? 0
        }
    }

    package func resources(assetID: Int64) throws(StoreError) -> [ResourceRecord] {
        try readObjectsInOneStatement { db, scope in
            try db.fetchAll(
                SQLRow.self,
                """
                SELECT \(sql: ResourceRecord.selection) FROM resource r JOIN asset a ON a.id = r.asset_id
                WHERE r.asset_id = \(assetID)\(scope.assetCondition(.asset).andClause) ORDER BY r.id
                """
            ).map(ResourceRecord.init(row:))
        }
    }

    package func fetchCollections(_ query: CollectionQuery) throws(StoreError) -> FetchSnapshot {
        try readObjects { db, scope in
            FetchSnapshot(
                ids: try db.fetchAll(Int64.self, FetchSQL.collectionIDs(query, scope: scope, dialect: db.dialect)),
                changeBlock: try HistoryLog.lastChangeBlock(db))
        }
    }

    package func deletedIdentifiers(entity: StoreEntity, rowIDs: [Int64]) throws(StoreError) -> [Int64: LocalIdentifier] {
        guard !rowIDs.isEmpty else { return [:] }
        let entities = entity == .asset ? [StoreEntity.asset] : [.assetCollection, .collectionList]
        return try readObjectsInOneStatement { db, scope in
            let rows = try db.fetchAll(
                SQLRow.self,
                """
                SELECT row_id, uuid, entity FROM deleted_object
                WHERE entity IN (\(db.dialect.elements(of: entities.map { Int64($0.rawValue) })))
                  AND row_id IN (\(db.dialect.elements(of: rowIDs)))\(scope.deletedObjectCondition("uuid").andClause)
                """)
            return Dictionary(
                try rows.map { row in
                    try (row[0] as Int64, LocalIdentifier(uuid: row[1], entity: StoreEntity(rawValue: row[2]) ?? entity))
                }, uniquingKeysWith: { first, _ in first })
        }
    }

    package func rowIDs(entity: StoreEntity, uuids: [String]) throws(StoreError) -> [String: Int64] {
        guard !uuids.isEmpty else { return [:] }
        return try identities(
            of: entity, where: { dialect, row in "\(sql: row["uuid"]) IN (\(dialect.elements(of: uuids)))" }, pair: { try ($0[1] as String, $0[0] as Int64) })
    }

    package func uuids(entity: StoreEntity, rowIDs: [Int64]) throws(StoreError) -> [Int64: String] {
        guard !rowIDs.isEmpty else { return [:] }
        return try identities(
            of: entity, where: { dialect, row in "\(sql: row["id"]) IN (\(dialect.elements(of: rowIDs)))" }, pair: { try ($0[0] as Int64, $0[1] as String) })
    }

    /// The row id and UUID of each object of `entity` that
    /// `condition` selects and the reader may see, as `pair` makes them into
    /// a table; collections of both kinds share one table. Cost: one query.
    private func identities<Key: Hashable, Value>(
        of entity: StoreEntity, where condition: (SQLDialect, TableAlias) -> SQLFragment, pair: (any SQLColumnReader) throws -> (Key, Value)
    ) throws(StoreError) -> [Key: Value] {
        try readObjectsInOneStatement { db, scope in
            // Both kinds go by one alias, handed to `condition`.
            let alias = TableAlias.asset
            let (table, visible): (SQLFragment, SQLFragment?) =
                entity == .asset
                ? (SQLFragment(sql: alias.source), scope.assetCondition(alias))
                : (FetchSQL.collectionSource(scope) + " \(alias)", scope.collectionCondition(alias))
            // Read in place: a change block passed a fetch of thousands of
            // assets asks for all their UUIDs, and a copy of each row cost
            // more than SQLite took to find them.
            var pairs: [Key: Value] = [:]
            try db.forEachRow("SELECT \(sql: alias["id"]), \(sql: alias["uuid"]) FROM \(table) WHERE \(condition(db.dialect, alias))\(visible.andClause)") {
                row in
                let (key, value) = try pair(row)
                if pairs[key] == nil { pairs[key] = value }
            }
            return pairs
        }
    }

    package func assetUUIDs(withContentHashes hashes: [String]) throws(StoreError) -> [String: String] {
        guard !hashes.isEmpty else { return [:] }
        return try readObjects { db, scope in
            let rows = try db.fetchAll(
                SQLRow.self,
                """
                SELECT a.content_hash, a.uuid FROM asset a
                WHERE a.content_hash IN (\(db.dialect.elements(of: hashes))) AND \(sql: ShownAssets.notDeleted(.asset))\(
                    scope.assetCondition(.asset).andClause)
                ORDER BY a.id
                """)
            return Dictionary(try rows.map { try ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
        }
    }

    package func filterCollectionRows(
        _ rows: [CollectionRow], filter: StoreFilter<CollectionAttribute>,
        sort: [StoreSort<CollectionAttribute>], limit: Int
    ) throws(StoreError) -> [Int] {
        guard !rows.isEmpty else { return [] }
        return try read { db in
            try db.fetchAll(Int.self, FetchSQL.collectionRows(rows, filter: filter, sort: sort, limit: limit, dialect: db.dialect))
        }
    }

    package func lastChangeBlock() throws(StoreError) -> Int64 {
        try read { db in try HistoryLog.lastChangeBlock(db) }
    }

    package func watchedState() throws(StoreError) -> WatchedState {
        try read { db in try HistoryLog.watchedState(db) }
    }

    // MARK: - Moments

    /// The moments as of the latest change block: computed once per block,
    /// then served from the cache. The cached value is taken in the same
    /// read that finds the block, so a commit clearing the cache meanwhile
    /// cannot leave this without one.
    package func moments() throws(StoreError) -> [MomentRecord] {
        let lookup = try readObjects { db, scope -> MomentLookup in
            guard scope.seesMoments else { return .cached([]) }
            let changeBlock = try HistoryLog.lastChangeBlock(db)
            if let cached = momentCache.moments(at: changeBlock) {
                return .cached(cached)
            }
            let rows = try db.fetchAll(
                SQLRow.self,
                """
                SELECT a.uuid, a.creation_date, a.latitude, a.longitude FROM asset a
                WHERE a.creation_date IS NOT NULL AND \(sql: ShownAssets.inTimeline(.asset))\(
                    scope.assetCondition(.asset).andClause)
                ORDER BY a.creation_date, a.id
                """)
            let assets = try rows.map { row in
                try MomentClustering.Asset(
                    uuid: row[0], creationDate: Date(timeIntervalSince1970: row[1]),
                    latitude: row[2], longitude: row[3])
            }
            return .uncached(changeBlock: changeBlock, assets: assets)
        }
        switch lookup {
        case .cached(let moments):
            return moments
        case .uncached(let changeBlock, let assets):
            let moments = MomentClustering(libraryUUID: libraryUUID).moments(of: assets)
            momentCache.store(moments, at: changeBlock)
            return moments
        }
    }

    package func momentLists(subtype: Int) throws(StoreError) -> [MomentListRecord] {
        MomentClustering(libraryUUID: libraryUUID).momentLists(of: try moments(), subtype: subtype)
    }

    // MARK: - Writing

    /// Where a change block commits (see ``PhotoStore/commit(_:in:)``):
    /// new files are journalled and placed in storage first, then the
    /// change set is applied and recorded in one write transaction; files
    /// the block removes (purged assets, replaced edits) are journalled
    /// inside that transaction and deleted once it has committed. A crash at
    /// any point leaves what the next opening's recovery finishes.
    package func commit(_ changeSet: ChangeSet, in session: CommitSession) throws(StoreError) -> CommitResult? {
        if !changeSet.changesObjects, changeSet.accessChanges.isEmpty, let purge = changeSet.purge, try !hasPurgeable(purge) {
            // Checked in a read first, so that opening a library takes no write lock for nothing.
            return nil
        }
        let placement = FilePlacement(changeSet, layout: layout)
        var placed: [String] = []
        // The session's staging area lives until the session is over, after
        // the commit: its journal covers a crash in between.
        let staged = session.stagedArea
        try checkWritable()
        let outcome: (result: CommitResult, removedFiles: [JournalEntry])?
        // Files an edit replaces are journalled with the new ones: whichever the
        // database no longer names after a crash, recovery removes.
        let replaced = try editResourcePaths(changeSet.assetEdits.filter { $0.content != nil }.map(\.uuid))
        do throws(StoreError) {
            if !placement.files.isEmpty || !replaced.isEmpty {
                // A revert brings no file but still journals those it removes.
                guard placement.files.isEmpty || staged != nil else { throw StoreError.fileSystem("new files need a staging area") }
                try session.stagingArea().recordJournal((placement.files.map(\.path) + replaced).map(JournalEntry.file))
                try files.place(placement.files)
                placed = placement.files.map(\.path)
            }
            let purgeJournal = changeSet.purge == nil ? nil : try session.stagingArea()
            let now = Date()
            outcome = try write { db in
                let scope = try AccessScope.resolve(db, client: client)
                if let required = changeSet.requiredState { try requireState(required, db, scope: scope) }
                var committer = ChangeSetCommitter(db: db, now: now, scope: scope)
                guard
                    let result = try committer.apply(
                        changeSet, placement: placement, client: client,
                        writesHistoryEntries: writesHistoryEntries)
                else { return nil }
                if !committer.removedFiles.isEmpty {
                    try purgeJournal?.recordJournal(committer.removedFiles)
                }
                return (result, committer.removedFiles)
            }
        } catch {
            for path in placed {
                files.remove(.file(path))
            }
            throw error
        }
        guard let (result, removedFiles) = outcome else { return nil }
        momentCache.clear()
        // Acknowledged only if it can last. The caller's files then stay where they were.
        if let lost = commitLossProblem() { throw lost }
        for source in placement.files.compactMap(\.file.sourceToRemove) {
            try? FileManager.default.removeItem(at: source)
        }
        try? removeUnreferenced(replaced)
        removedFiles.forEach(files.remove)
        // New assets left out as duplicates: their files were placed (and journalled) in case they were not.
        for (asset, paths) in zip(changeSet.newAssets, placement.newAssets) where result.duplicates[asset.record.uuid] != nil {
            paths.forEach { files.remove(.file($0)) }
        }
        return result
    }

    /// Refuses the commit unless the library is in `required` as `scope`
    /// sees it: the last change block it may see something of is the one
    /// the point names. Runs first in the write transaction, which holds
    /// the library's commit lock on either backend, so no other commit
    /// comes between the check and this one.
    private func requireState(_ required: HistoryPoint, _ db: any SQLConnection, scope: AccessScope) throws {
        let expected = try plainPoint(required, scope: scope)
        let current = try HistoryLog.currentPoint(db, scope: scope, client: client)
        guard expected.changeBlock == current.changeBlock, expected.stamp == current.stamp else {
            throw StoreError.stateChanged("the library has changed since the change token the change block required")
        }
    }

    /// Whether a purge would find anything to delete.
    private func hasPurgeable(_ purge: RecentlyDeletedPurge) throws(StoreError) -> Bool {
        try read { db in
            switch purge {
            case .all:
                try db.fetchOne(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM asset WHERE trashed_date IS NOT NULL)") ?? false
            case .deletedBefore(let cutoff):
                try db.fetchOne(
                    Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM asset WHERE trashed_date < ?)",
                    arguments: [cutoff.timeIntervalSince1970]) ?? false
            }
        }
    }

    /// The files of the edits (renderings, adjustment data) of these assets.
    private func editResourcePaths(_ uuids: [String]) throws(StoreError) -> [String] {
        guard !uuids.isEmpty else { return [] }
        let types = ResourceType.sqlList(ResourceType.edits)
        return try read { db in
            try db.fetchAll(
                String.self,
                """
                SELECT r.relative_path FROM resource r JOIN asset a ON a.id = r.asset_id
                WHERE a.uuid IN (\(db.dialect.elements(of: uuids))) AND r.type IN (\(sql: types))
                """)
        }
    }

    /// Deletes those of the files the database no longer names.
    private func removeUnreferenced(_ relativePaths: [String]) throws(StoreError) {
        guard !relativePaths.isEmpty else { return }
        let named = try read { db in
            try Set(
                db.fetchAll(
                    String.self,
                    """
                    SELECT relative_path FROM resource WHERE relative_path IN (\(db.dialect.elements(of: relativePaths)))
                    """))
        }
        for path in relativePaths where !named.contains(path) {
            files.remove(.file(path))
        }
    }
}

/// What a read for moments found: the cached moments of the latest change
/// block, or the assets to compute them from, as of `changeBlock`.
private enum MomentLookup {
    case cached([MomentRecord])
    case uncached(changeBlock: Int64, assets: [MomentClustering.Asset])
}
