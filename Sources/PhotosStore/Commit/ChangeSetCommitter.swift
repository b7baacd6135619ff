import Foundation
import GRDB

/// Where a change block is committed: applies a `ChangeSet` inside the
/// caller's write transaction, records it in the history log, and reports
/// what changed, object by object. Every write that readers can see goes
/// through here: PhotoKit's change blocks, purges of Recently Deleted and
/// the owner's changes of clients' access.
///
/// Order: creations, then property edits, trash and restore, membership
/// edits, deletions, the purge and access changes last, so that a block may
/// create an album, fill it with assets it creates, and reorder it.
///
/// What the writer may change is decided by its ``WritePolicy``
/// (`Access/WritePolicy.swift`, beside the read side of the grant), before
/// anything is applied and for each collection it would change. What each
/// kind of change does is in the extensions beside this file: `+Assets`,
/// `+Collections`, `+RecentlyDeleted` and `+Access`; this file orders
/// them and records what changed.
struct ChangeSetCommitter {
    let db: any SQLConnection
    let now: Date
    let scope: AccessScope
    /// What this writer may change, checked before anything is applied.
    let policy: WritePolicy
    var changes: [LocalIdentifier: ObjectChange] = [:]
    var order: [LocalIdentifier] = []
    /// Changes of access, each recorded for its client only.
    var accessEntries: [HistoryLog.AccessEntry] = []
    /// New assets left out as duplicates, and the assets holding their content.
    var duplicates: [String: String] = [:]
    /// The content hashes of the new assets inserted so far.
    var insertedHashes: [String: String] = [:]
    /// The asset insert, prepared once per commit: a block may insert thousands.
    var assetInsert: (any SQLStatement)?
    /// The files of purged assets, to journal before the transaction commits
    /// and to delete after it.
    var removedFiles: [JournalEntry] = []

    init(db: any SQLConnection, now: Date, scope: AccessScope) {
        self.db = db
        self.now = now
        self.scope = scope
        policy = WritePolicy(db: db, scope: scope)
    }

    /// Refuses a change to `collection` the writer's policy does not allow (see ``WritePolicy``).
    func requireModifiable(_ collection: StoredCollection, _ change: String) throws {
        try policy.requireModifiable(rowID: collection.rowID, identifier: collection.identifier, change)
    }

    /// Refuses values the library does not take (titles, captions and
    /// keywords too long, or with control characters; a raw original chosen
    /// for an asset without one), before anything is applied.
    func checkValues(_ set: ChangeSet) throws {
        for asset in set.newAssets where asset.record.originalResourceChoice == .raw {
            guard asset.resources.contains(where: { $0.type == .alternatePhoto }) else {
                throw StoreError.editNotAllowed("a new asset's original can be its raw file only when it has one, as its alternate photo")
            }
        }
        for collection in set.newCollections {
            try CollectionTitle.check(collection.title, as: collection.kind == .collectionList ? "a folder's title" : "an album's title")
        }
        for edit in set.collectionEdits {
            if let title = edit.title { try CollectionTitle.check(title, as: "a collection's title") }
        }
        for asset in set.newAssets {
            guard let metadata = asset.record.extendedMetadata else { continue }
            if let caption = metadata.caption { try DescriptiveText.check(caption: caption) }
            for keyword in metadata.keywords { try DescriptiveText.check(keyword: keyword) }
            guard metadata.keywords.count <= DescriptiveText.maximumKeywordCount else {
                throw StoreError.editNotAllowed("an asset may have at most \(DescriptiveText.maximumKeywordCount) keywords")
            }
        }
        for edit in set.assetEdits {
            if case .some(.some(let caption)) = edit.caption { try DescriptiveText.check(caption: caption) }
            for case .add(let keyword) in edit.keywordChanges { try DescriptiveText.check(keyword: keyword) }
        }
    }

