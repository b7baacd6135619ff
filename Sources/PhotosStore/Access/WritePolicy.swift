import Foundation
import GRDB

/// The write side of a grant, beside ``AccessScope``'s read side: what a
/// writer may change, decided before the committer applies anything of a
/// change set and for each collection it would change.
///
/// A client without read-write access gets nothing applied, and a limited
/// client may touch only what it can see (anything else is reported as not
/// found, as it would be by a fetch). A limited client changes or deletes a
/// collection only when it created it, or when everything inside it is
/// within its grant (``requireModifiable(rowID:identifier:_:)``); what it creates joins its
/// selection (``recordCreated(_:for:)``). Retention (purging what was
/// deleted before a date) applies whoever writes; emptying Recently Deleted
/// needs full access, and access changes are the owner's. Cost: for a full
/// grant, nothing; for a limited one, a query per kind of object a set names.
struct WritePolicy {
    let db: any SQLConnection
    let scope: AccessScope

    /// Refuses a change set the writer may not apply, before anything of it
    /// is: access changes are the owner's, emptying Recently Deleted needs
    /// full access, the grant's own refusal (add-only, a share link, none),
    /// and for a limited client anything it cannot see. `client` is the
    /// writer (nil: the owner).
    func check(_ set: ChangeSet, client: String?) throws {
        if !set.accessChanges.isEmpty, let client {
            throw StoreError.ownerOnly("only the library's owner can change client access; this process is client \(client)")
        }
        let performs = set.uploadJobChanges.contains { change in
            switch change {
            case .start, .finish: true
            default: false
            }
        }
        if performs, let client {
            throw StoreError.ownerOnly("only the library's owner performs upload jobs; this process is client \(client)")
        }
        // A stack rewrites whole bursts, shots the writer may not see among them.
        if !set.stacks.isEmpty, scope != .full {
            throw StoreError.accessDenied("stacking look-alikes needs read-write access to the whole library")
        }
        if set.purge == .all, scope != .full {
            throw StoreError.accessDenied("emptying Recently Deleted needs read-write access to the whole library")
        }
        // Retention alone (purging what was deleted long ago) applies whoever opens the library.
        let isRetention = !set.changesObjects && set.accessChanges.isEmpty
        if !isRetention, let denial = scope.writeDenial(set) { throw denial }
        if case .limited(let client) = scope {
            try checkVisibility(of: set, client: client)
        }
    }

    // MARK: - Limited access

    /// Refuses a limited client's change set that names an asset outside its
    /// selection or a collection it cannot see, as if the object did not exist.
    private func checkVisibility(of set: ChangeSet, client: String) throws {
        let created = Set(set.newAssets.map(\.record.uuid))
        let (trashedUUIDs, trashedRowIDs) = AssetReference.split(set.trashedAssets + set.restoredAssets)
        let namedByRowID = try db.assetUUIDs(rowIDs: trashedRowIDs)
        if let unknown = trashedRowIDs.first(where: { namedByRowID[$0] == nil }) { throw try db.missingAsset(rowID: unknown) }
        var assets = Set(set.assetEdits.map(\.uuid)).union(trashedUUIDs).union(namedByRowID.values)
        var collections = Set(set.deletedCollections)
        for edit in set.collectionEdits {
            if case .collection(let uuid) = edit.target { collections.insert(uuid) }
        }
        let createdCollections = Set(set.newCollections.map(\.uuid))
        let createdFolders = Set(set.newCollections.filter { $0.kind == .collectionList }.map(\.uuid))
        for edit in set.collectionEdits {
            let named = MembershipOperation.members(named: edit.operations)
            if try isFolderEdit(edit, createdFolders: createdFolders) {
                collections.formUnion(named)
            } else {
                assets.formUnion(named)
            }
        }
        assets.subtract(created)
        collections.subtract(createdCollections)
        let visibleAssets = try visible(assets, table: TableAlias.asset.source, condition: scope.assetCondition(.asset))
        if let hidden = assets.subtracting(visibleAssets).first {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: hidden, entity: .asset).description)
        }
        let visibleCollections = try visible(collections, table: TableAlias.collection.source, condition: scope.collectionCondition(.collection))
        if let hidden = collections.subtracting(visibleCollections).first {
            throw StoreError.notFound(entity: .assetCollection, identifier: hidden)
        }
    }

    /// Whether an edit rearranges collections (a folder or the top level)
    /// rather than assets; `createdFolders`: the folders the same set
    /// creates, which have no row yet when this is asked.
    private func isFolderEdit(_ edit: CollectionEdit, createdFolders: Set<String>) throws -> Bool {
        switch edit.target {
        case .topLevel: return true
        case .collection(let uuid):
            if createdFolders.contains(uuid) { return true }
            return try db.fetchOne(Int.self, sql: "SELECT kind FROM collection WHERE uuid = ?", arguments: [uuid])
                == CollectionKind.collectionList.rawValue
        }
    }

    /// Those of `uuids` that `condition` lets the writer see in `table` (a
    /// table name and its alias, as `asset a`).
    func visible(_ uuids: Set<String>, table: String, condition: SQLFragment?) throws -> Set<String> {
        guard !uuids.isEmpty else { return [] }
        let alias = table.split(separator: " ").last!
        return try Set(
            db.fetchAll(
                String.self,
                """
                SELECT \(sql: String(alias)).uuid FROM \(sql: table)
                WHERE \(sql: String(alias)).uuid IN (\(db.dialect.elements(of: Array(uuids))))\(condition.andClause)
                """))
    }

    /// Refuses a limited client's change to a collection unless it created
    /// the collection or everything inside it, assets and collections all
    /// the way down, is within its grant: renaming, refilling, moving or
    /// deleting it would otherwise change what the owner keeps out of the
    /// client's view. Other scopes pass.
    func requireModifiable(rowID: Int64, identifier: LocalIdentifier, _ change: String) throws {
        guard case .limited(let client) = scope, try !isModifiable(rowID) else { return }
        throw StoreError.accessDenied(
            """
            client \(client) cannot \(change) \(identifier): it holds photos or collections outside the client's \
            limited selection, and the client did not create it
            """)
    }

    private func isModifiable(_ rowID: Int64) throws -> Bool {
        guard let created = scope.createdCollectionCondition(.collection), let granted = scope.assetCondition(.asset) else { return true }
        if try db.fetchOne(Bool.self, "SELECT EXISTS (SELECT 1 FROM collection c WHERE c.id = \(rowID) AND \(created))")
            ?? false
        {
            return true
        }
        let holdsOthers =
            try db.fetchOne(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE m.collection_id = \(rowID) AND NOT \(granted))
                """) ?? true
        guard !holdsOthers else { return false }
        let children = try db.fetchAll(Int64.self, sql: "SELECT id FROM collection WHERE parent_id = ?", arguments: [rowID])
        return try children.allSatisfy(isModifiable)
    }

    /// Adds what a limited client created to what it may see.
    func recordCreated(_ identifiers: [LocalIdentifier], for client: String) throws {
        let statement = try db.prepare(sql: "INSERT INTO client_selection (client, entity, uuid) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        for identifier in identifiers {
            try statement.execute(arguments: [client, identifier.entity.rawValue, identifier.uuid])
        }
    }
}
