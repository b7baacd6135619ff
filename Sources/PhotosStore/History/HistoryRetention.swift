import Foundation
import GRDB

/// How much history a library keeps: the owner's setting, stored in the library.
///
/// A change block is pruned when it is older than `maximumAge` or not among
/// the latest `maximumChangeCount`; tokens from before a pruned block expire.
/// The default keeps 30 days and caps nothing else, but a block touching
/// more than 100,000 objects (emptying a large Recently Deleted, say) keeps
/// only its count: its changes are reported as unavailable, never as empty.
package struct HistoryRetention: Sendable, Equatable, Codable {
    /// Seconds; nil keeps change blocks whatever their age.
    package var maximumAge: TimeInterval?
    /// Nil keeps any number of change blocks.
    package var maximumChangeCount: Int?
    /// Nil keeps the details of blocks of any size.
    package var maximumObjectsPerChange: Int?

    package static let standard = HistoryRetention(maximumAge: 30 * 86_400, maximumChangeCount: nil,
                                                   maximumObjectsPerChange: 100_000)

    package init(maximumAge: TimeInterval?, maximumChangeCount: Int?, maximumObjectsPerChange: Int?) {
        self.maximumAge = maximumAge
        self.maximumChangeCount = maximumChangeCount
        self.maximumObjectsPerChange = maximumObjectsPerChange
    }

    private static let key = "history_retention"

    /// The library's setting, or the standard one.
    static func load(_ db: Database) throws -> HistoryRetention {
        guard let json = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM library_metadata WHERE key = ?"),
                                             arguments: [key]),
              let retention = try? JSONDecoder().decode(HistoryRetention.self, from: Data(json.utf8)) else {
            return .standard
        }
        return retention
    }

    func save(_ db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO library_metadata (key, value) VALUES (?, ?)", arguments: [Self.key, json])
    }

    /// The newest change block this setting forgets, as of `now`; 0 when none.
    func pruneTarget(_ db: Database, now: Date) throws -> Int64 {
        let last = try HistoryLog.lastTransaction(db)
        var target: Int64 = 0
        if let maximumAge {
            target = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM change_transaction WHERE committed_at < ?"),
                                        arguments: [now.timeIntervalSince1970 - maximumAge]) ?? 0
        }
        if let maximumChangeCount {
            target = max(target, last - Int64(max(0, maximumChangeCount)))
        }
        return min(target, last)
    }
}
