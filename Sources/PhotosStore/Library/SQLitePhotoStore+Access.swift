import Foundation
import GRDB

/// Client access: what each client may do, kept in the library and managed
/// by its owner. A change of access is committed like a change block, with
/// history entries only the client concerned reads, so its fetch results,
/// observers and persistent history follow.
extension SQLitePhotoStore {
    /// This process's grant: read-write for the owner, nil while the owner
    /// has not decided for this client.
    package func grant() throws(StoreError) -> AccessGrant? {
        guard let client else { return .readWrite }
        return try read { db in try Self.grant(of: client, db) }
    }

    /// Records that this client asks for access at `level` and returns the owner's decision, nil when
    /// there is none yet. The owner is never asked anything.
    package func requestAccess(level: AccessLevel) throws(StoreError) -> AccessGrant? {
        guard let client else { return .readWrite }
        return try write { db in
            try db.execute(sql: """
                INSERT INTO client_access (client, requested_level, requested_at) VALUES (?, ?, ?)
                ON CONFLICT (client) DO UPDATE SET requested_level = excluded.requested_level, requested_at = excluded.requested_at
                """, arguments: [client, level.rawValue, Date().timeIntervalSince1970])
            return try Self.grant(of: client, db)
        }
    }

    /// Every client that asked for access or was given a grant, by identifier.
    package func clientAccessRecords() throws(StoreError) -> [ClientAccessRecord] {
        try read { db in
            try requireOwner("list client access")
            return try Row.fetchAll(db, sql: """
                SELECT c.client, c.access, c.requested_level, c.requested_at, c.decided_at,
                       (SELECT COUNT(*) FROM client_selection s JOIN asset a ON a.uuid = s.uuid
                        WHERE s.client = c.client AND s.entity = \(StoreEntity.asset.rawValue))
                FROM client_access c ORDER BY c.client
                """).map { row in
                ClientAccessRecord(client: row[0], grant: (row[1] as Int?).flatMap(AccessGrant.init(rawValue:)),
                                   requestedLevel: (row[2] as Int?).flatMap(AccessLevel.init(rawValue:)), requestedAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)),
                                   decidedAt: (row[4] as Double?).map(Date.init(timeIntervalSince1970:)), selectedAssetCount: row[5])
            }
        }
    }

    /// Sets a client's grant; nil forgets the decision, so the client is
    /// undecided again. Its selection is kept for when it is limited again.
    /// Returns the change block, nil when the grant did not change.
    @discardableResult
    package func setGrant(_ grant: AccessGrant?, for target: String) throws(StoreError) -> Int64? {
        try checkClientIdentifier(target)
        return try write { db -> Int64? in
            try requireOwner("change client access")
            guard try Self.grant(of: target, db) != grant else { return nil }
            let now = Date()
            try db.execute(sql: """
                INSERT INTO client_access (client, access, decided_at) VALUES (?, ?, ?)
                ON CONFLICT (client) DO UPDATE SET access = excluded.access, decided_at = excluded.decided_at
                """, arguments: [target, grant?.rawValue, grant == nil ? nil : now.timeIntervalSince1970])
            let changeBlock = try HistoryLog.begin(db, at: now, author: nil)
            try HistoryLog.recordAccessChange(db, changeBlock: changeBlock, position: 0, client: target)
            return changeBlock
        }
    }

    /// Forgets a client: its grant, its request and its selection.
    @discardableResult
    package func removeClient(_ target: String) throws(StoreError) -> Int64? {
        try checkClientIdentifier(target)
        return try write { db -> Int64? in
            try requireOwner("remove a client")
            try db.execute(sql: "DELETE FROM client_selection WHERE client = ?", arguments: [target])
            try db.execute(sql: "DELETE FROM client_access WHERE client = ?", arguments: [target])
            guard db.changesCount > 0 else { return nil }
            let changeBlock = try HistoryLog.begin(db, at: Date(), author: nil)
            try HistoryLog.recordAccessChange(db, changeBlock: changeBlock, position: 0, client: target)
            return changeBlock
        }
    }

    /// The assets a client's selection holds, in no particular order.
    package func selectedAssets(of target: String) throws(StoreError) -> [LocalIdentifier] {
        try checkClientIdentifier(target)
        return try read { db in
            try requireOwner("read a client's selection")
            return try String.fetchAll(db.cachedStatement(sql: """
                SELECT s.uuid FROM client_selection s JOIN asset a ON a.uuid = s.uuid
                WHERE s.client = ? AND s.entity = \(StoreEntity.asset.rawValue) ORDER BY a.id
                """), arguments: [target]).map { LocalIdentifier(uuid: $0, entity: .asset) }
        }
    }

    /// Adds assets to a client's selection and removes others. Unknown
    /// assets are refused. Returns the change block, nil when nothing changed.
    @discardableResult
    package func changeSelection(of target: String, adding added: [String], removing removed: [String]) throws(StoreError) -> Int64? {
        try checkClientIdentifier(target)
        return try write { db -> Int64? in
            try requireOwner("change a client's selection")
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT uuid, id FROM asset WHERE uuid IN (SELECT value FROM json_each(?))"),
                                        arguments: [FetchSQL.json(added + removed)])
            let rowIDs = Dictionary(rows.map { ($0[0] as String, $0[1] as Int64) }, uniquingKeysWith: { first, _ in first })
            if let unknown = added.first(where: { rowIDs[$0] == nil }) {
                throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: unknown, entity: .asset).description)
            }
            var changes: [(uuid: String, kind: ObjectChange.Kind)] = []
            for uuid in added {
                try db.execute(sql: "INSERT OR IGNORE INTO client_selection (client, entity, uuid) VALUES (?, ?, ?)",
                               arguments: [target, StoreEntity.asset.rawValue, uuid])
                if db.changesCount > 0 { changes.append((uuid, .inserted)) }
            }
            for uuid in removed {
                try db.execute(sql: "DELETE FROM client_selection WHERE client = ? AND entity = ? AND uuid = ?",
                               arguments: [target, StoreEntity.asset.rawValue, uuid])
                if db.changesCount > 0 { changes.append((uuid, .deleted)) }
            }
            guard !changes.isEmpty else { return nil }
            let changeBlock = try HistoryLog.begin(db, at: Date(), author: nil)
            for (position, change) in changes.enumerated() {
                try HistoryLog.recordAccessChange(db, changeBlock: changeBlock, position: position, client: target,
                                                  identifier: LocalIdentifier(uuid: change.uuid, entity: .asset),
                                                  rowID: rowIDs[change.uuid] ?? 0, kind: change.kind)
            }
            return changeBlock
        }
    }

    // MARK: - Helpers

    private static func grant(of client: String, _ db: Database) throws -> AccessGrant? {
        try (Int?.fetchOne(db.cachedStatement(sql: "SELECT access FROM client_access WHERE client = ?"), arguments: [client]) ?? nil)
            .flatMap(AccessGrant.init(rawValue:))
    }

    func requireOwner(_ activity: String) throws(StoreError) {
        if let client {
            throw .ownerOnly("only the library's owner can \(activity); this process is client \(client)")
        }
    }

    private func checkClientIdentifier(_ identifier: String) throws(StoreError) {
        guard ClientIdentifier.isValid(identifier) else {
            throw .accessDenied("\"\(identifier)\" is not a valid client identifier: use 1 to 255 letters, digits, '.', '-' and '_'")
        }
    }
}
