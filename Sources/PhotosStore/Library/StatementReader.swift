import GRDB
import Synchronization

/// A read-only connection of its own for reads that run one statement (an
/// object looked up by id, as a fetch result reads one at random). Such a
/// statement is its own snapshot in SQLite's autocommit mode, so it needs
/// no transaction; GRDB's pool, by contrast, takes a reader, checks the
/// schema and opens and ends a transaction on every read, which costs more
/// than a lookup by id itself. One caller uses the connection at a time;
/// a caller that finds it taken is told so at once rather than made to
/// wait, and reads through the pool instead.
final class StatementReader: Sendable {
    private enum State {
        case unopened
        case idle(DatabaseQueue, PreparedStatements)
        case inUse
    }

    private let path: String
    private let configuration: Configuration
    private let state = Mutex(State.unopened)

    /// A reader of the database at `path` (a file path or an SQLite URI),
    /// opened with `configuration` made read-only. Cost: nothing until the
    /// first read.
    init(path: String, configuration: Configuration) {
        var configuration = configuration
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
    }

    /// Runs `body`, which must run a single statement, on the connection,
    /// outside any transaction, with the statements kept prepared on it;
    /// nil, without running it, when another caller is using the
    /// connection. Cost: the statement, and opening the connection the
    /// first time.
    func read<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T? {
        let taken: State = state.withLock { state in
            let current = state
            if case .inUse = current { return current }
            state = .inUse
            return current
        }
        let queue: DatabaseQueue
        let statements: PreparedStatements
        switch taken {
        case .inUse:
            return nil
        case .idle(let idleQueue, let idleStatements):
            (queue, statements) = (idleQueue, idleStatements)
        case .unopened:
            do {
                queue = try DatabaseQueue(path: path, configuration: configuration)
                statements = PreparedStatements()
            } catch {
                state.withLock { $0 = .unopened }
                throw error
            }
        }
        defer { state.withLock { $0 = .idle(queue, statements) } }
        return try queue.inDatabase { db in try body(db, statements) }
    }
}

/// The statements a connection runs most often (a row looked up by id),
/// kept prepared and found by their text's identity: GRDB's statement cache
/// hashes the whole text of a statement at every use, about a tenth of a
/// lookup by id. Only code on the connection's queue uses it (see
/// ``StatementReader``), one caller at a time.
final class PreparedStatements: @unchecked Sendable {
    private var statements: [(sql: String, statement: Statement)] = []
    /// Few statements are run often; others go to GRDB's cache.
    private static let capacity = 8

    /// The statement for `sql`, prepared on `db` the first time. Cost: a
    /// comparison per statement kept, which for the same string (a
    /// `static let`) compares its storage, not its bytes.
    func statement(_ sql: String, in db: Database) throws -> Statement {
        if let kept = statements.first(where: { $0.sql == sql }) { return kept.statement }
        guard statements.count < Self.capacity else { return try db.cachedStatement(sql: sql) }
        // Its own statement, not GRDB's cached one: its bindings may be set
        // with SQLite's calls (see `SQLStatement.forEachRow(id:_:)`).
        let statement = try db.makeStatement(sql: sql)
        statements.append((sql, statement))
        return statement
    }
}
