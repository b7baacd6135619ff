import Foundation
import GRDB

/// The search index and the indexers' positions: what indexers found,
/// written beside the catalogue. Not change blocks: nothing an indexer
/// writes is history, so indexing never wakes observers or itself.
/// Owner only: indexers are the library's own processes.
extension SQLPhotoStore {
    package func indexerState(_ name: String) throws(StoreError) -> IndexerStateRecord? {
        try read { db in
            try requireOwner("read the index")
            return try Self.indexerState(db, name)
        }
    }

    package func indexerStates() throws(StoreError) -> [IndexerStateRecord] {
        try read { db in
            try requireOwner("read the index")
            return try db.fetchAll(SQLRow.self, sql: "SELECT * FROM indexer_state ORDER BY name").map(Self.indexerState)
        }
    }

    package func claimIndexer(
        _ name: String, holder: String, replacing: String?, now: Date, lease: TimeInterval
    ) throws(StoreError) -> IndexerStateRecord? {
        try write { db in
            try requireOwner("index the library")
            let until = now.addingTimeInterval(lease).timeIntervalSince1970
            try db.execute(
                sql: """
                    INSERT INTO indexer_state (name, holder, lease_until, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
                    WHERE indexer_state.holder IS NULL OR indexer_state.holder IN (excluded.holder, ?) OR indexer_state.lease_until < ?
                    """,
                arguments: [name, holder, until, now.timeIntervalSince1970, replacing ?? holder, now.timeIntervalSince1970])
            guard let state = try Self.indexerState(db, name), state.holder == holder else { return nil }
            return state
        }
    }

    package func passAssets(after: Int64?, limit: Int) throws(StoreError) -> [(rowID: Int64, uuid: String)] {
        try read { db in
            try requireOwner("index the library")
            return try db.fetchAll(SQLRow.self, sql: "SELECT id, uuid FROM asset WHERE id > ? ORDER BY id LIMIT ?", arguments: [after ?? 0, limit])
                .map { row in (try row[0], try row[1]) }
        }
    }

    package func releaseIndexer(_ name: String, holder: String) throws(StoreError) {
        try write { db in
            try requireOwner("index the library")
            try db.execute(sql: "UPDATE indexer_state SET holder = NULL, lease_until = NULL WHERE name = ? AND holder = ?", arguments: [name, holder])
        }
    }

    package func resetIndexer(_ name: String, now: Date) throws(StoreError) {
        try write { db in
            try requireOwner("index the library")
            try db.execute(
                sql: """
                    INSERT INTO indexer_state (name, updated_at) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET token = NULL, pass_after = NULL, change_after = NULL, updated_at = excluded.updated_at
                    """,
                arguments: [name, now.timeIntervalSince1970])
        }
    }

    package func writeIndex(_ batch: IndexBatch) throws(StoreError) {
        try write { db in
            try requireOwner("index the library")
            let (token, after, changeAfter) = Self.columns(batch.position)
            let written = try db.execute(
                sql: """
                    UPDATE indexer_state SET token = ?, pass_after = ?, change_after = ?, indexed = indexed + ?, lease_until = ?, updated_at = ?
                    WHERE name = ? AND holder = ?
                    """,
                arguments: [
                    token, after, changeAfter, batch.assets.count, batch.now.addingTimeInterval(batch.lease).timeIntervalSince1970,
                    batch.now.timeIntervalSince1970,
                    batch.indexer, batch.holder,
                ])
            guard written == 1 else {
                throw StoreError.stateChanged("the \(batch.indexer) indexer's lease passed to another process; its batch was not written")
            }
            try Self.write(batch.assets, db)
            try FaceRows.replace(batch.assets.filter(\.writesFaces).map { ($0.uuid, $0.faces) }, now: batch.now, db)
            try Self.remove(batch.removed, db)
            if batch.endsPass {
                try FaceRows.remove(ofAssets: "SELECT asset_id FROM face WHERE asset_id NOT IN (SELECT id FROM asset)", db)
                for table in Self.indexTables {
                    try db.execute(sql: "DELETE FROM \(table) WHERE asset_id NOT IN (SELECT id FROM asset)")
                }
            }
        }
    }

    package func searchCorrections(for words: [String]) throws(StoreError) -> [String: [String]] {
        guard !words.isEmpty else { return [:] }
        return try read { db in
            var corrections: [String: [String]] = [:]
            for word in Set(words) {
                let length = word.unicodeScalars.count
                let edits = SearchTerms.allowedEdits(length)
                guard edits > 0, let first = word.unicodeScalars.first else { continue }
                let candidates = try db.fetchAll(
                    String.self, SearchIndex.terms(beginningWith: first, lengths: max(1, length - edits)...(length + edits), dialect: db.dialect))
                let near = SearchTerms.nearest(to: word, among: candidates)
                if !near.isEmpty { corrections[word] = near }
            }
            return corrections
        }
    }

