import GRDB
import PhotosStore
import Synchronization

/// The connection a store writes with, opened at the first write: a
/// process that only reads never opens it, and opening a library writes
/// nothing. GRDB's pool, by contrast, opens its writer at once and, when
/// the write-ahead log is empty (as after the last connection closed),
/// commits a table made and dropped to fill it; every other process's
/// commit watcher then wakes for nothing.
///
/// The connection syncs the write-ahead log at every commit
/// (`synchronous = FULL`), and keeps the database in WAL mode.
final class SQLiteWriter: Sendable {
    private let path: String
    private let configuration: Configuration
    private let opened = Mutex<DatabaseQueue?>(nil)
    /// The largest page cache of the writer, in KiB: enough for the pages
    /// of a large change block to stay in memory until it commits.
    private static let cacheKiB = 65_536

    /// The writer of the database at `path`, opened with `configuration`
    /// and this type's settings. Cost: nothing until ``connection()``.
    init(path: String, configuration: Configuration) {
        var configuration = configuration
        configuration.prepareDatabase { db in
            // WAL lets readers, in this process and others, read while a
            // change block commits. The mode is recorded in the file, so
            // this sets it only on a new database (or one another tool
            // turned back to a rollback journal).
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal",
                try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") != "wal"
            {
                throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "the database cannot be put in WAL mode")
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The page cache holds up to 64 MiB (SQLite's default is 2 MiB),
            // allocated only as pages are used. A change block that dirties
            // more pages than the cache holds spills them into the log in the
            // middle of its transaction, and may write a page there again
            // before it commits: moving 5,000 assets of a 3 MB library to
            // Recently Deleted spent about a sixth of its time so.
            try db.execute(sql: "PRAGMA cache_size = -\(Self.cacheKiB)")
        }
        self.path = path
        self.configuration = configuration
    }

    /// The writer connection, opened the first time. Cost: opening an
    /// SQLite connection, the first time.
    func connection() throws -> DatabaseQueue {
        try opened.withLock { opened in
            if let opened { return opened }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            opened = queue
            return queue
        }
    }
}
