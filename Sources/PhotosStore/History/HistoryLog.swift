import Foundation
import GRDB

/// The history log: one `change_transaction` row per committed change block,
/// with a random stamp, and one `change_entry` row per object it changed.
/// Change observation and persistent history both read it; every read takes
/// the reader's access scope, so a limited client never reads an entry
/// about an object outside its selection.
///
/// Pruning moves a horizon: the blocks up to `prunedThrough` are forgotten
/// (tokens older than it expire) the moment the horizon moves, and their
/// rows are deleted afterwards in small transactions.
enum HistoryLog {
    /// The number of the last committed change block, by any process.
    static func lastChangeBlock(_ db: any SQLConnection) throws -> Int64 {
        try db.fetchOne(Int64.self, sql: "SELECT COALESCE(MAX(id), 0) FROM change_transaction") ?? 0
    }

    /// The last change block and the last token revocation's mark, in one statement.
    static func watchedState(_ db: any SQLConnection) throws -> WatchedState {
        let row = try db.fetchOne(
            SQLRow.self,
            """
            SELECT COALESCE((SELECT MAX(id) FROM change_transaction), 0),
                   (SELECT value FROM library_metadata WHERE key = \(WatchedState.tokenRevocationKey))
            """)
        guard let row else { return WatchedState(changeBlock: 0, tokenRevocation: nil) }
        return WatchedState(changeBlock: try row[0], tokenRevocation: try row[1] as String?)
    }

