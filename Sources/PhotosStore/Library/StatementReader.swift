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

    /// A new read-only connection to the database, opened as this reader's
    /// own is. Cost: opening an SQLite connection.
    func openConnection() throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration)
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
                queue = try openConnection()
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
