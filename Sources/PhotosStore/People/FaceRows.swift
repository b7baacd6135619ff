import Foundation
import GRDB

/// The `face` and `person` rows, written inside the index's transactions:
/// faces an indexer found joined to people (``PersonCentroids``), faces of
/// deleted assets taken out, and each asset's `people` search words kept
/// equal to the names of the people in it.
enum FaceRows {
    /// Two descriptors of one face in one image differ by rounding alone:
    /// a face found again where it was keeps its row, its person and what
    /// someone did to it by hand.
    static let sameFaceDistance: Float = 0.01

    /// Replaces the faces of each asset (by UUID) with those found; an
    /// asset deleted meanwhile gets none. New faces join people; faces
    /// found again unchanged keep their row.
    static func replace(_ found: [(uuid: String, faces: [IndexedFace])], now: Date, _ db: any SQLConnection) throws {
        guard !found.isEmpty else { return }
        try lockPeople(db)
        var people = try centroids(db)
        var touched: [Int64] = []
        for (uuid, faces) in found {
            guard let assetID = try db.fetchOne(Int64.self, sql: "SELECT id FROM asset WHERE uuid = ?", arguments: [uuid]) else { continue }
            touched.append(assetID)
            var old = try db.fetchAll(SQLRow.self, sql: "SELECT id, person_id, descriptor FROM face WHERE asset_id = ?", arguments: [assetID]).map {
                row in (id: try row["id"] as Int64, person: try row["person_id"] as Int64, descriptor: try descriptor(row["descriptor"]))
            }
            var added: [IndexedFace] = []
            for face in faces {
                if let kept = old.firstIndex(where: { $0.descriptor.distance(to: face.descriptor) < sameFaceDistance }) {
                    old.remove(at: kept)
                } else {
                    added.append(face)
                }
            }
            for face in old {
                _ = try db.execute(sql: "DELETE FROM face WHERE id = ?", arguments: [face.id])
                people.remove(face.descriptor, fromPerson: face.person)
            }
            for face in added {
                let index = people.add(face.descriptor)
                if people.people[index].id == nil {
                    let id = try db.fetchOne(
                        Int64.self, sql: "INSERT INTO person (uuid, centroid, face_count, created_at) VALUES (?, ?, 0, ?) RETURNING id",
                        arguments: [UUID().uuidString, face.descriptor.bytes, now.timeIntervalSince1970])!
                    people.setID(id, at: index)
                }
                _ = try db.execute(
                    sql: """
                        INSERT INTO face (uuid, asset_id, person_id, x, y, width, height, confidence, descriptor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        UUID().uuidString, assetID, people.people[index].id!, face.x, face.y, face.width, face.height, face.confidence,
                        face.descriptor.bytes,
                    ])
            }
        }
        try save(people, db)
        try refreshPeopleWords(touched, db)
    }

    /// Takes out the faces of the assets `assets` selects (a subquery of
    /// asset row ids); their people's centroids move away from them, and
    /// an unnamed person left with no face is forgotten.
    static func remove(ofAssets assets: SQLFragment, _ db: any SQLConnection) throws {
        guard try db.fetchOne(Int64.self, "SELECT 1 FROM face WHERE asset_id IN (\(assets)) LIMIT 1") != nil else { return }
        try lockPeople(db)
        let gone = try db.fetchAll(SQLRow.self, "SELECT person_id, descriptor FROM face WHERE asset_id IN (\(assets))")
        var people = try centroids(db)
        for row in gone {
            people.remove(try descriptor(row["descriptor"]), fromPerson: try row["person_id"])
        }
        _ = try db.execute("DELETE FROM face WHERE asset_id IN (\(assets))")
        try save(people, db)
    }

    /// Sets each person's centroid and count from their faces: after faces
    /// moved between people by hand. Forgets unnamed people left with none.
    static func recount(_ personIDs: Set<Int64>, _ db: any SQLConnection) throws {
        try lockPeople(db)
        for id in personIDs {
            let faces = try db.fetchAll(SQLRow.self, sql: "SELECT descriptor FROM face WHERE person_id = ?", arguments: [id]).map {
                try descriptor($0["descriptor"])
            }
            if let centroid = FaceDescriptor.mean(faces, weights: faces.map { _ in 1 }) {
                _ = try db.execute(
                    sql: "UPDATE person SET centroid = ?, face_count = ? WHERE id = ?", arguments: [centroid.bytes, faces.count, id])
            } else {
                _ = try db.execute(sql: "UPDATE person SET face_count = 0 WHERE id = ?", arguments: [id])
            }
        }
        _ = try db.execute(sql: "DELETE FROM person WHERE face_count = 0 AND name IS NULL")
    }

    /// Writes each asset's `people` search words: the names of the named,
    /// shown people whose faces it holds.
    static func refreshPeopleWords(_ assetIDs: [Int64], _ db: any SQLConnection) throws {
        for chunk in stride(from: 0, to: assetIDs.count, by: 1000).map({ Array(assetIDs[$0..<min($0 + 1000, assetIDs.count)]) }) {
            var names: [Int64: [String]] = [:]
            for row in try db.fetchAll(
                SQLRow.self,
                """
                SELECT f.asset_id, p.name FROM face f JOIN person p ON p.id = f.person_id
                WHERE f.asset_id IN (\(db.dialect.elements(of: chunk))) AND p.name IS NOT NULL AND p.is_hidden = 0
                ORDER BY f.asset_id, p.name
                """)
            {
                names[try row["asset_id"], default: []].append(try row["name"])
            }
            for id in chunk {
                let words = SearchWords.document(names[id] ?? [])
                if words.isEmpty {
                    _ = try db.execute(sql: "UPDATE asset_search SET people = '' WHERE asset_id = ? AND people <> ''", arguments: [id])
                } else {
                    _ = try db.execute(
                        sql: """
                            INSERT INTO asset_search (asset_id, people) VALUES (?, ?)
                            ON CONFLICT (asset_id) DO UPDATE SET people = excluded.people
                            """,
                        arguments: [id, words])
                }
            }
        }
    }

    // MARK: - People

    /// Makes the transaction the only one changing people until it ends.
    /// Every kind's batch takes faces of deleted assets out, the faces
    /// kind adds faces, and people are edited by hand, each reading
    /// centroids and writing them back; SQLite's one writer already keeps
    /// them apart, and on PostgreSQL (read committed) this lock does,
    /// without stopping readers. Statements after it see what the
    /// transaction it waited for committed.
    static func lockPeople(_ db: any SQLConnection) throws {
        guard db.dialect == .postgres else { return }
        _ = try db.execute(sql: "LOCK TABLE person IN SHARE ROW EXCLUSIVE MODE")
    }

    private static func centroids(_ db: any SQLConnection) throws -> PersonCentroids {
        PersonCentroids(
            try db.fetchAll(SQLRow.self, sql: "SELECT id, centroid, face_count FROM person").map { row in
                PersonCentroids.Person(id: try row["id"], centroid: try descriptor(row["centroid"]), faceCount: try row["face_count"], changed: false)
            })
    }

    private static func save(_ people: PersonCentroids, _ db: any SQLConnection) throws {
        for person in people.people where person.changed {
            _ = try db.execute(
                sql: "UPDATE person SET centroid = ?, face_count = ? WHERE id = ?", arguments: [person.centroid.bytes, person.faceCount, person.id!])
        }
        _ = try db.execute(sql: "DELETE FROM person WHERE face_count = 0 AND name IS NULL")
    }

    private static func descriptor(_ value: Data) throws -> FaceDescriptor {
        guard let descriptor = FaceDescriptor(bytes: value) else {
            throw StoredValueError(column: "descriptor", value: value.databaseValue, expected: FaceDescriptor.self)
        }
        return descriptor
    }
}
