import Foundation
import GRDB

/// Client access: what each client may do, kept in the library and managed
/// by its owner. Changes of access are change sets (`AccessChange`),
/// committed like any other by `ChangeSetCommitter`.
extension SQLPhotoStore {
    /// This process's grant: read-write for the owner, nil while the owner
    /// has not decided for this client.
    package func grant() throws(StoreError) -> AccessGrant? {
        guard let client else { return .readWrite }
        return try read { db in try AccessScope.grant(of: client, db) }
    }

    /// Records that this client asks for access at `level` and returns the owner's decision, nil when
    /// there is none yet. The owner is never asked anything.
    package func requestAccess(level: AccessLevel) throws(StoreError) -> AccessGrant? {
        guard let client else { return .readWrite }
        return try write { db in
            try db.execute(
                sql: """
                    INSERT INTO client_access (client, requested_level, requested_at) VALUES (?, ?, ?)
                    ON CONFLICT (client) DO UPDATE SET requested_level = excluded.requested_level, requested_at = excluded.requested_at
                    """, arguments: [client, level.rawValue, Date().timeIntervalSince1970])
            return try AccessScope.grant(of: client, db)
        }
    }

    /// Every client that asked for access or was given a grant, by identifier.
    package func clientAccessRecords() throws(StoreError) -> [ClientAccessRecord] {
        try read { db in
            try requireOwner("list client access")
            return try db.fetchAll(
                SQLRow.self,
                sql: """
                    SELECT c.client, c.access, c.requested_level, c.requested_at, c.decided_at,
                           (SELECT COUNT(*) FROM client_selection s JOIN asset a ON a.uuid = s.uuid
                            WHERE s.client = c.client AND s.entity = \(StoreEntity.asset.rawValue)), c.shared_album
                    FROM client_access c ORDER BY c.client
                    """
            ).map { row in
                try ClientAccessRecord(
                    client: row[0], grant: (row[1] as Int?).flatMap(AccessGrant.init(rawValue:)),
                    requestedLevel: (row[2] as Int?).flatMap(AccessLevel.init(rawValue:)),
                    requestedAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)),
                    decidedAt: (row[4] as Double?).map(Date.init(timeIntervalSince1970:)), selectedAssetCount: row[5],
                    sharedAlbum: row[6])
            }
        }
    }

    /// The assets a client's selection holds, in no particular order.
    package func selectedAssets(of target: String) throws(StoreError) -> [LocalIdentifier] {
        try ClientIdentifier.check(target)
        return try read { db in
            try requireOwner("read a client's selection")
            return try db.fetchAll(
                String.self,
                sql: """
                    SELECT s.uuid FROM client_selection s JOIN asset a ON a.uuid = s.uuid
                    WHERE s.client = ? AND s.entity = \(StoreEntity.asset.rawValue) ORDER BY a.id
                    """, arguments: [target]
            ).map { LocalIdentifier(uuid: $0, entity: .asset) }
        }
    }

    // MARK: - Helpers

    func requireOwner(_ activity: String) throws(StoreError) {
        if let client {
            throw .ownerOnly("only the library's owner can \(activity); this process is client \(client)")
        }
    }
}
