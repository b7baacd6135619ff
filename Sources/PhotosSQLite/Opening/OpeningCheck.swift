import Foundation
import GRDB
import GRDBSQLite
import PhotosStore

/// What every opening of a library checks, cheaply enough to run each time
/// (a few page reads): that the database file is as long as its header
/// says, and that its schema and both ends of every table read. Damage
/// elsewhere in a table is noticed when a read or write reaches it (see
/// `LibraryDamage`), and a full check (`checkIntegrity`) reads everything.
enum OpeningCheck {
    /// A problem with the database file itself, read before SQLite opens
    /// it for the store; nil when the file looks whole. `hasWriteAheadLog`:
    /// a non-empty log beside it may hold pages a checkpoint had not yet
    /// written back.
    ///
    /// The header is read through a connection's own file handle, never a
    /// descriptor of this code's: the kernel drops every POSIX lock a
    /// process holds on a file when the process closes any descriptor of
    /// it, and another store of this process may hold SQLite's locks on
    /// this file (closing its handle, SQLite keeps the descriptor open while
    /// such locks are held). Cost: opening a connection and one read.
    static func fileProblem(at url: URL, hasWriteAheadLog: Bool) -> String? {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(url.path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
            let file = pointer, let methods = file.pointee.pMethods?.pointee,
            let readBytes = methods.xRead, let fileSize = methods.xFileSize
        else { return nil }
        var size: sqlite3_int64 = 0
        guard fileSize(file, &size) == SQLITE_OK else { return nil }
        var header = [UInt8](repeating: 0, count: 100)
        guard size >= 100, readBytes(file, &header, 100, 0) == SQLITE_OK else {
            return "the database file is shorter than an SQLite header"
        }
        guard header.starts(with: Array("SQLite format 3\0".utf8)) else {
            return "the database file is not an SQLite database"
        }
        func integer(at offset: Int, size: Int) -> Int {
            header[offset..<offset + size].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = integer(at: 16, size: 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let changeCounter = integer(at: 24, size: 4)
        let pageCount = integer(at: 28, size: 4)
        let validFor = integer(at: 92, size: 4)
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            return "the database header records an impossible page size (\(rawPageSize))"
        }
        // The page count is trusted only when written with the change counter.
        guard !hasWriteAheadLog, validFor == changeCounter, pageCount > 0, Int(size) < pageCount * pageSize else { return nil }
        return "the database file is truncated: it holds \(size) of the \(pageCount * pageSize) bytes its header records"
    }

    /// A problem reading the schema or either end of a table; nil when
    /// everything read. Throws what SQLite reports (a corrupt page, say).
    /// The rows are only stepped through (`execute` steps each one, which
    /// decodes every column), not made into GRDB rows, which cost more
    /// than reading them.
    static func tableProblem(_ db: Database) throws -> String? {
        let tables = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                """)
        for table in tables {
            let name: String = table[0]
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            try db.execute(sql: "SELECT * FROM \(quoted) LIMIT 1")
            let withoutRowID = (table[1] as String?)?.uppercased().contains("WITHOUT ROWID") ?? false
            if !withoutRowID {
                try db.execute(sql: "SELECT * FROM \(quoted) ORDER BY rowid DESC LIMIT 1")
            }
        }
        return tables.isEmpty ? "the database holds no tables" : nil
    }
}
