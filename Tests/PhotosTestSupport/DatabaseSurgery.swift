import Foundation
import GRDB

/// Damages a library's database the way a failing disk or a crash in the
/// wrong place would, for the tests that check damage is noticed.
package enum DatabaseSurgery {
    /// The database file of the library at `library`.
    package static func databaseFile(of library: URL) -> URL {
        library.appendingPathComponent("database/Photos.sqlite")
    }

    /// Runs `sql` on the library's database as another program would,
    /// bypassing the engine (and its checks).
    package static func execute(_ sql: String, arguments: [String] = [], in library: URL) throws {
        let queue = try DatabaseQueue(path: databaseFile(of: library).path)
        try queue.write { try $0.execute(sql: sql, arguments: StatementArguments(arguments)) }
        try queue.close()
    }

    /// Makes the library hold `count` more assets, copies of its first with
    /// new identifiers, written straight into its table: a large library
    /// in a second, for tests of what a query over many rows costs.
    package static func addCopiesOfTheFirstAsset(_ count: Int, in library: URL) throws {
        let queue = try DatabaseQueue(path: databaseFile(of: library).path)
        try queue.write { db in
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(asset)").map { $0["name"] as String }.filter { $0 != "id" }
            let copied = columns.map {
                $0 == "uuid"
                    ? "upper(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-A' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"
                    : $0
            }
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                    INSERT INTO asset (\(columns.joined(separator: ", ")))
                    SELECT \(copied.joined(separator: ", ")) FROM n, (SELECT * FROM asset ORDER BY id LIMIT 1)
                    """)
        }
        try queue.close()
    }

    /// Folds the write-ahead log into the database file, so that its pages
    /// are all in the file. Other connections may stay open.
    package static func checkpoint(_ library: URL) throws {
        let queue = try DatabaseQueue(path: databaseFile(of: library).path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
    }

    /// The pages of a table or index, with their type, in page order.
    package static func pages(of name: String, in library: URL) throws -> [(number: Int, type: String)] {
        try checkpoint(library)
        let queue = try DatabaseQueue(path: databaseFile(of: library).path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT pageno, pagetype FROM dbstat WHERE name = ? ORDER BY pageno", arguments: [name])
                .map { ($0[0], $0[1]) }
        }
    }

    /// Overwrites bytes of a page in the database file.
    package static func overwrite(page: Int, at offset: Int = 0, with bytes: [UInt8], in library: URL) throws {
        let file = try FileHandle(forUpdating: databaseFile(of: library))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64((page - 1) * 4096 + offset))
        try file.write(contentsOf: bytes)
        try file.synchronize()
    }
}
