import Foundation
import GRDB

/// People: the faces the indexer found, grouped, and what people do with
/// them (name, hide, merge, move faces). Reads show only faces in assets
/// the reader sees; edits need the whole library (the owner, or a client
/// with full access), since a name reaches photos a limited client cannot
/// see. Not change blocks: like the rest of the index, people are not
/// history.
extension SQLPhotoStore {
    /// The people whose faces the reader sees in at least
    /// `minimumAssetCount` assets, or who have a name; hidden ones only
    /// when `includingHidden`. Named people first, then by how many assets.
    /// Cost: one query over the faces the reader sees.
    package func people(includingHidden: Bool, minimumAssetCount: Int) throws(StoreError) -> [PersonSummary] {
        try readObjects { db, scope in
            try Self.people(
                db, scope, condition: "(c.asset_count >= \(minimumAssetCount) OR p.name IS NOT NULL)\(sql: includingHidden ? "" : " AND p.is_hidden = 0")")
        }
    }

    /// The person with `uuid`, when the reader sees a face of theirs.
    package func person(_ uuid: String) throws(StoreError) -> PersonSummary {
        try readObjects { db, scope in
            guard let person = try Self.people(db, scope, condition: "p.uuid = \(uuid)").first else {
                throw StoreError.notIndexed(noun: "person", identifier: uuid)
            }
            return person
        }
    }

    /// The faces the reader sees: of the person with `personUUID` in the
    /// assets a default fetch shows (as People counts them), or in the
    /// asset with `assetUUID`, hidden or not; largest first.
    package func faces(ofPerson personUUID: String? = nil, inAsset assetUUID: String? = nil) throws(StoreError) -> [FaceSummary] {
        try readObjects { db, scope in
            let shown = assetUUID == nil ? ShownAssets.inDefaultFetch(.asset) : ShownAssets.notDeleted(.asset)
            var condition = SQLFragment(sql: shown) + scope.assetCondition(.asset).andClause
            if let personUUID { condition += " AND p.uuid = \(personUUID)" }
            if let assetUUID { condition += " AND a.uuid = \(assetUUID)" }
            return try db.fetchAll(
                SQLRow.self,
                """
                SELECT f.uuid, a.uuid AS asset_uuid, p.uuid AS person_uuid, f.x, f.y, f.width, f.height, f.confidence, f.is_placed_by_hand
                FROM face f JOIN asset a ON a.id = f.asset_id JOIN person p ON p.id = f.person_id
                WHERE \(condition) ORDER BY f.width * f.height DESC, f.id
                """
            ).map(Self.face)
        }
    }

