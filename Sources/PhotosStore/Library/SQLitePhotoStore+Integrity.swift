import Foundation
import GRDB

extension SQLitePhotoStore {
    /// SQLite's integrity and foreign-key checks, which read every page.
    package func databaseProblems() -> [String] {
        do {
            return try readDatabase { db in
                let pages = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let keys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                    "a row of \(row[0] as String? ?? "?") (rowid \(row[1] as Int64? ?? 0)) refers to a missing row of \(row[2] as String? ?? "?")"
                }
                return pages + keys
            }
        } catch {
            return ["the database cannot be read: \(error)"]
        }
    }

    /// A database found whole clears damage recorded earlier; one found
    /// damaged records it, so that nothing more is written into it.
    package func recordIntegrity(databaseIsWhole: Bool, problem: String?) {
        if databaseIsWhole {
            if readOnlyReason == nil { damage.clear() }
        } else if let problem {
            damage.record(problem)
        }
    }
}
