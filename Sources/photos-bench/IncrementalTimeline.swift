import Foundation
import GRDB

/// The observation baseline: the list of visible assets sorted by creation
/// date, kept live the way a competent engineer would on GRDB alone. A
/// `TransactionObserver` notes the row ids a transaction touches; once the
/// transaction commits, it reads those rows' sort keys in one query, finds
/// where they were and where they go by binary search in the keys it holds
/// in memory, and builds the new list in one merge pass, with the removed,
/// inserted and changed indexes PhotoKit's details give.
///
/// It holds every visible asset's key and a table from id to creation date,
/// so its memory grows with the library; the first load reads every row.
final class IncrementalTimeline: TransactionObserver, @unchecked Sendable {
    /// Where an asset sorts: by creation date, then id, as the engine sorts.
    struct Key: Comparable {
        var date: Double
        var id: Int64

        static func < (left: Key, right: Key) -> Bool {
            (left.date, left.id) < (right.date, right.id)
        }
    }

    /// The difference one commit made to the list, and the list after it.
    struct Details {
        var removed = IndexSet()
        var inserted = IndexSet()
        var changed = IndexSet()
        var keys: [Key] = []
    }

    /// The list as the last commit left it.
    private(set) var keys: [Key]
    /// The details of the last commit; nil when it touched no asset.
    private(set) var details: Details?
    /// Why the last commit's rows could not be read, if they could not.
    private(set) var failure: (any Error)?
    /// The SQL condition on `asset a` that makes an asset part of the list.
    private let visible: String
    private var dates: [Int64: Double]
    private var touched: [Int64] = []

    /// Loads the visible assets' keys.
    init(_ db: Database, visible: String) throws {
        self.visible = visible
        keys = try Row.fetchAll(db, sql: "SELECT a.id, a.creation_date FROM asset a WHERE \(visible) ORDER BY a.creation_date, a.id")
            .map { Key(date: $0[1] ?? -.infinity, id: $0[0]) }
        dates = Dictionary(uniqueKeysWithValues: keys.map { ($0.id, $0.date) })
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "asset"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        touched.append(event.rowID)
    }

    func databaseDidRollback(_ db: Database) {
        touched = []
    }

    func databaseDidCommit(_ db: Database) {
        guard !touched.isEmpty else {
            details = nil
            return
        }
        let ids = Array(Set(touched))
        touched = []
        // What the touched rows are now: their keys, for those still visible.
        let list = BenchLibrary.jsonList(ids)
        let now: [Int64: Double]
        do {
            now = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db,
                    sql: """
                        SELECT a.id, a.creation_date FROM asset a WHERE a.id IN (SELECT value FROM json_each(?)) AND \(visible)
                        """, arguments: [list]
                ).map { (id: $0[0] as Int64, date: ($0[1] as Double?) ?? -.infinity) })
        } catch {
            failure = error
            details = nil
            return
        }
        var removedPositions: [Int] = []
        var insertedKeys: [Key] = []
        var changedKeys: [Key] = []
        for id in ids {
            let old = dates[id].map { Key(date: $0, id: id) }
            let new = now[id].map { Key(date: $0, id: id) }
            if let old, let new, old == new {
                changedKeys.append(new)
                continue
            }
            if let old { removedPositions.append(Self.lowerBound(of: old, in: keys)) }
            if let new { insertedKeys.append(new) }
            dates[id] = now[id]
        }
        removedPositions.sort()
        insertedKeys.sort()

        // One pass: the old keys less the removed ones, merged with the new ones.
        var result = Details()
        result.keys.reserveCapacity(keys.count - removedPositions.count + insertedKeys.count)
        var nextRemoved = 0
        var nextInserted = 0
        for (position, key) in keys.enumerated() {
            if nextRemoved < removedPositions.count, removedPositions[nextRemoved] == position {
                nextRemoved += 1
                continue
            }
            while nextInserted < insertedKeys.count, insertedKeys[nextInserted] < key {
                result.inserted.insert(result.keys.count)
                result.keys.append(insertedKeys[nextInserted])
                nextInserted += 1
            }
            result.keys.append(key)
        }
        while nextInserted < insertedKeys.count {
            result.inserted.insert(result.keys.count)
            result.keys.append(insertedKeys[nextInserted])
            nextInserted += 1
        }
        result.removed = IndexSet(removedPositions)
        for key in changedKeys { result.changed.insert(Self.lowerBound(of: key, in: result.keys)) }
        keys = result.keys
        details = result
    }

    /// The first position in `keys` whose key is not below `key`.
    private static func lowerBound(of key: Key, in keys: [Key]) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
