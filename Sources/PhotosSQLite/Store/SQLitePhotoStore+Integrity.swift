import Foundation
import GRDB
import PhotosStore

extension SQLitePhotoStore {
    /// SQLite's integrity and foreign-key checks, which read every page,
    /// then a check that every column holds only values of its declared
    /// type, which SQLite does not enforce on tables that are not `STRICT`
    /// (another program can write text into a number column).
    package func databaseProblems() -> [String] {
        do {
            return try readDatabase { db in
                let pages = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let keys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                    "a row of \(row[0] as String? ?? "?") (rowid \(row[1] as Int64? ?? 0)) refers to a missing row of \(row[2] as String? ?? "?")"
                }
                return pages + keys + (pages.isEmpty ? try Self.mistypedValues(db) : [])
            }
        } catch {
            return ["the database cannot be read: \(error)"]
        }
    }

    /// Each column holding values that are not of its declared type, with
    /// how many. Cost: one read of each table, counting in a single pass.
    private static func mistypedValues(_ db: Database) throws -> [String] {
        var problems: [String] = []
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        for table in tables {
            let columns = try Row.fetchAll(db, sql: "SELECT name, upper(type), \"notnull\" FROM pragma_table_info(?)", arguments: [table])
                .compactMap { row -> (name: String, type: String, accepted: [String])? in
                    let name: String = row[0]
                    let type: String = row[1]
                    // The storage classes GRDB decodes the engine's Swift types from.
                    var accepted: [String] =
                        switch type {
                        case "INTEGER": ["integer"]
                        case "REAL": ["real", "integer"]
                        case "TEXT": ["text"]
                        case "BLOB": ["blob"]
                        default: []
                        }
                    guard !accepted.isEmpty else { return nil }
                    if !(row[2] as Bool) { accepted.append("null") }
                    return (name, type, accepted)
                }
            guard !columns.isEmpty else { continue }
            let counts = columns.map { column in
                "COALESCE(SUM(typeof(\(column.name.quotedDatabaseIdentifier)) NOT IN (\(column.accepted.map { "'\($0)'" }.joined(separator: ", ")))), 0)"
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT \(counts.joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier)") else { continue }
            for (index, column) in columns.enumerated() {
                let count: Int64 = row[index]
                if count > 0 {
                    problems.append(
                        "\(table).\(column.name) holds \(count) value\(count == 1 ? "" : "s") that \(count == 1 ? "is" : "are") not \(column.type)"
                            + " (written by another program; reading a row that holds one fails)")
                }
            }
        }
        return problems
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
