import Foundation
import GRDB

/// Albums and folders: inserted, retitled, their members and children
/// edited in order, deleted with what they hold.
extension ChangeSetCommitter {
    struct StoredCollection {
        var rowID: Int64
        var type: CollectionType
        var parentID: Int64?
        var identifier: LocalIdentifier
        var kind: CollectionKind { type.kind }
    }

    func collection(_ uuid: String) throws -> StoredCollection {
        guard
            let row = try db.fetchOne(
                SQLRow.self, sql: "SELECT id, kind, type, parent_id FROM collection WHERE uuid = ?",
                arguments: [uuid]),
            let kind = try CollectionKind(rawValue: row[1])
        else {
            throw StoreError.notFound(entity: .assetCollection, identifier: uuid)
        }
        return try StoredCollection(
            rowID: row[0], type: CollectionType(kind: kind, storedType: row[2]), parentID: row[3],
            identifier: LocalIdentifier(uuid: uuid, entity: kind.entity))
    }

    func editableCollection(_ uuid: String) throws -> StoredCollection {
        let collection = try collection(uuid)
        guard collection.type.isUserCollection else {
            throw StoreError.editNotAllowed("\(collection.identifier) is a smart album, which cannot be edited")
        }
        return collection
    }

    mutating func insert(_ collection: NewCollection) throws {
        let type: CollectionType = collection.kind == .assetCollection ? .album : .folder
        let subtype = collection.kind == .assetCollection ? CollectionSubtype.albumRegular : CollectionSubtype.regularFolder
        let rowID = try db.fetchOne(
            Int64.self,
            sql: """
                INSERT INTO collection (uuid, kind, type, subtype, title, parent_id, position, creation_date, modification_date)
                VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?) RETURNING id
                """,
            arguments: [
                collection.uuid, type.kind.rawValue, type.storedType, subtype, collection.title,
                try nextPosition(parent: nil), now.timeIntervalSince1970, now.timeIntervalSince1970,
            ])
        guard let rowID else { throw StoreError.database("inserting collection \(collection.uuid) returned no row id") }
        record(
            .init(
                identifier: LocalIdentifier(uuid: collection.uuid, entity: collection.kind.entity),
                rowID: rowID, kind: .inserted, changedAttributes: []))
    }

    func nextPosition(parent: Int64?) throws -> Int {
        let condition = parent == nil ? "parent_id IS NULL AND \(FetchSQL.userCollection(.bare))" : "parent_id = ?"
        return try db.fetchOne(
            Int.self, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM collection WHERE \(condition)",
            arguments: parent.map { [$0] } ?? []) ?? 0
    }

    mutating func apply(_ edit: CollectionEdit) throws {
        switch edit.target {
        case .collection(let uuid):
            let target = try editableCollection(uuid)
            try requireModifiable(target, edit.title != nil ? "rename" : "change")
            if let title = edit.title {
                try db.execute(
                    sql: "UPDATE collection SET title = ?, modification_date = ? WHERE id = ?",
                    arguments: [title, now.timeIntervalSince1970, target.rowID])
                record(.init(identifier: target.identifier, rowID: target.rowID, kind: .updated, changedAttributes: [.title]))
            }
            guard !edit.operations.isEmpty else { return }
            if target.kind == .assetCollection {
                try editAlbumMembers(target, edit)
            } else {
                try editChildren(of: target, edit)
            }
        case .topLevel:
            guard !edit.operations.isEmpty else { return }
            try editChildren(of: nil, edit)
        }
    }

