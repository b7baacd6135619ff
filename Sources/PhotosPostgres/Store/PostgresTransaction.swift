import Foundation
import PhotosStore
import PostgresNIO

extension LibraryDatabase {
    /// The kinds of transaction the engine runs.
    package enum TransactionMode: Sendable {
        /// One snapshot, read only (`REPEATABLE READ READ ONLY`).
        case read
        /// `READ COMMITTED`, serialised with every other writer of the
        /// library by the commit lock taken first (see ``ChangeBlockNumbering``).
        case write
    }

    /// Runs `body` in one transaction on a pooled connection, synchronously,
    /// and commits it; rolls back and rethrows when `body` throws. Waits at
    /// most ``timeout`` for a connection.
    package func transaction<T>(
        _ mode: TransactionMode, text: PostgresStatementText,
        _ body: (PostgresSQLConnection) throws -> T
    ) throws(StoreError) -> T {
        let connection = try transactions.take(timeout: timeout)
        var endedCleanly = false
        defer { transactions.giveBack(connection, reusable: endedCleanly) }
        let db = PostgresSQLConnection(connection: connection, location: location, text: text, answerTimeout: timeout)
        // BEGIN is sent without waiting: the transaction's first statement
        // follows it on the connection, and reports its failure.
        do {
            switch mode {
            case .read:
                db.send(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
                if let budget = StatementBudget.current {
                    // The thread's budget bounds each statement of the read, as SQLite's progress handler does.
                    let milliseconds = max(1, min(Int64(Int32.max), Int64(budget.limitNanoseconds / 1_000_000)))
                    db.send(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"))
                }
            case .write:
                db.send(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL READ COMMITTED"))
                try ChangeBlockNumbering.lock(db)
            }
        } catch {
            endedCleanly = (try? db.run(PostgresQuery(unsafeSQL: "ROLLBACK"))) != nil
            throw StoreError(postgres: error, location: location)
        }
        let value: T
        do {
            value = try body(db)
        } catch {
            endedCleanly = (try? db.run(PostgresQuery(unsafeSQL: "ROLLBACK"))) != nil
            throw StoreError(postgres: error, location: location)
        }
        if mode == .read {
            // A read-only snapshot has nothing to make durable: its COMMIT
            // is sent without waiting, and the connection's next
            // transaction queues behind it. Failing, it would fail the
            // connection, which is then closed rather than reused.
            do {
                try db.checkSent()
            } catch {
                endedCleanly = (try? db.run(PostgresQuery(unsafeSQL: "ROLLBACK"))) != nil
                throw StoreError(postgres: error, location: location)
            }
            db.send(PostgresQuery(unsafeSQL: "COMMIT"))
            endedCleanly = true
            return value
        }
        do {
            _ = try db.run(PostgresQuery(unsafeSQL: "COMMIT"))
            endedCleanly = true
        } catch {
            // The answer to COMMIT was lost: the block may or may not have
            // committed. Its number and stamp, read back on another
            // connection, say which, so that a block that committed is
            // not reported as failed (and retried into a duplicate).
            let failure = StoreError(postgres: error, location: location)
            guard case .unreachable = failure, let block = db.numberedBlock else { throw failure }
            let committed = try? transaction(.read, text: text) { check in
                try check.fetchOne(
                    Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM change_transaction WHERE id = ? AND stamp = ?)",
                    arguments: [block.changeBlock, block.stamp])
            }
            switch committed {
            case true?: return value
            case false?: throw failure
            case nil:
                throw StoreError.unreachable(
                    location: location.url.absoluteString,
                    reason: """
                        the connection was lost while change block \(block.changeBlock) committed, and whether it did is unknown \
                        until the server answers again: \(failure)
                        """)
            }
        }
        return value
    }
}
