import Dispatch
import GRDB
import GRDBSQLite
import PhotosStore
import Synchronization

/// The read-only connections a store reads with, each with the statements
/// it keeps prepared. A read takes the connection returned last, so that a
/// process reading on one thread at a time (nearly every app and command)
/// opens one connection and keeps its statements and pages warm; a read
/// that finds every open connection busy opens another, up to
/// `maximumCount`, and beyond that waits for one.
///
/// Unlike GRDB's pool, nothing is opened before the first read, and a
/// single statement runs outside any transaction: in SQLite's autocommit
/// mode one statement is its own snapshot, and a transaction's start and
/// end cost more than a lookup by id.
final class SQLiteReaders: Sendable {
    private struct Reader: Sendable {
        let queue: DatabaseQueue
        let statements: PreparedStatements
    }

    private let path: String
    private let configuration: Configuration
    /// The connections open and not in use, the one returned last at the end.
    private let idle = Mutex<[Reader]>([])
    /// How many more reads may run at once.
    private let capacity: DispatchSemaphore

    /// Readers of the database at `path` (a file path or an SQLite URI),
    /// opened with `configuration` made read-only. Cost: nothing until the
    /// first read.
    init(path: String, configuration: Configuration, maximumCount: Int = 5) {
        var configuration = configuration
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
        capacity = DispatchSemaphore(value: maximumCount)
    }

    /// A new read-only connection to the database, opened as the readers'
    /// own are, for a caller that keeps it (the commit watcher). Cost:
    /// opening an SQLite connection, which reads the schema.
    func openConnection() throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Runs `body` in one read transaction: one snapshot of the database.
    /// Cost: the transaction's start and end, and the first time (or when
    /// every connection is busy) opening a connection.
    func read<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T {
        try withReader { reader in
            try reader.queue.inDatabase { db in
                try Self.watched(db) {
                    defer { Self.endStatements(db) }
                    var value: T?
                    try db.inTransaction(.deferred) {
                        value = try body(db, reader.statements)
                        return .commit
                    }
                    return value!
                }
            }
        }
    }

    /// Runs `body`, which must run a single statement, outside any
    /// transaction. Cost: the statement, and opening a connection as
    /// ``read(_:)`` does.
    func readStatement<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T {
        try withReader { reader in
            try reader.queue.inDatabase { db in
                try Self.watched(db) {
                    defer { Self.endStatements(db) }
                    return try body(db, reader.statements)
                }
            }
        }
    }

    /// Resets any statement a read left stepping. Outside a transaction,
    /// SQLite keeps a connection's snapshot while one of its statements is
    /// unfinished: every later read on it would see the library as it was
    /// then, and an observer would miss the commits since. Cost: one call
    /// when nothing is left running, as it should be.
    private static func endStatements(_ db: Database) {
        guard let connection = db.sqliteConnection, sqlite3_txn_state(connection, nil) != SQLITE_TXN_NONE else { return }
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(connection, current)
        }
    }

    private func withReader<T>(_ body: (Reader) throws -> T) throws -> T {
        capacity.wait()
        defer { capacity.signal() }
        let reader =
            try idle.withLock { $0.popLast() }
            ?? Reader(queue: try openConnection(), statements: PreparedStatements())
        defer { idle.withLock { $0.append(reader) } }
        return try body(reader)
    }

    /// Runs `body` with SQLite's progress handler watching the thread's
    /// ``StatementBudget``, when it has one: work abandoned already does not
    /// start; then every hundred virtual-machine steps the handler compares
    /// the clock with the deadline (and, every sixteenth time, asks whether
    /// the work was abandoned), and interrupts the statement past either,
    /// which then fails with `SQLITE_INTERRUPT`. Without a budget no handler
    /// is set, so ordinary reads pay nothing.
    private static func watched<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let budget = StatementBudget.current, let connection = db.sqliteConnection else { return try body() }
        if budget.isAbandoned() {
            budget.record(.abandoned)
            throw StoreError.stopped(budget)
        }
        let watch = ProgressWatch(budget: budget, deadline: StatementBudget.now() &+ budget.limitNanoseconds)
        let context = Unmanaged.passRetained(watch)
        sqlite3_progress_handler(
            connection, 100,
            { context in
                guard let context else { return 0 }
                let watch = Unmanaged<ProgressWatch>.fromOpaque(context).takeUnretainedValue()
                return watch.shouldStop() ? 1 : 0
            }, context.toOpaque())
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            context.release()
        }
        return try body()
    }
}

/// One statement's (or read transaction's) watch over its budget, for the
/// progress handler; used by the one thread running it.
private final class ProgressWatch {
    let budget: StatementBudget
    let deadline: UInt64
    private var calls = 0

    init(budget: StatementBudget, deadline: UInt64) {
        self.budget = budget
        self.deadline = deadline
    }

    func shouldStop() -> Bool {
        calls &+= 1
        if StatementBudget.now() > deadline {
            budget.record(.deadline)
            return true
        }
        if calls % 16 == 0, budget.isAbandoned() {
            budget.record(.abandoned)
            return true
        }
        return false
    }
}
