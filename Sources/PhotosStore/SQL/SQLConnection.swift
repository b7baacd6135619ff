import Foundation
import GRDB

/// One connection inside one transaction, whatever the database behind it:
/// the only way the engine's shared logic (fetches, refreshes, the
/// committer, history, access) runs SQL, so that the same logic runs on
/// SQLite and on PostgreSQL.
///
/// Statements are ``SQLFragment`` values: each argument travels with the
/// text that uses it, and a backend binds them in its own placeholder style.
/// Text that differs between the databases comes from ``dialect``; the rest
/// is written in the SQL both accept (`ON CONFLICT`, `RETURNING`, `FALSE`).
package protocol SQLConnection {
    /// The SQL this connection's database speaks where the two differ.
    var dialect: SQLDialect { get }
    /// Runs one statement; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: SQLFragment) throws -> Int
    /// Every row a query returns. Cost: the rows, decoded once.
    func fetchAll(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> [SQLRow]
    /// The first row a query returns, if any.
    func fetchOne(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> SQLRow?
    /// Runs a query and hands its rows to `body` in order, `batchSize` at a
    /// time, until `body` returns false or the rows run out. Cost: one pass
    /// of the query, and memory for about two batches: PostgreSQL computes
    /// the next batch while `body` works on one.
    func scan(_ sql: SQLFragment, batchSize: Int, _ body: ([SQLRow]) throws -> Bool) throws
    /// Runs a query and hands its rows to `body` one at a time, in order,
    /// each read in place: a row is valid only while `body` runs, and none
    /// is kept. Cost: one pass of the query; on SQLite no memory for the
    /// rows at all, and only the columns `body` reads are decoded.
    func forEachRow(_ sql: SQLFragment, _ body: (any SQLColumnReader) throws -> Void) throws
    /// The first column of every row, none of them NULL.
    func fetchAll<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> [Value]
    /// The first column of the first row; nil when there is no row or it is NULL.
    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> Value?
    /// Runs SQL text with positional arguments; returns the rows it changed.
    /// A backend may run plain text more cheaply than an ``SQL`` literal
    /// (SQLite looks its statement up without building the text again),
    /// which statements of every commit gain from.
    @discardableResult
    func execute(sql: String, arguments: SQLArguments) throws -> Int
    /// The first column of the first row SQL text returns; nil when there
    /// is none or it is NULL. Cheaper than a literal as ``execute(sql:arguments:)`` is.
    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, sql: String, arguments: SQLArguments
    ) throws -> Value?
    /// A statement to run many times with different arguments, prepared
    /// once (SQLite caches it; PostgreSQL gets its text once).
    func prepare(sql: String) throws -> any SQLStatement
    /// Records a change block in `change_transaction`, with a random stamp
    /// and the number of objects it changed, and returns its number: after
    /// every block committed before it, by any process. Called once per
    /// block, inside its write transaction.
    func numberChangeBlock(committedAt date: Date, author: String?, objectCount: Int) throws -> Int64
    /// Has every watcher of the library, in any process, read its
    /// ``WatchedState`` once this transaction commits: a token was revoked.
    func announceTokenRevocation() throws
}

/// A statement prepared by ``SQLConnection/prepare(sql:)``, run with arguments.
package protocol SQLStatement {
    /// Runs the statement; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(arguments: SQLArguments) throws -> Int
    /// Runs the statement (an INSERT … RETURNING, say) and gives the first
    /// column of its first row; nil when there is none or it is NULL.
    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, arguments: SQLArguments) throws -> Value?
    /// Runs the statement (a query) and hands its rows to `body` one at a
    /// time, in order, as ``SQLConnection/forEachRow(_:_:)`` does: each
    /// read in place on SQLite, where nothing of the statement is built
    /// again. Cost: one pass of the query.
    func forEachRow(arguments: SQLArguments, _ body: (any SQLColumnReader) throws -> Void) throws
    /// Runs the statement (a query whose one argument is a row id, a row
    /// looked up by id) as ``forEachRow(arguments:_:)`` does. On SQLite
    /// the id is bound as it is, without a list of arguments to check.
    func forEachRow(id: Int64, _ body: (any SQLColumnReader) throws -> Void) throws
    /// Runs the statement with positional `values`; returns how many rows
    /// it inserted, updated or deleted. On SQLite the values are bound as
    /// they are, without a list of arguments made from them first: that
    /// list cost more than the one-row insert every commit's history makes.
    @discardableResult
    func execute(values: [DatabaseValue]) throws -> Int
}

extension SQLStatement {
    /// The values through a list of arguments, for a backend that binds
    /// nothing more cheaply (PostgreSQL). Cost: as ``execute(arguments:)``.
    @discardableResult
    package func execute(values: [DatabaseValue]) throws -> Int {
        try execute(arguments: SQLArguments(values))
    }

    /// The lookup by id through the list of arguments, for a backend
    /// that binds nothing more cheaply (PostgreSQL). Cost: as
    /// ``forEachRow(arguments:_:)``.
    package func forEachRow(id: Int64, _ body: (any SQLColumnReader) throws -> Void) throws {
        try forEachRow(arguments: [id], body)
    }
}

extension SQLConnection {
    /// The rows, fetched whole first, for a backend whose rows arrive on
    /// another thread and so cannot be read in place.
    package func forEachRow(_ sql: SQLFragment, _ body: (any SQLColumnReader) throws -> Void) throws {
        for row in try fetchAll(SQLRow.self, sql) { try body(row) }
    }

    /// Runs SQL text with positional arguments as a literal; returns the
    /// rows it changed.
    @discardableResult
    package func execute(sql: String, arguments: SQLArguments = []) throws -> Int {
        try execute(SQLFragment(sql: sql, arguments: arguments))
    }

    /// Every row SQL text returns, with positional arguments.
    package func fetchAll(_ type: SQLRow.Type, sql: String, arguments: SQLArguments = []) throws -> [SQLRow] {
        try fetchAll(type, SQLFragment(sql: sql, arguments: arguments))
    }

    /// The first row SQL text returns, if any.
    package func fetchOne(_ type: SQLRow.Type, sql: String, arguments: SQLArguments = []) throws -> SQLRow? {
        try fetchOne(type, SQLFragment(sql: sql, arguments: arguments))
    }

    /// The first column of every row SQL text returns, none of them NULL.
    package func fetchAll<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, sql: String, arguments: SQLArguments = []
    ) throws -> [Value] {
        try fetchAll(type, SQLFragment(sql: sql, arguments: arguments))
    }

    /// The first column of the first row SQL text returns, read through a
    /// literal; nil when there is none or it is NULL.
    package func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, sql: String, arguments: SQLArguments = []
    ) throws -> Value? {
        try fetchOne(type, SQLFragment(sql: sql, arguments: arguments))
    }
}