    /// Applies the change set for `client` (nil: the owner). `placement`
    /// says where the files of new assets and content edits now lie.
    /// Returns nil, recording nothing, when a set that names no objects
    /// (a purge, an access change) found nothing to do.
    mutating func apply(
        _ set: ChangeSet, placement: FilePlacement, client: String?,
        writesHistoryEntries: Bool
    ) throws -> CommitResult? {
        try checkValues(set)
        try policy.check(set, client: client)
        for (asset, paths) in zip(set.newAssets, placement.newAssets) {
            if set.skipsDuplicates, let hash = asset.record.contentHash, let holder = try storedAsset(holding: hash) {
                duplicates[asset.record.uuid] = holder
                continue
            }
            try insert(asset, paths: paths)
        }
        for collection in set.newCollections {
            try insert(collection)
        }
        if case .limited(let client) = scope {
            try policy.recordCreated(
                set.newAssets.filter { duplicates[$0.record.uuid] == nil }.map { LocalIdentifier(uuid: $0.record.uuid, entity: .asset) }
                    + set.newCollections.map { LocalIdentifier(uuid: $0.uuid, entity: $0.kind.entity) }, for: client)
        }
        for edit in set.assetEdits {
            try apply(edit, contentPaths: placement.contentEdits[edit.uuid] ?? [])
        }
        for stack in set.stacks {
            try apply(stack)
        }
        try setTrashed(set.trashedAssets, trashed: true)
        try setTrashed(set.restoredAssets, trashed: false)
        for edit in set.collectionEdits {
            try apply(edit)
        }
        for uuid in set.deletedCollections {
            try deleteCollection(uuid)
        }
        if let purge = set.purge {
            try self.purge(purge)
        }
        for change in set.accessChanges {
            try apply(change)
        }
        for change in set.uploadJobChanges {
            try apply(change, client: client)
        }
        try touchAlbumsOfChangedAssets()
        let changed = order.compactMap { changes[$0] }
        guard set.changesObjects || !changed.isEmpty || !accessEntries.isEmpty else { return nil }
        let changeBlock = try HistoryLog.begin(db, at: now, author: client, objectCount: changed.count)
        let result = CommitResult(changeBlock: changeBlock, changes: changed, duplicates: duplicates)
        try HistoryLog.record(result, accessEntries: accessEntries, db, writesEntries: writesHistoryEntries)
        return result
    }

    /// Albums show the count and date range of their visible assets: when a
    /// member is hidden, trashed or re-dated, the album changed too.
    mutating func touchAlbumsOfChangedAssets() throws {
        let summaryAttributes: Set<ChangedAttribute> = [.hidden, .trashed, .restored, .creationDate]
        let assetIDs = changes.values
            .filter { $0.identifier.entity == .asset && $0.kind == .updated && !$0.changedAttributes.isDisjoint(with: summaryAttributes) }
            .map(\.rowID)
        guard !assetIDs.isEmpty else { return }
        for album in try albums(holding: db.dialect.elements(of: assetIDs)) {
            try record(
                .init(
                    identifier: LocalIdentifier(uuid: album[1], entity: .assetCollection), rowID: album[0],
                    kind: .updated, changedAttributes: [.summary]))
        }
    }

    /// The id and UUID of each album holding any of the assets the subquery
    /// `assetIDs` selects. The memberships are looked up from the assets:
    /// joined from the albums, SQLite probed every album for every asset,
    /// which made trashing thousands of assets in a library of many albums
    /// cost their product.
    func albums(holding assetIDs: SQLFragment) throws -> [SQLRow] {
        try db.fetchAll(
            SQLRow.self,
            """
            SELECT c.id, c.uuid FROM collection c
            WHERE c.id IN (SELECT m.collection_id FROM collection_asset m WHERE m.asset_id IN (\(assetIDs)))
            """)
    }

    // MARK: - Helpers

    /// Remembers a deleted object's identifier for fetch results made before.
    static func recordDeletion(_ db: any SQLConnection, entity: StoreEntity, rowID: Int64, uuid: String, at date: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO deleted_object (entity, row_id, uuid, deleted_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (entity, row_id) DO UPDATE SET uuid = excluded.uuid, deleted_at = excluded.deleted_at
                """,
            arguments: [entity.rawValue, rowID, uuid, date.timeIntervalSince1970])
    }

    func rowIDs(table: String, uuids: Set<String>) throws -> [String: Int64] {
        guard !uuids.isEmpty else { return [:] }
        let rows = try db.fetchAll(SQLRow.self, "SELECT uuid, id FROM \(sql: table) WHERE uuid IN (\(db.dialect.elements(of: Array(uuids))))")
        return Dictionary(uniqueKeysWithValues: try rows.map { try ($0[0] as String, $0[1] as Int64) })
    }

    /// Keeps one record per object: an insert absorbs later updates, a delete
    /// absorbs earlier updates, and an object inserted then deleted leaves none.
    mutating func record(_ change: ObjectChange) {
        guard let existing = changes[change.identifier] else {
            changes[change.identifier] = change
            order.append(change.identifier)
            return
        }
        switch (existing.kind, change.kind) {
        case (.inserted, .deleted):
            changes[change.identifier] = nil
        case (.inserted, _):
            break
        case (_, .deleted):
            changes[change.identifier] = change
        default:
            changes[change.identifier]?.changedAttributes.formUnion(change.changedAttributes)
        }
    }
}
