import Foundation
import GRDB

/// How much history a library keeps: the owner's setting, stored in the library.
///
/// A change block is pruned when it is older than `maximumAge` or not among
/// the latest `maximumChangeCount`; tokens from before a pruned block expire.
/// The default keeps 30 days and caps nothing else, but a block touching
/// more than 100,000 objects (emptying a large Recently Deleted, say) keeps
/// only its count: its changes are reported as unavailable, never as empty.
package struct HistoryRetention: Sendable, Equatable {
    /// Seconds; nil keeps change blocks whatever their age.
    package var maximumAge: TimeInterval?
    /// Nil keeps any number of change blocks.
    package var maximumChangeCount: Int?
    /// Nil keeps the details of blocks of any size.
    package var maximumObjectsPerChange: Int?

    package static let standard = HistoryRetention(
        maximumAge: 30 * 86_400, maximumChangeCount: nil,
        maximumObjectsPerChange: 100_000)

    package init(maximumAge: TimeInterval?, maximumChangeCount: Int?, maximumObjectsPerChange: Int?) {
        self.maximumAge = maximumAge
        self.maximumChangeCount = maximumChangeCount
        self.maximumObjectsPerChange = maximumObjectsPerChange
    }

    // Each limit is its own metadata row, so that a commit reads the one it
    // needs as a number: absent means the standard value, "none" no limit.
    private static let ageKey: StaticString = "history_maximum_age"
    private static let countKey: StaticString = "history_maximum_change_count"
    private static let objectsKey: StaticString = "history_maximum_objects_per_change"

    /// The library's setting.
    static func load(_ db: any SQLConnection) throws -> HistoryRetention {
        HistoryRetention(
            maximumAge: try limit(db, ageKey, standard: standard.maximumAge),
            maximumChangeCount: try limit(db, countKey, standard: standard.maximumChangeCount.map(Double.init)).map { Int($0) },
            maximumObjectsPerChange: try maximumObjectsPerChange(db))
    }

    /// The one limit every commit checks.
    static func maximumObjectsPerChange(_ db: any SQLConnection) throws -> Int? {
        try limit(db, objectsKey, standard: standard.maximumObjectsPerChange.map(Double.init)).map { Int($0) }
    }

    func save(_ db: any SQLConnection) throws {
        let limits: [(StaticString, Double?)] = [
            (Self.ageKey, maximumAge), (Self.countKey, maximumChangeCount.map(Double.init)),
            (Self.objectsKey, maximumObjectsPerChange.map(Double.init)),
        ]
        for (key, value) in limits {
            try db.execute(
                sql: "INSERT INTO library_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [key.description, value.map { String($0) } ?? "none"])
        }
    }

    /// The key is one of the constant names above, written into the text
    /// (a statement per key, each cached): a commit reads one, and a list
    /// of arguments cost more than the lookup.
    private static func limit(_ db: any SQLConnection, _ key: StaticString, standard: Double?) throws -> Double? {
        guard
            let text = try db.fetchOne(
                String.self, sql: "SELECT value FROM library_metadata WHERE key = '\(key)'",
                arguments: SQLArguments())
        else { return standard }
        return Double(text)
    }

    /// The newest change block this setting forgets, as of `now`; 0 when none.
    func pruneTarget(_ db: any SQLConnection, now: Date) throws -> Int64 {
        let last = try HistoryLog.lastChangeBlock(db)
        var target: Int64 = 0
        if let maximumAge {
            target =
                try db.fetchOne(
                    Int64.self, sql: "SELECT MAX(id) FROM change_transaction WHERE committed_at < ?",
                    arguments: [now.timeIntervalSince1970 - maximumAge]) ?? 0
        }
        if let maximumChangeCount {
            target = max(target, last - Int64(max(0, maximumChangeCount)))
        }
        return min(target, last)
    }
}
