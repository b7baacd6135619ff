import Foundation
import GRDB
import Testing

@testable import photos_bench

/// The observation baseline keeps exactly the list a fresh query gives, and
/// its details turn the old list into the new one.
@Suite struct IncrementalTimelineTests {
    @Test func itsDetailsReplayAndItsListMatchesAFreshQuery() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE asset (id INTEGER PRIMARY KEY, creation_date REAL, trashed_date REAL)")
            for id in 1...200 {
                try db.execute(sql: "INSERT INTO asset VALUES (?, ?, NULL)", arguments: [id, Double(id % 50)])
            }
        }
        let visible = "a.trashed_date IS NULL"
        let timeline = try database.read { try IncrementalTimeline($0, visible: visible) }
        database.add(transactionObserver: timeline, extent: .observerLifetime)
        var random = SplitMix(state: 11)
        var nextID = 1_000
        for round in 0..<150 {
            let old = timeline.keys
            try database.write { db in
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    let id = 1 + Int(random.next() % 200)
                    switch random.next() % 5 {
                    case 0:
                        nextID += 1
                        try db.execute(sql: "INSERT INTO asset VALUES (?, ?, NULL)", arguments: [nextID, Double(random.next() % 50)])
                    case 1: try db.execute(sql: "UPDATE asset SET creation_date = ? WHERE id = ?", arguments: [Double(random.next() % 50), id])
                    case 2: try db.execute(sql: "UPDATE asset SET trashed_date = 1 WHERE id = ?", arguments: [id])
                    case 3: try db.execute(sql: "UPDATE asset SET trashed_date = NULL WHERE id = ?", arguments: [id])
                    default: try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])
                    }
                }
            }
            let fresh = try database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, creation_date FROM asset a WHERE \(visible) ORDER BY creation_date, id")
                    .map { IncrementalTimeline.Key(date: $0[1], id: $0[0]) }
            }
            #expect(timeline.keys == fresh, "round \(round)")
            guard let details = timeline.details else { continue }
            var replayed = old.indices.filter { !details.removed.contains($0) }.map { old[$0] }
            for index in details.inserted { replayed.insert(fresh[index], at: index) }
            #expect(replayed == fresh, "round \(round): removing, then inserting, gives the new list")
            #expect(details.changed.allSatisfy { !details.inserted.contains($0) })
        }
    }
}