    /// Names the person (nil or empty: no name). Throws `limitExceeded`
    /// for a name over ``PersonSummary/maximumNameLength`` characters or with
    /// control characters.
    package func setPersonName(_ name: String?, of uuid: String) throws(StoreError) {
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name {
            guard name.unicodeScalars.count <= PersonSummary.maximumNameLength,
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw .limitExceeded("a person's name is at most \(PersonSummary.maximumNameLength) characters, without control characters")
            }
        }
        try editPeople { db in
            let id = try Self.personID(uuid, db)
            _ = try db.execute(sql: "UPDATE person SET name = ? WHERE id = ?", arguments: [name?.isEmpty == false ? name : nil, id])
            try FaceRows.refreshPeopleWords(try Self.assetIDs(ofPerson: id, db), db)
        }
    }

    /// Hides the person from People and their name from search, or shows them again.
    package func setPersonHidden(_ hidden: Bool, of uuid: String) throws(StoreError) {
        try editPeople { db in
            let id = try Self.personID(uuid, db)
            _ = try db.execute(sql: "UPDATE person SET is_hidden = ? WHERE id = ?", arguments: [hidden, id])
            try FaceRows.refreshPeopleWords(try Self.assetIDs(ofPerson: id, db), db)
        }
    }

    /// Moves every face of the people `uuids` to the person `target`, who
    /// keeps their name (or takes the first of the others' when they have
    /// none), and forgets the others. Cost: one transaction reading the
    /// faces of all of them.
    package func mergePeople(_ uuids: [String], into target: String) throws(StoreError) {
        try editPeople { db in
            let targetID = try Self.personID(target, db)
            let others = try uuids.filter { $0 != target }.map { try Self.personID($0, db) }
            guard !others.isEmpty else { return }
            let list = db.dialect.elements(of: others)
            _ = try db.execute(
                """
                UPDATE person SET name = (SELECT name FROM person WHERE id IN (\(list)) AND name IS NOT NULL ORDER BY id LIMIT 1)
                WHERE id = \(targetID) AND name IS NULL
                """)
            _ = try db.execute("UPDATE face SET person_id = \(targetID) WHERE person_id IN (\(list))")
            _ = try db.execute("DELETE FROM person WHERE id IN (\(list))")
            try FaceRows.recount([targetID], db)
            try FaceRows.refreshPeopleWords(try Self.assetIDs(ofPerson: targetID, db), db)
        }
    }

    /// Moves the faces `faceUUIDs` to the person `target`, or to a new
    /// person when nil (a split), marking them placed by hand. Returns the
    /// UUID of the person they are with now.
    package func moveFaces(_ faceUUIDs: [String], toPerson target: String?, now: Date) throws(StoreError) -> String {
        try editPeople { db in
            guard !faceUUIDs.isEmpty else { throw StoreError.limitExceeded("no face to move") }
            var faces: [(id: Int64, person: Int64, asset: Int64, descriptor: Data)] = []
            for uuid in faceUUIDs {
                guard let row = try db.fetchOne(SQLRow.self, sql: "SELECT id, person_id, asset_id, descriptor FROM face WHERE uuid = ?", arguments: [uuid])
                else { throw StoreError.notIndexed(noun: "face", identifier: uuid) }
                faces.append((try row["id"], try row["person_id"], try row["asset_id"], try row["descriptor"]))
            }
            let (targetID, targetUUID): (Int64, String)
            if let target {
                (targetID, targetUUID) = (try Self.personID(target, db), target)
            } else {
                targetUUID = UUID().uuidString
                targetID = try db.fetchOne(
                    Int64.self, sql: "INSERT INTO person (uuid, centroid, face_count, created_at) VALUES (?, ?, 0, ?) RETURNING id",
                    arguments: [targetUUID, faces[0].descriptor, now.timeIntervalSince1970])!
            }
            _ = try db.execute(
                "UPDATE face SET person_id = \(targetID), is_placed_by_hand = 1 WHERE id IN (\(db.dialect.elements(of: faces.map(\.id))))")
            try FaceRows.recount(Set(faces.map(\.person)).union([targetID]), db)
            try FaceRows.refreshPeopleWords(Array(Set(faces.map(\.asset))), db)
            return targetUUID
        }
    }

    // MARK: - Rows

    /// Runs `body` in a write transaction when the reader may change the
    /// whole library's people.
    private func editPeople<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        try write { db in
            let scope = try AccessScope.resolve(db, client: client)
            guard case .full = scope else {
                throw StoreError.accessDenied("only the owner or a client with access to the whole library can change people")
            }
            try FaceRows.lockPeople(db)
            return try body(db)
        }
    }

    private static func personID(_ uuid: String, _ db: any SQLConnection) throws -> Int64 {
        guard let id = try db.fetchOne(Int64.self, sql: "SELECT id FROM person WHERE uuid = ?", arguments: [uuid]) else {
            throw StoreError.notIndexed(noun: "person", identifier: uuid)
        }
        return id
    }

    private static func assetIDs(ofPerson id: Int64, _ db: any SQLConnection) throws -> [Int64] {
        try db.fetchAll(Int64.self, sql: "SELECT DISTINCT asset_id FROM face WHERE person_id = ?", arguments: [id])
    }

    /// The people matching `condition` (over `p`, the person, and `c`, their
    /// counts), with their counts and key face among what the reader sees.
    private static func people(_ db: any SQLConnection, _ scope: AccessScope, condition: SQLFragment) throws -> [PersonSummary] {
        let shown = SQLFragment(sql: ShownAssets.inDefaultFetch(.asset)) + scope.assetCondition(.asset).andClause
        return try db.fetchAll(
            SQLRow.self,
            """
            WITH v AS (
                SELECT f.uuid, f.person_id, f.asset_id, f.x, f.y, f.width, f.height, f.confidence, f.is_placed_by_hand, a.uuid AS asset_uuid,
                    ROW_NUMBER() OVER (PARTITION BY f.person_id ORDER BY f.width * f.height * f.confidence DESC, f.id) AS place
                FROM face f JOIN asset a ON a.id = f.asset_id WHERE \(shown)),
            c AS (SELECT person_id, COUNT(*) AS face_count, COUNT(DISTINCT asset_id) AS asset_count FROM v GROUP BY person_id)
            SELECT p.uuid AS person_uuid, p.name, p.is_hidden, c.face_count, c.asset_count,
                v.uuid, v.asset_uuid, v.x, v.y, v.width, v.height, v.confidence, v.is_placed_by_hand
            FROM c JOIN person p ON p.id = c.person_id JOIN v ON v.person_id = c.person_id AND v.place = 1
            WHERE \(condition)
            ORDER BY CASE WHEN p.name IS NULL THEN 1 ELSE 0 END, c.asset_count DESC, p.name, p.uuid
            """
        ).map { row in
            PersonSummary(
                uuid: try row["person_uuid"], name: try row["name"], isHidden: try row["is_hidden"] as Int64 != 0,
                faceCount: Int(try row["face_count"] as Int64), assetCount: Int(try row["asset_count"] as Int64), keyFace: try face(row))
        }
    }

    private static func face(_ row: SQLRow) throws -> FaceSummary {
        FaceSummary(
            uuid: try row["uuid"], assetUUID: try row["asset_uuid"], personUUID: try row["person_uuid"], x: try row["x"], y: try row["y"],
            width: try row["width"], height: try row["height"], confidence: try row["confidence"],
            isPlacedByHand: try row["is_placed_by_hand"] as Int64 != 0)
    }
}