    mutating func editAlbumMembers(_ album: StoredCollection, _ edit: CollectionEdit) throws {
        // The members a default fetch shows this writer, which indexes refer to.
        let shown: SQLFragment = "\(sql: ShownAssets.inDefaultFetch(.asset))\(scope.assetCondition(.asset).andClause)"
        let rows = try db.fetchAll(
            SQLRow.self,
            """
            SELECT a.uuid, m.position, (\(shown))
            FROM collection_asset m JOIN asset a ON a.id = m.asset_id
            WHERE m.collection_id = \(album.rowID) ORDER BY m.position
            """)
        let stored: [String] = try rows.map { try $0[0] }
        let view = try edit.snapshot ?? rows.filter { try $0[2] as Bool }.map { try $0[0] }
        let referenced = MembershipOperation.members(named: edit.operations)
        let assetIDs = try rowIDs(table: "asset", uuids: referenced.union(stored))
        if let missing = referenced.first(where: { assetIDs[$0] == nil }) {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: missing, entity: .asset).description)
        }
        let final = try OrderedMembership.apply(edit.operations, stored: stored, view: view)
        let storedPositions = Dictionary(uniqueKeysWithValues: try rows.map { try ($0[0] as String, $0[1] as Int) })
        let finalSet = Set(final)
        for uuid in stored where !finalSet.contains(uuid) {
            try db.execute(
                sql: "DELETE FROM collection_asset WHERE collection_id = ? AND asset_id = ?",
                arguments: [album.rowID, assetIDs[uuid]])
        }
        let insert = try db.prepare(sql: "INSERT INTO collection_asset (collection_id, asset_id, position) VALUES (?, ?, ?)")
        let move = try db.prepare(sql: "UPDATE collection_asset SET position = ? WHERE collection_id = ? AND asset_id = ?")
        for (position, uuid) in final.enumerated() {
            switch storedPositions[uuid] {
            case nil: try insert.execute(arguments: [album.rowID, assetIDs[uuid], position])
            case position: continue
            default: try move.execute(arguments: [position, album.rowID, assetIDs[uuid]])
            }
        }
        if final != stored {
            try touch(album, attribute: .members)
        }
    }

    /// Edits the children of a folder, or the top-level user collections when `folder` is nil.
    mutating func editChildren(of folder: StoredCollection?, _ edit: CollectionEdit) throws {
        let parentCondition = folder == nil ? "parent_id IS NULL AND \(FetchSQL.userCollection(.bare))" : "parent_id = ?"
        let parentArguments: SQLArguments = folder.map { [$0.rowID] } ?? []
        let stored = try db.fetchAll(
            String.self, sql: "SELECT uuid FROM collection WHERE \(parentCondition) ORDER BY position, id",
            arguments: parentArguments)
        let referenced = MembershipOperation.members(named: edit.operations)
        var children: [String: StoredCollection] = [:]
        for uuid in referenced.union(stored) {
            let child = try collection(uuid)
            guard child.type.isUserCollection else {
                throw StoreError.editNotAllowed("\(child.identifier) cannot be placed in a folder: only albums and folders can")
            }
            children[uuid] = child
        }
        if let folder {
            let lineage = try Set(
                db.fetchAll(
                    Int64.self,
                    sql: """
                        WITH RECURSIVE lineage(id) AS (
                            SELECT ? UNION SELECT c.parent_id FROM collection c JOIN lineage l ON c.id = l.id WHERE c.parent_id IS NOT NULL)
                        SELECT id FROM lineage
                        """, arguments: [folder.rowID]))
            if let cycle = referenced.first(where: { lineage.contains(children[$0]!.rowID) }) {
                throw StoreError.editNotAllowed("\(children[cycle]!.identifier) cannot go inside itself or one of its own folders")
            }
        }
        let view = try edit.snapshot ?? visibleChildren(stored)
        let final = try OrderedMembership.apply(edit.operations, stored: stored, view: view)
        let finalSet = Set(final)
        let removed = stored.filter { !finalSet.contains($0) }
        if folder == nil, let first = removed.first {
            throw StoreError.editNotAllowed("\(children[first]!.identifier) can leave the top level only by being added to a folder")
        }
        var formerParents = Set<Int64>()
        let storedPositions = Dictionary(uniqueKeysWithValues: stored.enumerated().map { ($1, $0) })
        for (position, uuid) in final.enumerated() {
            let child = children[uuid]!
            // What the edit moves must be the client's to move; collections that only shift
            // along the top level as others move are not changed themselves.
            if child.parentID != folder?.rowID || (folder == nil && referenced.contains(uuid) && storedPositions[uuid] != position) {
                try requireModifiable(child, "move")
            }
            if child.parentID != folder?.rowID, let formerParent = child.parentID {
                formerParents.insert(formerParent)
            }
            try db.execute(
                sql: "UPDATE collection SET parent_id = ?, position = ? WHERE id = ?",
                arguments: [folder?.rowID, position, child.rowID])
            if child.parentID != folder?.rowID {
                record(.init(identifier: child.identifier, rowID: child.rowID, kind: .updated, changedAttributes: [.parent]))
            } else if folder == nil, storedPositions[uuid] != position {
                // The top level has no folder object to mark as rearranged, so its members carry the change.
                record(.init(identifier: child.identifier, rowID: child.rowID, kind: .updated, changedAttributes: [.position]))
            }
        }
        // Collections taken out of a folder go back to the top level, at its end.
        for uuid in removed {
            let child = children[uuid]!
            try requireModifiable(child, "move")
            try db.execute(
                sql: "UPDATE collection SET parent_id = NULL, position = ? WHERE id = ?",
                arguments: [try nextPosition(parent: nil), child.rowID])
            record(.init(identifier: child.identifier, rowID: child.rowID, kind: .updated, changedAttributes: [.parent]))
        }
        for formerParent in formerParents {
            if let uuid = try db.fetchOne(String.self, sql: "SELECT uuid FROM collection WHERE id = ?", arguments: [formerParent]) {
                let parent = try collection(uuid)
                // A folder a collection leaves changes too.
                try requireModifiable(parent, "take a collection out of")
                try touch(parent, attribute: .members)
            }
        }
        if let folder, final != stored {
            try touch(folder, attribute: .members)
        }
    }

    /// The children this writer can see, in order.
    func visibleChildren(_ stored: [String]) throws -> [String] {
        guard scope.collectionCondition(.collection) != nil else { return stored }
        let visible = try policy.visible(Set(stored), table: TableAlias.collection.source, condition: scope.collectionCondition(.collection))
        return stored.filter(visible.contains)
    }

    mutating func deleteCollection(_ uuid: String) throws {
        let target = try collection(uuid)
        guard target.type.isUserCollection else {
            throw StoreError.editNotAllowed("\(target.identifier) is a smart album, which cannot be deleted")
        }
        let doomed = try db.fetchAll(
            SQLRow.self,
            sql: """
                WITH RECURSIVE doomed(id) AS (
                    SELECT ? UNION SELECT c.id FROM collection c JOIN doomed d ON c.parent_id = d.id)
                SELECT c.id, c.uuid, c.kind FROM collection c JOIN doomed d ON c.id = d.id
                """, arguments: [target.rowID])
        // The whole subtree goes: each collection in it must be the client's to delete. The
        // refusal names the collection asked for, never one inside it the client may not see.
        for row in doomed {
            try policy.requireModifiable(rowID: row[0], identifier: target.identifier, "delete")
        }
        try db.execute(sql: "DELETE FROM collection WHERE id = ?", arguments: [target.rowID])
        for row in doomed {
            let kind = try CollectionKind(rawValue: row[2]) ?? .assetCollection
            // Both kinds of collection share one table, so one key space; the entity says which kind it was.
            try Self.recordDeletion(db, entity: kind.entity, rowID: row[0], uuid: row[1], at: now)
            try record(
                .init(
                    identifier: LocalIdentifier(uuid: row[1], entity: kind.entity),
                    rowID: row[0], kind: .deleted, changedAttributes: []))
        }
        if let parentID = target.parentID,
            let parentUUID = try db.fetchOne(String.self, sql: "SELECT uuid FROM collection WHERE id = ?", arguments: [parentID])
        {
            try touch(try collection(parentUUID), attribute: .members)
        }
    }

    mutating func touch(_ collection: StoredCollection, attribute: ChangedAttribute) throws {
        try db.execute(
            sql: "UPDATE collection SET modification_date = ? WHERE id = ?",
            arguments: [now.timeIntervalSince1970, collection.rowID])
        record(
            .init(
                identifier: collection.identifier, rowID: collection.rowID, kind: .updated,
                changedAttributes: [attribute]))
    }
}
