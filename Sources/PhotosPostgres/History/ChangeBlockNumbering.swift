import Foundation
import PhotosStore
import PostgresNIO

/// Numbers change blocks on PostgreSQL in the order they commit.
///
/// A sequence would not do: two writers could take numbers 7 and 8 and
/// commit 8 first, and a reader seeing 8 would then skip 7 for good. So
/// every write transaction starts by locking the library's one
/// `change_counter` row (``lock(_:)``): the library's commit lock, held
/// until the transaction ends. Writers therefore take turns, as SQLite's
/// single writer does, which the committer's read-then-write decisions
/// (duplicates by content hash, positions, a burst's representative) rely
/// on. A block is numbered by incrementing the counter it holds, so
/// numbers are contiguous and in commit order, and a reader that sees
/// block *n* sees every block before it. The counter, unlike `MAX(id)`,
/// never goes back when pruning deletes old blocks.
///
/// The block's number is sent on the library's channel with `pg_notify`,
/// which PostgreSQL delivers when, and only if, the transaction commits.
package enum ChangeBlockNumbering {
    /// Takes the library's commit lock; call first in a write transaction.
    /// Cost: one row lock, waited for while another writer holds it.
    package static func lock(_ db: PostgresSQLConnection) throws {
        _ = try db.fetchOne(Int64.self, sql: "SELECT last FROM change_counter FOR UPDATE")
    }

    /// Numbers the block, records it in `change_transaction` with a random
    /// stamp and the number of objects it changed, and notifies the channel;
    /// returns its number. Cost: three short statements.
    package static func number(_ db: PostgresSQLConnection, committedAt date: Date, author: String?, objectCount: Int) throws -> Int64 {
        guard let number = try db.fetchOne(Int64.self, sql: "UPDATE change_counter SET last = last + 1 RETURNING last") else {
            throw StoreError.damaged(path: db.location.url.absoluteString, reason: "its change_counter row is missing")
        }
        let stamp = Int64.random(in: 1...Int64.max)
        try db.execute(
            sql: "INSERT INTO change_transaction (id, committed_at, author, stamp, object_count) VALUES (?, ?, ?, ?, ?)",
            arguments: [number, date.timeIntervalSince1970, author, stamp, objectCount])
        db.numberedBlock = (number, stamp)
        try db.execute(sql: "SELECT pg_notify(?, ?)", arguments: [db.location.channel, String(number)])
        return number
    }

    /// What a revocation of a token sends on the channel, in place of a number.
    package static let tokenRevocationNotice = "token revoked"

    /// The number of the last committed change block, and the last token
    /// revocation's mark. Cost: two row reads in one statement.
    package static func watchedState(_ connection: PostgresConnection, location: PostgresLocation) async throws -> WatchedState {
        let schema = "\"\(location.schema)\""
        var bindings = PostgresBindings()
        bindings.append(WatchedState.tokenRevocationKey)
        let rows = try await connection.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT last, (SELECT value FROM \(schema).library_metadata WHERE key = $1) FROM \(schema).change_counter
                    """, binds: bindings))
        var state = WatchedState(changeBlock: 0, tokenRevocation: nil)
        for try await (number, mark) in rows.decode((Int64, String?).self) {
            state = WatchedState(changeBlock: number, tokenRevocation: mark)
        }
        return state
    }
}