    package func perceptualHashes() throws(StoreError) -> [AssetHash] {
        try readObjects { db, scope in
            let shown = SQLFragment(sql: ShownAssets.inDefaultFetch(.asset)) + scope.assetCondition(.asset).andClause
            var dismissals: [String: [String]] = [:]
            try db.forEachRow("SELECT a.uuid, d.dismissal FROM look_alike_dismissal d JOIN asset a ON a.id = d.asset_id WHERE \(shown)") { row in
                dismissals[try row[0], default: []].append(try row[1])
            }
            return try db.fetchAll(SQLRow.self, "SELECT a.uuid, h.hash FROM asset_hash h JOIN asset a ON a.id = h.asset_id WHERE \(shown)")
                .map { row in
                    let uuid: String = try row["uuid"]
                    return AssetHash(uuid: uuid, hash: UInt64(bitPattern: try row["hash"] as Int64), dismissals: dismissals[uuid] ?? [])
                }
        }
    }

    package func dismissLookAlikes(_ uuids: [String]) throws(StoreError) {
        let uuids = Array(Set(uuids))
        guard (2...AssetStack.maximumMembers).contains(uuids.count) else {
            throw .limitExceeded("look-alikes are dismissed from 2 to \(AssetStack.maximumMembers) different assets at a time, not \(uuids.count)")
        }
        try write { db in
            guard case .full = try AccessScope.resolve(db, client: client) else {
                throw StoreError.accessDenied("only the owner or a client with access to the whole library can say which photos are not look-alikes")
            }
            let ids = try db.fetchAll(
                Int64.self, "SELECT id FROM asset WHERE uuid IN (\(db.dialect.elements(of: uuids))) AND \(sql: ShownAssets.notDeleted(.bare))")
            guard ids.count == uuids.count else {
                let found = Set(try db.fetchAll(String.self, "SELECT uuid FROM asset WHERE id IN (\(db.dialect.elements(of: ids)))"))
                let missing = uuids.first { !found.contains($0) } ?? uuids[0]
                throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: missing, entity: .asset).description)
            }
            let dismissal = UUID().uuidString
            let listed = TableAlias("i")
            try db.execute(
                "INSERT INTO look_alike_dismissal (dismissal, asset_id) SELECT \(dismissal), \(sql: listed["value"]) FROM \(db.dialect.table(of: ids, alias: listed))"
            )
        }
    }

    package func places() throws(StoreError) -> [PlaceSummary] {
        try readObjects { db, scope in
            let shown = SQLFragment(sql: ShownAssets.inDefaultFetch(.asset)) + scope.assetCondition(.asset).andClause
            return try db.fetchAll(
                SQLRow.self,
                """
                WITH g AS (
                    SELECT p.country_code, p.country, p.region, p.city, COUNT(*) AS asset_count, MAX(a.id) AS cover
                    FROM asset_place p JOIN asset a ON a.id = p.asset_id WHERE \(shown)
                    GROUP BY p.country_code, p.country, p.region, p.city)
                SELECT g.*, c.uuid FROM g JOIN asset c ON c.id = g.cover ORDER BY g.country, g.city, g.region
                """
            ).map { row in
                PlaceSummary(
                    place: IndexedPlace(city: try row["city"], region: try row["region"], country: try row["country"], countryCode: try row["country_code"]),
                    assetCount: try row["asset_count"], coverUUID: try row["uuid"])
            }
        }
    }

    package func indexCoverage() throws(StoreError) -> IndexCoverage {
        try read { db in
            try requireOwner("read the index")
            let row = try db.fetchOne(
                SQLRow.self,
                sql: """
                    SELECT (SELECT COUNT(*) FROM asset WHERE trashed_date IS NULL),
                           (SELECT COUNT(*) FROM asset_search x JOIN asset a ON a.id = x.asset_id WHERE a.trashed_date IS NULL),
                           (SELECT COUNT(*) FROM asset_place p JOIN asset a ON a.id = p.asset_id WHERE a.trashed_date IS NULL)
                    """)!
            return IndexCoverage(assets: try row[0] as Int64, searchable: try row[1] as Int64, located: try row[2] as Int64)
        }
    }

    // MARK: - Rows

    /// The tables holding what indexers found, one row per asset, and the
    /// look-alike dismissals, each cleared of an asset deleted for good.
    private static var indexTables: [String] { ["asset_search", "asset_place", "asset_hash", "look_alike_dismissal"] }

    /// Writes each asset's entries with statements prepared once per batch
    /// (one per set of columns written), the asset found by its UUID in the
    /// same statement: an asset deleted meanwhile gets none.
    private static func write(_ assets: [IndexedAsset], _ db: any SQLConnection) throws {
        var searchStatements: [[SearchIndex.Column]: any SQLStatement] = [:]
        var placeStatements: (upsert: (any SQLStatement)?, removal: (any SQLStatement)?) = (nil, nil)
        var hashStatements: (upsert: (any SQLStatement)?, removal: (any SQLStatement)?) = (nil, nil)
        for asset in assets {
            let columns = SearchIndex.Column.allCases.filter { asset.searchText[$0] != nil }
            if !columns.isEmpty {
                let statement = try searchStatements[columns] ?? db.prepare(sql: searchUpsert(columns.map(\.rawValue)))
                searchStatements[columns] = statement
                try statement.execute(values: columns.map { asset.searchText[$0]!.databaseValue } + [asset.uuid.databaseValue])
            }
            if asset.writesPerceptualHash {
                if let hash = asset.perceptualHash {
                    let statement = try hashStatements.upsert ?? db.prepare(sql: hashUpsert)
                    hashStatements.upsert = statement
                    try statement.execute(values: [hash.databaseValue, asset.uuid.databaseValue])
                } else {
                    let statement =
                        try hashStatements.removal ?? db.prepare(sql: "DELETE FROM asset_hash WHERE asset_id = (SELECT id FROM asset WHERE uuid = ?)")
                    hashStatements.removal = statement
                    try statement.execute(values: [asset.uuid.databaseValue])
                }
            }
            guard asset.writesPlace else { continue }
            if let place = asset.place {
                let statement = try placeStatements.upsert ?? db.prepare(sql: placeUpsert)
                placeStatements.upsert = statement
                try statement.execute(values: [place.city, place.region, place.country, place.countryCode, asset.uuid].map(\.databaseValue))
            } else {
                let statement = try placeStatements.removal ?? db.prepare(sql: "DELETE FROM asset_place WHERE asset_id = (SELECT id FROM asset WHERE uuid = ?)")
                placeStatements.removal = statement
                try statement.execute(values: [asset.uuid.databaseValue])
            }
        }
    }

    private static func searchUpsert(_ columns: [String]) -> String {
        """
        INSERT INTO asset_search (asset_id, \(columns.joined(separator: ", "))) SELECT id, \(columns.map { _ in "?" }.joined(separator: ", ")) \
        FROM asset WHERE uuid = ? ON CONFLICT (asset_id) DO UPDATE SET \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    }

    private static var hashUpsert: String {
        "INSERT INTO asset_hash (asset_id, hash) SELECT id, ? FROM asset WHERE uuid = ? ON CONFLICT (asset_id) DO UPDATE SET hash = excluded.hash"
    }

    private static var placeUpsert: String {
        """
        INSERT INTO asset_place (asset_id, city, region, country, country_code) SELECT id, ?, ?, ?, ? FROM asset WHERE uuid = ?
        ON CONFLICT (asset_id) DO UPDATE SET city = excluded.city, region = excluded.region, country = excluded.country,
            country_code = excluded.country_code
        """
    }

    /// Forgets the entries of deleted assets, found by the row ids their deletion recorded.
    private static func remove(_ uuids: [String], _ db: any SQLConnection) throws {
        guard !uuids.isEmpty else { return }
        let deleted: SQLFragment = """
            SELECT row_id FROM deleted_object WHERE entity = \(sql: String(StoreEntity.asset.rawValue)) AND uuid IN (\(db.dialect.elements(of: uuids)))
            """
        try FaceRows.remove(ofAssets: deleted, db)
        for table in Self.indexTables {
            try db.execute("DELETE FROM \(sql: table) WHERE asset_id IN (\(deleted))")
        }
    }

    private static func columns(_ position: IndexPosition) -> (token: Data?, passAfter: String?, changeAfter: String?) {
        switch position {
        case .unstarted: (nil, nil, nil)
        // An empty mark: a pass that has indexed nothing yet.
        case .pass(let token, let after): (token, after.map(String.init) ?? "", nil)
        case .following(let token, let after): (token, nil, after)
        }
    }

    private static func indexerState(_ db: any SQLConnection, _ name: String) throws -> IndexerStateRecord? {
        try db.fetchOne(SQLRow.self, sql: "SELECT * FROM indexer_state WHERE name = ?", arguments: [name]).map(indexerState)
    }

    private static func indexerState(_ row: SQLRow) throws -> IndexerStateRecord {
        let token: Data? = try row["token"]
        let after: String? = try row["pass_after"]
        let position: IndexPosition =
            switch (token, after) {
            case (nil, _): .unstarted
            case (let token?, nil): .following(token: token, after: try row["change_after"])
            // A mark that is no row id (a UUID, which passes followed before they went by row id) starts the pass over.
            case (let token?, let after?): .pass(token: token, after: Int64(after))
            }
        return IndexerStateRecord(
            name: try row["name"], position: position, holder: try row["holder"],
            leaseUntil: (try row["lease_until"] as Double?).map(Date.init(timeIntervalSince1970:)), indexed: try row["indexed"],
            updatedAt: Date(timeIntervalSince1970: try row["updated_at"]))
    }
}
