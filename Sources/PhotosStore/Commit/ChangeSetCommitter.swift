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
/// anything is applied and for each collection it would change.
struct ChangeSetCommitter {
    private let db: any SQLConnection
    private let now: Date
    private let scope: AccessScope
    /// What this writer may change, checked before anything is applied.
    private let policy: WritePolicy
    private var changes: [LocalIdentifier: ObjectChange] = [:]
    private var order: [LocalIdentifier] = []
    /// Changes of access, each recorded for its client only.
    private var accessEntries: [HistoryLog.AccessEntry] = []
    /// New assets left out as duplicates, and the assets holding their content.
    private var duplicates: [String: String] = [:]
    /// The content hashes of the new assets inserted so far.
    private var insertedHashes: [String: String] = [:]
    /// The asset insert, prepared once per commit: a block may insert thousands.
    private var assetInsert: (any SQLStatement)?
    /// The files of purged assets, to journal before the transaction commits
    /// and to delete after it.
    private(set) var removedFiles: [JournalEntry] = []

    init(db: any SQLConnection, now: Date, scope: AccessScope) {
        self.db = db
        self.now = now
        self.scope = scope
        policy = WritePolicy(db: db, scope: scope)
    }

    /// Refuses a change to `collection` the writer's policy does not allow (see ``WritePolicy``).
    private func requireModifiable(_ collection: StoredCollection, _ change: String) throws {
        try policy.requireModifiable(rowID: collection.rowID, identifier: collection.identifier, change)
    }