    /// Leaves a fresh token-revocation mark, in the revoking transaction, and
    /// has the backend wake every watcher of the library when it commits.
    static func markTokenRevocation(_ db: any SQLConnection) throws {
        try db.execute(
            """
            INSERT INTO library_metadata (key, value) VALUES (\(WatchedState.tokenRevocationKey), \(UUID().uuidString))
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
        try db.announceTokenRevocation()
    }

    /// The state the last committed change block made.
    static func currentPoint(_ db: any SQLConnection) throws -> HistoryPoint {
        guard let row = try db.fetchOne(SQLRow.self, sql: "SELECT id, stamp FROM change_transaction ORDER BY id DESC LIMIT 1") else {
            return HistoryPoint(changeBlock: 0, stamp: 0)
        }
        return try HistoryPoint(changeBlock: row[0], stamp: row[1])
    }

    /// The state the last change block `scope` may see something of made:
    /// a reader without read-write access is not shown blocks about others'
    /// objects, so its token does not move with them. When no kept block
    /// concerns it, the state at the pruning horizon (or before any block).
    static func currentPoint(_ db: any SQLConnection, scope: AccessScope, client: String?) throws -> HistoryPoint {
        guard scope != .full else { return try currentPoint(db) }
        let pruned = try prunedThrough(db)
        let row =
            try db.fetchOne(
                SQLRow.self,
                """
                SELECT t.id, t.stamp FROM change_transaction t WHERE t.id > \(pruned) AND \(visibleBlock(.changeBlock, scope: scope, client: client))
                ORDER BY t.id DESC LIMIT 1
                """)
            ?? db.fetchOne(SQLRow.self, sql: "SELECT id, stamp FROM change_transaction WHERE id = ?", arguments: [pruned])
        return try row.map { try HistoryPoint(changeBlock: $0[0], stamp: $0[1]) } ?? HistoryPoint(changeBlock: 0, stamp: 0)
    }

    private static let prunedKey = "history_pruned_through"

    /// The newest change block whose details are forgotten; 0 when none is.
    static func prunedThrough(_ db: any SQLConnection) throws -> Int64 {
        try db.fetchOne(String.self, sql: "SELECT value FROM library_metadata WHERE key = ?", arguments: [prunedKey])
            .flatMap { Int64($0) } ?? 0
    }

    /// The change blocks past the pruning horizon that `scope` may see
    /// something of (see `changes`).
    static func kept(_ db: any SQLConnection, scope: AccessScope, client: String?) throws -> KeptHistory {
        let row = try db.fetchOne(
            SQLRow.self,
            """
            SELECT COUNT(*), MIN(t.committed_at), MAX(t.committed_at) FROM change_transaction t
            WHERE t.id > \(try prunedThrough(db)) AND \(visibleBlock(.changeBlock, scope: scope, client: client))
            """)
        let oldest: Double? = try row?[1]
        let newest: Double? = try row?[2]
        return KeptHistory(
            changeBlocks: try row?[0] ?? 0, oldest: oldest.map(Date.init(timeIntervalSince1970:)),
            newest: newest.map(Date.init(timeIntervalSince1970:)))
    }

    // MARK: - Reading

    /// What the change blocks after `after`, up to `through`, did, as `scope` may see it.
    static func span(_ db: any SQLConnection, after: Int64, through: Int64, scope: AccessScope, client: String?) throws -> HistorySpan {
        let pruned = try prunedThrough(db)
        guard through > after else { return HistorySpan(entries: [], isComplete: after >= pruned, prunedThrough: pruned) }
        let entries = try self.entries(db, after: after, through: through, scope: scope, client: client)
        var complete = after >= pruned
        if complete {
            complete = try
                !(db.fetchOne(
                    Bool.self,
                    """
                    SELECT EXISTS (SELECT 1 FROM change_transaction WHERE id > \(after) AND id <= \(through) AND details = 0)
                        OR \(accessChanged(after: "\(after)", through: "\(through)", client: client))
                    """) ?? false)
        }
        return HistorySpan(entries: entries, isComplete: complete, prunedThrough: pruned)
    }

    /// The object changes of the blocks after `after`, up to `through`, that
    /// `scope` may see, in commit order.
    static func entries(_ db: any SQLConnection, after: Int64, through: Int64, scope: AccessScope, client: String?) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        // A library's updates change few distinct sets of attributes, so each stored list is parsed once.
        var attributeSets: [String: Set<ChangedAttribute>] = [:]
        try db.forEachRow(
            """
            SELECT e.transaction_id, e.entity, e.row_id, e.uuid, e.kind, e.attributes FROM change_entry e
            WHERE e.transaction_id > \(after) AND e.transaction_id <= \(through) AND e.entity > 0
              AND \(scope.entryCondition(.historyEntry, client: client))
            ORDER BY e.transaction_id, e.position
            """
        ) { row in
            guard let entity = try StoreEntity(rawValue: row[1]), let kind = try ObjectChange.Kind(rawValue: row[4]) else { return }
            // Most entries (insertions, deletions) store an empty list, which needs no look-up.
            let storedList: String = try row[5]
            let attributes =
                storedList.isEmpty
                ? []
                : attributeSets[storedList]
                    ?? {
                        let parsed = ChangedAttribute.attributes(storedList: storedList)
                        attributeSets[storedList] = parsed
                        return parsed
                    }()
            // Built in place in the list: a closure handed each entry would copy it, retaining its text and set.
            try entries.append(
                HistoryEntry(
                    changeBlock: row[0], identifier: LocalIdentifier(uuid: row[3], entity: entity), rowID: row[2], kind: kind,
                    attributes: attributes))
        }
        return entries
    }

    /// Checks that `point` names a state of this library's kept history;
    /// returns the last committed block. A reader with read-write access
    /// (`revealsNumbers`) is told exactly what is wrong, block numbers
    /// included; any other is told one thing whatever it is, so that no
    /// token it makes up teaches it how many blocks the library holds.
    static func validate(_ point: HistoryPoint, _ db: any SQLConnection, revealsNumbers: Bool) throws -> Int64 {
        do {
            return try checkedLast(point, db)
        } catch let error as StoreError where !revealsNumbers {
            switch error {
            case .historyExpired, .historyPointUnknown: throw StoreError.unusableOpaqueToken
            default: throw error
            }
        }
    }

    private static func checkedLast(_ point: HistoryPoint, _ db: any SQLConnection) throws -> Int64 {
        let last = try lastChangeBlock(db)
        guard point.changeBlock >= 0, point.changeBlock > 0 || point.stamp == 0 else {
            throw StoreError.historyPointUnknown("the change token is damaged: it names no state of any library")
        }
        if point.changeBlock > last {
            throw StoreError.historyExpired(
                """
                the change token names change block \(point.changeBlock) but this library's last is \(last): \
                the library was restored from an older copy, or the token comes from another copy of it
                """)
        }
        let pruned = try prunedThrough(db)
        if point.changeBlock < pruned {
            throw StoreError.historyExpired(
                """
                the change token is older than the kept history: change blocks up to \(pruned) were pruned \
                by the library's retention setting
                """)
        }
        guard point.changeBlock > 0 else { return last }
        let stamp = try db.fetchOne(
            Int64.self, sql: "SELECT stamp FROM change_transaction WHERE id = ?",
            arguments: [point.changeBlock])
        guard stamp == point.stamp else {
            throw StoreError.historyExpired(
                """
                the change token names a state from another history of this library (change block \(point.changeBlock) \
                differs): the library was restored from a copy, or the token comes from another copy of it
                """)
        }
        return last
    }

    /// The change blocks after `after`, up to `through`, that `scope` may see
    /// something of, in commit order, the first `limit` of them (all, when
    /// nil): a page costs what it holds, not the whole history after
    /// `after`. Blocks whose details were dropped are listed for every
    /// reader: whether they concern it is unknown.
    static func changes(
        _ db: any SQLConnection, after: Int64, through: Int64, scope: AccessScope, client: String?,
        limit: Int? = nil
    ) throws -> [PersistentChangeRecord] {
        var changes: [PersistentChangeRecord] = []
        // Blocks are numbered one after another, so a reader with read-write
        // access, who sees them all, knows the count: the list, megabytes
        // for a long history, is then not copied as it grows.
        if scope == .full { changes.reserveCapacity(min(limit ?? .max, Int(clamping: max(0, through - after)))) }
        let page: SQLFragment = limit.map { " LIMIT \(max(0, $0))" } ?? ""
        // What the reader may know of each block's details is one column: 0
        // kept, 1 dropped, 2 the reader's access changed (which wins).
        try db.forEachRow(
            """
            SELECT t.id, t.stamp, t.committed_at, t.object_count,
                   CASE WHEN \(accessChanged(after: "t.id - 1", through: "t.id", client: client)) THEN 2
                        WHEN t.details = 0 THEN 1 ELSE 0 END
            FROM change_transaction t
            WHERE t.id > \(after) AND t.id <= \(through) AND \(visibleBlock(.changeBlock, scope: scope, client: client))
            ORDER BY t.id\(page)
            """
        ) { row in
            let details: PersistentChangeRecord.Details
            switch try row[4] as Int {
            case 0: details = .kept
            case 1: details = .dropped
            default: details = .accessChanged
            }
            try changes.append(
                PersistentChangeRecord(
                    point: HistoryPoint(changeBlock: row[0], stamp: row[1]),
                    committedAt: Date(timeIntervalSince1970: row[2]), objectCount: row[3],
                    details: details))
        }
        return changes
    }

    /// The condition a change block (`alias` of `change_transaction`) meets
    /// when `scope` may see something of it: an entry about what it may see,
    /// or details that were dropped (whether they concern it is unknown).
    /// With read-write access, a block that changed objects is seen without
    /// looking at its entries, as they are all for everyone; the owner sees
    /// no other, a client also those with an entry of its own (its access
    /// changed). Other scopes look for an entry about what they may see.
    private static func visibleBlock(_ alias: TableAlias, scope: AccessScope, client: String?) -> SQLFragment {
        let entry: (SQLFragment) -> SQLFragment = { condition in
            "EXISTS (SELECT 1 FROM \(sql: TableAlias.historyEntry.source) WHERE \(sql: TableAlias.historyEntry["transaction_id"]) = \(sql: alias["id"]) AND \(condition))"
        }
        guard scope == .full else { return "(\(sql: alias["details"]) = 0 OR \(entry(scope.entryCondition(.historyEntry, client: client))))" }
        guard let client else { return "(\(sql: alias["details"]) = 0 OR \(sql: alias["object_count"]) > 0)" }
        return "(\(sql: alias["details"]) = 0 OR \(sql: alias["object_count"]) > 0 OR \(entry("e.client = \(client)")))"
    }

    /// Whether the owner changed `client`'s access in a block after `after`,
    /// up to `through`: an entry without an object, for that client. The
    /// owner's own access never changes, so it is false without a look.
    private static func accessChanged(after: SQLFragment, through: SQLFragment, client: String?) -> SQLFragment {
        guard let client else { return "FALSE" }
        return """
            EXISTS (SELECT 1 FROM change_entry a WHERE a.transaction_id > \(after) AND a.transaction_id <= \(through)
                    AND a.entity = 0 AND a.client = \(client))
            """
    }

    // MARK: - Writing

    /// Starts the history of a change block that changed `objectCount`
    /// objects; returns its number, which the backend assigns in commit
    /// order (see ``SQLConnection/numberChangeBlock(committedAt:author:objectCount:)``).
    /// The count tells readers with read-write access that the block has
    /// entries for them without looking (see `visibleBlock`).
    static func begin(_ db: any SQLConnection, at date: Date, author: String?, objectCount: Int) throws -> Int64 {
        try db.numberChangeBlock(committedAt: date, author: author, objectCount: objectCount)
    }

    /// A change of one client's access, recorded for that client only: of
    /// its grant (`change` nil) or of one asset of its selection.
    struct AccessEntry {
        var client: String
        var change: ObjectChange?
    }

    /// Writes what a commit changed, object by object, unless the block is
    /// larger than the retention keeps details for (then only its size), or
    /// `writesEntries` is off (benchmarks measuring what history costs).
    /// Access entries follow the object changes; a grant change is an entry
    /// without an object (entity 0).
    static func record(_ result: CommitResult, accessEntries: [AccessEntry] = [], _ db: any SQLConnection, writesEntries: Bool = true) throws {
        guard writesEntries else { return }
        var objectChanges = result.changes
        if let limit = try HistoryRetention.maximumObjectsPerChange(db), result.changes.count > limit {
            try db.execute(sql: "UPDATE change_transaction SET details = 0 WHERE id = ?", arguments: [result.changeBlock])
            objectChanges = []
        }
        // Values of known types, each converted where it is made, not through an existential.
        var rows: [[DatabaseValue]] = objectChanges.enumerated().map { position, change in
            [
                result.changeBlock.databaseValue, position.databaseValue, change.identifier.entity.rawValue.databaseValue,
                change.rowID.databaseValue, change.identifier.uuid.databaseValue, change.kind.rawValue.databaseValue,
                ChangedAttribute.storedList(change.changedAttributes).databaseValue, .null,
            ]
        }
        for (offset, entry) in accessEntries.enumerated() {
            let change = entry.change
            rows.append([
                result.changeBlock.databaseValue, (objectChanges.count + offset).databaseValue,
                (change?.identifier.entity.rawValue ?? 0).databaseValue, (change?.rowID ?? 0).databaseValue,
                (change?.identifier.uuid ?? "").databaseValue, (change?.kind ?? .updated).rawValue.databaseValue,
                ChangedAttribute.access.storedName.databaseValue, entry.client.databaseValue,
            ])
        }
        try insertEntries(rows, db)
    }

    /// Entries written per statement: a block of thousands of objects takes
    /// a few dozen statements, which on PostgreSQL are so many round trips
    /// fewer (8 arguments a row stays far below either database's limit).
    private static let entriesPerStatement = 128

    /// Inserts entry rows, many per statement; the statement for a full
    /// batch is prepared once.
    private static func insertEntries(_ rows: [[DatabaseValue]], _ db: any SQLConnection) throws {
        func statementText(rows count: Int) -> String {
            "INSERT INTO change_entry (transaction_id, position, entity, row_id, uuid, kind, attributes, client) VALUES "
                + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
        }
        var full: (any SQLStatement)?
        for start in stride(from: 0, to: rows.count, by: entriesPerStatement) {
            let batch = rows[start..<min(rows.count, start + entriesPerStatement)]
            let statement: any SQLStatement
            if batch.count == entriesPerStatement {
                if full == nil { full = try db.prepare(sql: statementText(rows: entriesPerStatement)) }
                statement = full!
            } else {
                statement = try db.prepare(sql: statementText(rows: batch.count))
            }
            try statement.execute(values: Array(batch.joined()))
        }
    }

    // MARK: - Pruning

    /// Moves the horizon to `target` (never back); returns whether it moved.
    /// Tokens older than the horizon expire from this moment.
    static func advanceHorizon(_ db: any SQLConnection, to target: Int64) throws -> Bool {
        let target = min(target, try lastChangeBlock(db))
        guard target > (try prunedThrough(db)) else { return false }
        try db.execute(
            sql: "INSERT INTO library_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [prunedKey, String(target)])
        return true
    }

    /// Whether rows the horizon forgot are still stored.
    static func hasForgottenRows(_ db: any SQLConnection) throws -> Bool {
        let horizon = try prunedThrough(db)
        return try db.fetchOne(
            Bool.self,
            sql: """
                SELECT EXISTS (SELECT 1 FROM change_entry WHERE transaction_id <= ?1)
                    OR EXISTS (SELECT 1 FROM change_transaction WHERE id < ?1)
                """, arguments: [horizon]) ?? false
    }

    /// Deletes up to `limit` forgotten rows; returns how many it deleted, 0
    /// when nothing is left to delete. Entries go first, then the blocks
    /// before the horizon; the block at the horizon stays, so a token naming
    /// it can still be checked.
    @discardableResult
    static func deleteForgottenRows(_ db: any SQLConnection, limit: Int) throws -> Int {
        let horizon = try prunedThrough(db)
        var deleted = try db.execute(
            sql: """
                DELETE FROM change_entry WHERE (transaction_id, position) IN (
                    SELECT transaction_id, position FROM change_entry WHERE transaction_id <= ? ORDER BY transaction_id LIMIT ?)
                """, arguments: [horizon, limit])
        if deleted < limit {
            deleted += try db.execute(
                sql: "DELETE FROM change_transaction WHERE id IN (SELECT id FROM change_transaction WHERE id < ? ORDER BY id LIMIT ?)",
                arguments: [horizon, limit - deleted])
        }
        return deleted
    }
}

/// The change blocks the history keeps the details of.
package struct KeptHistory: Sendable, Equatable {
    package var changeBlocks: Int
    package var oldest: Date?
    package var newest: Date?
}
