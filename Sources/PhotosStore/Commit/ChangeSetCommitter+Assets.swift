import Foundation
import GRDB

/// Assets: inserted with their resources (new content found a duplicate
/// of what the writer sees is left out), edited, trashed and restored.
extension ChangeSetCommitter {
    /// The asset that already holds content with this hash, outside Recently
    /// Deleted: one inserted earlier in this change set, or the oldest in
    /// the library that this writer may see; a client that may read nothing
    /// (add-only) is matched against the whole library, since it learns
    /// nothing from an identifier it cannot read.
    func storedAsset(holding hash: String) throws -> String? {
        if let inserted = insertedHashes[hash] { return inserted }
        let visible: SQLFragment? = if case .limited = scope { scope.assetCondition(.asset) } else { nil }
        return try db.fetchOne(
            String.self,
            """
            SELECT a.uuid FROM asset a WHERE a.content_hash = \(hash) AND \(sql: ShownAssets.notDeleted(.asset))\(visible.andClause)
            ORDER BY a.id LIMIT 1
            """)
    }

    mutating func insert(_ asset: NewAsset, paths: [String]) throws {
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

    func insertResources(_ resources: [NewResource], paths: [String], assetID: Int64) throws {
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
    mutating func apply(_ content: ContentEdit, to rowID: Int64, uuid: String, paths: [String]) throws {
        let originals = ResourceType.sqlList(ResourceType.originals)
        let types = ResourceType.sqlList(ResourceType.edits)
        let hadEdits =
            try db.fetchOne(
                Bool.self,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM resource WHERE asset_id = ? AND type IN (\(types)))
                    """, arguments: [rowID]) ?? false
        if case .revert(let choice) = content {
            if choice != nil { try requireRawAlternate(rowID, uuid: uuid) }
            let changesChoice = try choice.map { try originalResourceChoice(rowID) != $0 } ?? false
            if !hadEdits && !changesChoice { return }
        }
        try db.execute(sql: "DELETE FROM resource WHERE asset_id = ? AND type IN (\(types))", arguments: [rowID])
        switch content {
        case .adjust(let adjusted):
            try insertResources(adjusted.resources, paths: paths, assetID: rowID)
            try db.execute(
                sql: """
                    UPDATE asset SET adjustment_format_identifier = ?, adjustment_format_version = ?,
                        pixel_width = ?, pixel_height = ?, content_version = content_version + 1, modification_date = ?,
                        thumb_hash = ?, adjustment_timestamp = ?
                    WHERE id = ?
                    """,
                arguments: [
                    adjusted.formatIdentifier, adjusted.formatVersion, adjusted.rendered.pixelWidth,
                    adjusted.rendered.pixelHeight, now.timeIntervalSince1970, adjusted.thumbHash, now.timeIntervalSince1970, rowID,
                ])
        case .revert(let choice):
            // The original's size is the chosen original's: the raw alternate, or the primary photo or video.
            let chosen = try choice ?? originalResourceChoice(rowID)
            let source =
                chosen == .raw
                ? "type = \(ResourceType.alternatePhoto.rawValue)" : "type IN (\(originals))"
            try db.execute(
                sql: """
                    UPDATE asset SET adjustment_format_identifier = NULL, adjustment_format_version = NULL,
                        pixel_width = COALESCE((SELECT pixel_width FROM resource WHERE asset_id = ?1 AND \(source) ORDER BY id LIMIT 1), pixel_width),
                        pixel_height = COALESCE((SELECT pixel_height FROM resource WHERE asset_id = ?1 AND \(source) ORDER BY id LIMIT 1), pixel_height),
                        content_version = content_version + 1, modification_date = ?2, thumb_hash = original_thumb_hash,
                        adjustment_timestamp = ?2, original_resource_choice = ?3
                    WHERE id = ?1
                    """, arguments: [rowID, now.timeIntervalSince1970, chosen.rawValue])
        }
        record(
            .init(
                identifier: LocalIdentifier(uuid: uuid, entity: .asset), rowID: rowID, kind: .updated,
                changedAttributes: [.content]))
    }

    /// The asset's stored choice of original.
    private func originalResourceChoice(_ rowID: Int64) throws -> AssetOriginalResourceChoice {
        let stored = try db.fetchOne(Int.self, sql: "SELECT original_resource_choice FROM asset WHERE id = ?", arguments: [rowID])
        return stored.flatMap(AssetOriginalResourceChoice.init(rawValue:)) ?? .compressed
    }

    /// Refuses a choice of original for an asset that has no camera raw
    /// alternate: only a RAW+JPEG asset has two originals to choose from.
    private func requireRawAlternate(_ rowID: Int64, uuid: String) throws {
        let hasAlternate =
            try db.fetchOne(
                Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM resource WHERE asset_id = ? AND type = ?)",
                arguments: [rowID, ResourceType.alternatePhoto.rawValue]) ?? false
        guard hasAlternate else {
            throw StoreError.editNotAllowed(
                "\(LocalIdentifier(uuid: uuid, entity: .asset)) has one original: choosing between RAW and compressed originals applies to RAW+JPEG assets")
        }
    }

    mutating func apply(_ edit: AssetEdit, contentPaths: [String]) throws {
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
        if let rating = edit.rating {
            assignments.append("rating = ?")
            arguments += [rating.rawValue]
            attributes.insert(.rating)
        }
        if let caption = edit.caption {
            assignments.append("caption = ?")
            arguments += [caption.flatMap { $0.isEmpty ? nil : $0 }]
            attributes.insert(.caption)
        }
        if let enabled = edit.livePhotoPlaybackEnabled,
            let row = try db.fetchOne(
                SQLRow.self, sql: "SELECT media_subtypes & ? <> 0, playback_variation, playback_style FROM asset WHERE id = ?",
                arguments: [AssetMediaSubtypes.photoLive.rawValue, rowID])
        {
            // Only a Live Photo (its subtype stays) switches between still and motion, played with its effect.
            let (isLivePhoto, variation, current): (Bool, Int, Int) = (try row[0], try row[1], try row[2])
            let style = enabled ? AssetPlaybackStyle(livePhotoPlaying: AssetPlaybackVariation(rawValue: variation) ?? .none) : .image
            if isLivePhoto && current != style.rawValue {
                assignments.append("playback_style = ?")
                arguments += [style.rawValue]
                attributes.insert(.livePhotoPlayback)
            }
        }
        if !edit.keywordChanges.isEmpty {
            let stored = try db.fetchOne(String.self, sql: "SELECT keywords FROM asset WHERE id = ?", arguments: [rowID])
            let before = ExtendedMetadataRecord.keywords(stored: stored)
            let after = KeywordChange.apply(edit.keywordChanges, to: before)
            guard after.count <= DescriptiveText.maximumKeywordCount else {
                throw StoreError.editNotAllowed(
                    "an asset may have at most \(DescriptiveText.maximumKeywordCount) keywords; this change gives one \(after.count)")
            }
            if after != before {
                assignments.append("keywords = ?")
                arguments += [ExtendedMetadataRecord.stored(keywords: after)]
                attributes.insert(.keywords)
            }
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
    mutating func setTrashed(_ assets: [AssetReference], trashed: Bool) throws {
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
    func requireExisting(_ uuids: [String], _ rowIDs: [Int64]) throws {
        let existing = try self.rowIDs(table: "asset", uuids: Set(uuids))
        if let unknown = uuids.first(where: { existing[$0] == nil }) {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: unknown, entity: .asset).description)
        }
        let known = try db.assetUUIDs(rowIDs: rowIDs)
        if let unknown = rowIDs.first(where: { known[$0] == nil }) {
            throw try db.missingAsset(rowID: unknown)
        }
    }

    func assetRowID(_ uuid: String) throws -> Int64 {
        guard let rowID = try db.fetchOne(Int64.self, sql: "SELECT id FROM asset WHERE uuid = ?", arguments: [uuid]) else {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: uuid, entity: .asset).description)
        }
        return rowID
    }
}