    /// Refuses titles the library does not take (too long, or with control
    /// characters), before anything is applied.
    private func checkTitles(_ set: ChangeSet) throws {
        for collection in set.newCollections {
            try CollectionTitle.check(collection.title, as: collection.kind == .collectionList ? "a folder's title" : "an album's title")
        }
        for edit in set.collectionEdits {
            if let title = edit.title { try CollectionTitle.check(title, as: "a collection's title") }
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
        try checkTitles(set)
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
    private mutating func touchAlbumsOfChangedAssets() throws {
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
    private func albums(holding assetIDs: SQLFragment) throws -> [SQLRow] {
        try db.fetchAll(
            SQLRow.self,
            """
            SELECT c.id, c.uuid FROM collection c
            WHERE c.id IN (SELECT m.collection_id FROM collection_asset m WHERE m.asset_id IN (\(assetIDs)))
            """)
    }

    // MARK: - Assets

    /// The asset that already holds content with this hash, outside Recently
    /// Deleted: one inserted earlier in this change set, or the oldest in
    /// the library that this writer may see; a client that may read nothing
    /// (add-only) is matched against the whole library, since it learns
    /// nothing from an identifier it cannot read.
    private func storedAsset(holding hash: String) throws -> String? {
        if let inserted = insertedHashes[hash] { return inserted }
        let visible: SQLFragment? = if case .limited = scope { scope.assetCondition(.asset) } else { nil }
        return try db.fetchOne(
            String.self,
            """
            SELECT a.uuid FROM asset a WHERE a.content_hash = \(hash) AND \(sql: ShownAssets.notDeleted(.asset))\(visible.andClause)
            ORDER BY a.id LIMIT 1
            """)
    }

    private mutating func insert(_ asset: NewAsset, paths: [String]) throws {
        var row = asset.record
        if asset.representsNewBurst, let burst = row.burstIdentifier, !row.representsBurst,
            try !db.fetchOne(
                Bool.self,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM asset WHERE burst_identifier = ? AND represents_burst = 1)
                    """, arguments: [burst])!
        {
            // The first photo of a burst to arrive stands for it; the others stay behind it.
            row.representsBurst = true
        }
        if assetInsert == nil { assetInsert = try db.prepare(sql: AssetRecord.insertSQL + " RETURNING id") }
        guard let rowID = try assetInsert!.fetchOne(Int64.self, arguments: row.insertArguments) else {
            throw StoreError.database("inserting asset \(row.uuid) returned no row id")
        }
        if let hash = row.contentHash, insertedHashes[hash] == nil { insertedHashes[hash] = row.uuid }
        try insertResources(asset.resources, paths: paths, assetID: rowID)
        record(
            .init(
                identifier: LocalIdentifier(uuid: asset.record.uuid, entity: .asset),
                rowID: rowID, kind: .inserted, changedAttributes: []))
    }

    private func insertResources(_ resources: [NewResource], paths: [String], assetID: Int64) throws {
        guard !resources.isEmpty else { return }
        if let unsafe = resources.first(where: { FileName.safe($0.originalFilename) != $0.originalFilename }) {
            throw StoreError.invalidFile(path: unsafe.originalFilename, reason: "the file name is not a safe last path component")
        }
        let statement = try db.prepare(
            sql: """
                INSERT INTO resource (asset_id, type, relative_path, original_filename, uniform_type_identifier,
                                      pixel_width, pixel_height, file_size)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for (resource, path) in zip(resources, paths) {
            try statement.execute(arguments: [
                assetID, resource.type.rawValue, path, resource.originalFilename, resource.uniformTypeIdentifier,
                resource.pixelWidth, resource.pixelHeight, resource.file.size,
            ])
        }
    }

    /// Replaces the rendering of an asset's content, or reverts it to the
    /// original; the original's resources are never touched.
    private mutating func apply(_ content: ContentEdit, to rowID: Int64, uuid: String, paths: [String]) throws {
        let originals = ResourceType.sqlList(ResourceType.originals)
        let types = ResourceType.sqlList(ResourceType.edits)
        let hadEdits =
            try db.fetchOne(
                Bool.self,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM resource WHERE asset_id = ? AND type IN (\(types)))
                    """, arguments: [rowID]) ?? false
        if case .revert = content, !hadEdits { return }
        try db.execute(sql: "DELETE FROM resource WHERE asset_id = ? AND type IN (\(types))", arguments: [rowID])
        switch content {
        case .adjust(let adjusted):
            try insertResources(adjusted.resources, paths: paths, assetID: rowID)
            try db.execute(
                sql: """
                    UPDATE asset SET adjustment_format_identifier = ?, adjustment_format_version = ?,
                        pixel_width = ?, pixel_height = ?, content_version = content_version + 1, modification_date = ?,
                        thumb_hash = ?
                    WHERE id = ?
                    """,
                arguments: [
                    adjusted.formatIdentifier, adjusted.formatVersion, adjusted.rendered.pixelWidth,
                    adjusted.rendered.pixelHeight, now.timeIntervalSince1970, adjusted.thumbHash, rowID,
                ])
        case .revert:
            // The original's size is the primary photo's or video's.
            try db.execute(
                sql: """
                    UPDATE asset SET adjustment_format_identifier = NULL, adjustment_format_version = NULL,
                        pixel_width = COALESCE((SELECT pixel_width FROM resource WHERE asset_id = ?1 AND type IN (\(originals)) ORDER BY id LIMIT 1), pixel_width),
                        pixel_height = COALESCE((SELECT pixel_height FROM resource WHERE asset_id = ?1 AND type IN (\(originals)) ORDER BY id LIMIT 1), pixel_height),
                        content_version = content_version + 1, modification_date = ?2, thumb_hash = original_thumb_hash
                    WHERE id = ?1
                    """, arguments: [rowID, now.timeIntervalSince1970])
        }
        record(
            .init(
                identifier: LocalIdentifier(uuid: uuid, entity: .asset), rowID: rowID, kind: .updated,
                changedAttributes: [.content]))
    }

    private mutating func apply(_ edit: AssetEdit, contentPaths: [String]) throws {
        let rowID = try assetRowID(edit.uuid)
        if let content = edit.content {
            try apply(content, to: rowID, uuid: edit.uuid, paths: contentPaths)
        }
        var assignments: [String] = []
        var arguments = SQLArguments()
        var attributes = Set<ChangedAttribute>()
        if let creationDate = edit.creationDate {
            assignments.append("creation_date = ?")
            arguments += [creationDate?.timeIntervalSince1970]
            attributes.insert(.creationDate)
        }
        if let location = edit.location {
            assignments.append(
                """
                latitude = ?, longitude = ?, altitude = ?, location_date = ?, horizontal_accuracy = ?, course = ?, speed = ?
                """)
            arguments += [
                location?.latitude, location?.longitude, location?.altitude,
                location?.timestamp?.timeIntervalSince1970, location?.horizontalAccuracy,
                location?.course, location?.speed,
            ]
            attributes.insert(.location)
        }
        if let isFavorite = edit.isFavorite {
            assignments.append("is_favorite = ?")
            arguments += [isFavorite]
            attributes.insert(.favorite)
        }
        if let isHidden = edit.isHidden {
            assignments.append("is_hidden = ?")
            arguments += [isHidden]
            attributes.insert(.hidden)
        }
        guard !assignments.isEmpty else { return }
        assignments.append("modification_date = ?")
        arguments += [now.timeIntervalSince1970, rowID]
        try db.execute(sql: "UPDATE asset SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments: arguments)
        record(
            .init(
                identifier: LocalIdentifier(uuid: edit.uuid, entity: .asset),
                rowID: rowID, kind: .updated, changedAttributes: attributes))
    }

    /// Moves assets to Recently Deleted, or back out of it, in one
    /// statement for those named by UUID and one for those named by row id:
    /// a block deleting thousands of assets costs one pass over them, not a
    /// lookup and an update each. Those already where they are sent are left
    /// as they are and not recorded; an unknown one fails the block.
    private mutating func setTrashed(_ assets: [AssetReference], trashed: Bool) throws {
        guard !assets.isEmpty else { return }
        let (uuids, rowIDs) = AssetReference.split(assets)
        let trashedDate: Double? = trashed ? now.timeIntervalSince1970 : nil
        var movedByUUID: [String: Int64] = [:]
        var movedByRowID: [Int64: String] = [:]
        let named: [(key: SQLFragment, names: SQLFragment)] =
            (uuids.isEmpty ? [] : [(SQLFragment(sql: "uuid"), db.dialect.elements(of: uuids))])
            + (rowIDs.isEmpty ? [] : [(SQLFragment(sql: "id"), db.dialect.elements(of: rowIDs))])
        for (key, names) in named {
            try db.forEachRow(
                """
                UPDATE asset SET trashed_date = \(trashedDate), modification_date = \(now.timeIntervalSince1970)
                WHERE \(key) IN (\(names)) AND trashed_date IS \(sql: trashed ? "" : "NOT ")NULL
                RETURNING uuid, id
                """
            ) { row in
                let (uuid, rowID): (String, Int64) = try (row[0], row[1])
                movedByUUID[uuid] = rowID
                movedByRowID[rowID] = uuid
            }
        }
        try requireExisting(uuids.filter { movedByUUID[$0] == nil }, rowIDs.filter { movedByRowID[$0] == nil })
        var recorded = Set<Int64>()
        for asset in assets {
            let moved: (uuid: String, rowID: Int64)?
            switch asset {
            case .uuid(let uuid): moved = movedByUUID[uuid].map { (uuid, $0) }
            case .rowID(let rowID): moved = movedByRowID[rowID].map { ($0, rowID) }
            }
            guard let moved, recorded.insert(moved.rowID).inserted else { continue }
            record(
                .init(
                    identifier: LocalIdentifier(uuid: moved.uuid, entity: .asset),
                    rowID: moved.rowID, kind: .updated, changedAttributes: [trashed ? .trashed : .restored]))
        }
    }

    /// Fails with `notFound` for the first of the assets named that does
    /// not exist. Cost: a query for each kind of name given, none when both are empty.
    private func requireExisting(_ uuids: [String], _ rowIDs: [Int64]) throws {
        let existing = try self.rowIDs(table: "asset", uuids: Set(uuids))
        if let unknown = uuids.first(where: { existing[$0] == nil }) {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: unknown, entity: .asset).description)
        }
        let known = try db.assetUUIDs(rowIDs: rowIDs)
        if let unknown = rowIDs.first(where: { known[$0] == nil }) {
            throw try db.missingAsset(rowID: unknown)
        }
    }

    private func assetRowID(_ uuid: String) throws -> Int64 {
        guard let rowID = try db.fetchOne(Int64.self, sql: "SELECT id FROM asset WHERE uuid = ?", arguments: [uuid]) else {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: uuid, entity: .asset).description)
        }
        return rowID
    }

    // MARK: - Collections

    private struct StoredCollection {
        var rowID: Int64
        var type: CollectionType
        var parentID: Int64?
        var identifier: LocalIdentifier
        var kind: CollectionKind { type.kind }
    }

    private func collection(_ uuid: String) throws -> StoredCollection {
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

    private func editableCollection(_ uuid: String) throws -> StoredCollection {
        let collection = try collection(uuid)
        guard collection.type.isUserCollection else {
            throw StoreError.editNotAllowed("\(collection.identifier) is a smart album, which cannot be edited")
        }
        return collection
    }

    private mutating func insert(_ collection: NewCollection) throws {
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

    private func nextPosition(parent: Int64?) throws -> Int {
        let condition = parent == nil ? "parent_id IS NULL AND \(FetchSQL.userCollection(.bare))" : "parent_id = ?"
        return try db.fetchOne(
            Int.self, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM collection WHERE \(condition)",
            arguments: parent.map { [$0] } ?? []) ?? 0
    }

    private mutating func apply(_ edit: CollectionEdit) throws {
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

    private mutating func editAlbumMembers(_ album: StoredCollection, _ edit: CollectionEdit) throws {
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
    private mutating func editChildren(of folder: StoredCollection?, _ edit: CollectionEdit) throws {
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
    private func visibleChildren(_ stored: [String]) throws -> [String] {
        guard scope.collectionCondition(.collection) != nil else { return stored }
        let visible = try policy.visible(Set(stored), table: TableAlias.collection.source, condition: scope.collectionCondition(.collection))
        return stored.filter(visible.contains)
    }

    private mutating func deleteCollection(_ uuid: String) throws {
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

    private mutating func touch(_ collection: StoredCollection, attribute: ChangedAttribute) throws {
        try db.execute(
            sql: "UPDATE collection SET modification_date = ? WHERE id = ?",
            arguments: [now.timeIntervalSince1970, collection.rowID])
        record(
            .init(
                identifier: collection.identifier, rowID: collection.rowID, kind: .updated,
                changedAttributes: [attribute]))
    }

    // MARK: - Recently Deleted

    /// Deletes for good the assets of Recently Deleted the purge names, and
    /// notes every file of theirs for removal once the block commits.
    private mutating func purge(_ purge: RecentlyDeletedPurge) throws {
        let condition: String
        let arguments: SQLArguments
        switch purge {
        case .all:
            (condition, arguments) = ("trashed_date IS NOT NULL", [])
        case .deletedBefore(let cutoff):
            (condition, arguments) = ("trashed_date < ?", [cutoff.timeIntervalSince1970])
        }
        let doomed = try db.fetchAll(SQLRow.self, sql: "SELECT id, uuid FROM asset WHERE \(condition)", arguments: arguments)
        guard !doomed.isEmpty else { return }
        let ids = db.dialect.elements(of: try doomed.map { try $0[0] as Int64 })
        // Every file of the assets goes: their originals and edits, and their thumbnails and previews.
        removedFiles +=
            try db.fetchAll(String.self, "SELECT relative_path FROM resource WHERE asset_id IN (\(ids))").map(JournalEntry.file)
            + doomed.map { JournalEntry.renditions(assetUUID: try $0[1]) }
        let albums = try albums(holding: ids)
        try db.execute("DELETE FROM asset WHERE id IN (\(ids))")
        for row in doomed {
            try Self.recordDeletion(db, entity: .asset, rowID: row[0], uuid: row[1], at: now)
            try record(.init(identifier: LocalIdentifier(uuid: row[1], entity: .asset), rowID: row[0], kind: .deleted, changedAttributes: []))
        }
        for album in albums {
            try record(
                .init(
                    identifier: LocalIdentifier(uuid: album[1], entity: .assetCollection), rowID: album[0],
                    kind: .updated, changedAttributes: [.members]))
        }
    }

    // MARK: - Client access

    /// Applies one of the owner's changes of a client's access; each change
    /// that takes effect is recorded for the client alone.
    private mutating func apply(_ change: AccessChange) throws {
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

    private func rowIDs(table: String, uuids: Set<String>) throws -> [String: Int64] {
        guard !uuids.isEmpty else { return [:] }
        let rows = try db.fetchAll(SQLRow.self, "SELECT uuid, id FROM \(sql: table) WHERE uuid IN (\(db.dialect.elements(of: Array(uuids))))")
        return Dictionary(uniqueKeysWithValues: try rows.map { try ($0[0] as String, $0[1] as Int64) })
    }

    /// Keeps one record per object: an insert absorbs later updates, a delete
    /// absorbs earlier updates, and an object inserted then deleted leaves none.
    private mutating func record(_ change: ObjectChange) {
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
