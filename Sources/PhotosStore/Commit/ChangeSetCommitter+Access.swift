import Foundation
import GRDB

/// The owner's changes of a client's access, each recorded for that client only.
extension ChangeSetCommitter {
    /// Applies one of the owner's changes of a client's access; each change
    /// that takes effect is recorded for the client alone.
    mutating func apply(_ change: AccessChange) throws {
        let target = change.client
        try ClientIdentifier.check(target)
        switch change {
        case .setGrant(let grant, _):
            guard grant != .sharedAlbum else {
                throw StoreError.editNotAllowed("a shared album's grant names its album: share one with createShareLink(for:)")
            }
            let current = try AccessScope.grant(of: target, db)
            guard current != grant else { return }
            // What makes a token a share link is its client's grant: it stays
            // one until the link is revoked, never widened into another grant.
            guard current != .sharedAlbum else {
                throw StoreError.editNotAllowed("\(target) is a share link's client, whose grant is its album: revoke the link instead")
            }
            try db.execute(
                sql: """
                    INSERT INTO client_access (client, access, decided_at, shared_album) VALUES (?, ?, ?, NULL)
                    ON CONFLICT (client) DO UPDATE SET access = excluded.access, decided_at = excluded.decided_at, shared_album = NULL
                    """, arguments: [target, grant?.rawValue, grant == nil ? nil : now.timeIntervalSince1970])
            accessEntries.append(.init(client: target, change: nil))
        case .shareAlbum(let album, _):
            guard
                try db.fetchOne(
                    Bool.self,
                    """
                    SELECT EXISTS (SELECT 1 FROM collection c WHERE c.uuid = \(album) AND \(sql: CollectionType.album.condition(.collection)))
                    """) == true
            else {
                throw StoreError.notFound(entity: .assetCollection, identifier: LocalIdentifier(uuid: album, entity: .assetCollection).description)
            }
            try db.execute(
                sql: """
                    INSERT INTO client_access (client, access, decided_at, shared_album) VALUES (?, ?, ?, ?)
                    ON CONFLICT (client) DO UPDATE SET access = excluded.access, decided_at = excluded.decided_at, shared_album = excluded.shared_album
                    """, arguments: [target, AccessGrant.sharedAlbum.rawValue, now.timeIntervalSince1970, album])
            accessEntries.append(.init(client: target, change: nil))
        case .removeClient:
            try db.execute(sql: "DELETE FROM client_selection WHERE client = ?", arguments: [target])
            guard try db.execute(sql: "DELETE FROM client_access WHERE client = ?", arguments: [target]) > 0 else { return }
            accessEntries.append(.init(client: target, change: nil))
        case .changeSelection(_, let added, let removed):
            let assetIDs = try rowIDs(table: "asset", uuids: Set(added + removed))
            if let unknown = added.first(where: { assetIDs[$0] == nil }) {
                throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: unknown, entity: .asset).description)
            }
            let insert = try db.prepare(sql: "INSERT INTO client_selection (client, entity, uuid) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            let delete = try db.prepare(sql: "DELETE FROM client_selection WHERE client = ? AND entity = ? AND uuid = ?")
            for (uuids, statement, kind) in [(added, insert, ObjectChange.Kind.inserted), (removed, delete, .deleted)] {
                for uuid in uuids {
                    guard try statement.execute(arguments: [target, StoreEntity.asset.rawValue, uuid]) > 0 else { continue }
                    accessEntries.append(
                        .init(
                            client: target,
                            change: ObjectChange(
                                identifier: LocalIdentifier(uuid: uuid, entity: .asset), rowID: assetIDs[uuid] ?? 0,
                                kind: kind, changedAttributes: [.access])))
                }
            }
        }
    }
}
