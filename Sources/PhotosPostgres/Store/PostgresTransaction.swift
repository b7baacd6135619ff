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
    package func transaction<T>(_ mode: TransactionMode, text: PostgresStatementText,
                        _ body: (PostgresSQLConnection) throws -> T) throws(StoreError) -> T {
        let (connection, lease) = try ConnectionLease.take(from: client, location: location, timeout: timeout)
        defer { lease.giveBack() }
        let db = PostgresSQLConnection(connection: connection, location: location, text: text)
        do {
            switch mode {
            case .read:
                _ = try db.run(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
            case .write:
                _ = try db.run(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL READ COMMITTED"))
                try ChangeBlockNumbering.lock(db)
            }
        } catch {
            _ = try? db.run(PostgresQuery(unsafeSQL: "ROLLBACK"))
            throw StoreError(postgres: error, location: location)
        }
        let value: T
        do {
            value = try body(db)
        } catch {
            _ = try? db.run(PostgresQuery(unsafeSQL: "ROLLBACK"))
            throw StoreError(postgres: error, location: location)
        }
        do {
            _ = try db.run(PostgresQuery(unsafeSQL: "COMMIT"))
        } catch {
            throw StoreError(postgres: error, location: location)
        }
        return value
    }
}
