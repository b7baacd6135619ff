import Foundation
import PhotosStore
import PostgresNIO

/// Numbers change blocks on PostgreSQL in the order they commit.
///
/// A sequence would not do: two writers could take numbers 7 and 8 and
/// commit 8 first, and a reader seeing 8 would then skip 7 for good. So a
/// writer numbers its block at the very end of its transaction by
/// incrementing the library's one `change_counter` row. The row's lock is
/// the library's commit lock, held until the transaction ends: a second
/// writer's increment waits for the first to commit or roll back, then
/// (`READ COMMITTED` re-reads an updated row) counts on from what the first
/// committed. Numbers are therefore contiguous and in commit order, and a
/// reader that sees block *n* sees every block before it. Only this last
/// step is serialised; the block's own writes run concurrently with
/// others'. The counter, unlike `MAX(id)`, never goes back when pruning
/// deletes old blocks.
///
/// The block's number is sent on the library's channel with `pg_notify`,
/// which PostgreSQL delivers when, and only if, the transaction commits.
package enum ChangeBlockNumbering {
    /// Takes the commit lock, numbers the block and records it in
    /// `change_transaction` with a random stamp; returns its number and
    /// stamp. Call last in a write transaction. Cost: one lock wait and
    /// three short statements.
    package static func number(_ connection: PostgresConnection, location: PostgresLocation,
                               committedAt date: Date, author: String?) async throws -> (changeBlock: Int64, stamp: Int64) {
        let schema = location.schema
        let counted = try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \"\(schema)\".change_counter SET last = last + 1 RETURNING last"))
        var number: Int64 = 0
        for try await last in counted.decode(Int64.self) { number = last }
        var bindings = PostgresBindings(capacity: 4)
        let stamp = Int64.random(in: 1...Int64.max)
        bindings.append(number)
        bindings.append(date.timeIntervalSince1970)
        bindings.append(author)
        bindings.append(stamp)
        try await connection.run(PostgresQuery(unsafeSQL: """
            INSERT INTO "\(schema)".change_transaction (id, committed_at, author, stamp) VALUES ($1, $2, $3, $4)
            """, binds: bindings))
        try await connection.run("SELECT pg_notify(\(location.channel), \(String(number)))")
        return (number, stamp)
    }

    /// The number of the last committed change block. Cost: one row read.
    package static func last(_ connection: PostgresConnection, location: PostgresLocation) async throws -> Int64 {
        let rows = try await connection.run(PostgresQuery(unsafeSQL: "SELECT last FROM \"\(location.schema)\".change_counter"))
        var number: Int64 = 0
        for try await id in rows.decode(Int64.self) { number = id }
        return number
    }
}
