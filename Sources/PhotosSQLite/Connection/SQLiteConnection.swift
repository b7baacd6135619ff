import Foundation
import GRDB
import GRDBSQLite
import PhotosStore

/// A GRDB database connection inside one of its transactions, as the
/// engine's ``SQLConnection``. Every statement goes through GRDB's
/// statement cache, so a statement run again is not compiled again.
struct SQLiteConnection: SQLConnection {
    let db: Database
    /// Statements kept prepared on this connection, when it has them (a
    /// reader's); else ``prepare(sql:)`` uses GRDB's cache.
    var prepared: PreparedStatements?

    var dialect: SQLDialect { .sqlite }

    func execute(_ sql: SQLFragment) throws -> Int {
        try statement(sql).execute()
        return db.changesCount
    }

    /// Plain text goes to GRDB's statement cache as it is; a literal
    /// would first be built into text again (a few microseconds, which
    /// every commit's statements paid).
    func execute(sql: String, arguments: SQLArguments) throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: arguments.statementArguments)
        return db.changesCount
    }

    /// Plain text, as ``execute(sql:arguments:)``. A statement without
    /// parameters (a commit's look-up of a setting, say) is stepped with
    /// SQLite's own calls: GRDB's cursor around it cost several times the
    /// look-up.
    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, sql: String, arguments: SQLArguments
    ) throws -> Value? {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        guard arguments.isEmpty, sqlite3_bind_parameter_count(handle) == 0 else {
            return try Value.fetchOne(statement, arguments: arguments.statementArguments)
        }
        defer { sqlite3_reset(handle) }
        sqlite3_reset(handle)
        switch sqlite3_step(handle) {
        case SQLITE_DONE:
            return nil
        case SQLITE_ROW:
            guard sqlite3_column_type(handle, 0) != SQLITE_NULL else { return nil }
            guard let value = Value(sqliteStatement: handle, index: 0) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "the value is not a \(Value.self)", sql: sql)
            }
            return value
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
        }
    }

    func fetchAll(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try forEachStatementRow(sql) { row in
            rows.append(row.copy())
            return true
        }
        return rows
    }

    func scan(_ sql: SQLFragment, batchSize: Int, _ body: ([SQLRow]) throws -> Bool) throws {
        var batch: [SQLRow] = []
        batch.reserveCapacity(batchSize)
        var stopped = false
        try forEachStatementRow(sql) { row in
            batch.append(row.copy())
            if batch.count == batchSize {
                stopped = try !body(batch)
                batch.removeAll(keepingCapacity: true)
            }
            return !stopped
        }
        if !stopped && !batch.isEmpty { _ = try body(batch) }
    }

    func forEachRow(_ sql: SQLFragment, _ body: (any SQLColumnReader) throws -> Void) throws {
        try Self.forEachReaderRow(of: statement(sql), arguments: nil, body)
    }

    func fetchOne(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> SQLRow? {
        var first: SQLRow?
        try forEachStatementRow(sql) { row in
            first = row.copy()
            return false
        }
        return first
    }

    /// Steps a query's statement, handing `body` the row it stands on
    /// after each step, until the rows run out or `body` returns false.
    /// GRDB's cursor of column values only steps the statement, where a
    /// `Row` cursor first builds a table of its columns' lowercased names
    /// (microseconds, which a lookup of one row by id would pay every time).
    private func forEachStatementRow(_ sql: SQLFragment, _ body: (StatementRow) throws -> Bool) throws {
        try Self.forEachRow(of: statement(sql), arguments: nil, body)
    }

    /// Steps `statement`, with `arguments` when given, as ``forEachStatementRow(_:_:)`` does.
    fileprivate static func forEachRow(of statement: Statement, arguments: StatementArguments?, _ body: (StatementRow) throws -> Bool) throws {
        let row = StatementRow(statement: statement.sqliteStatement, columns: statement.columnNames)
        let cursor = try RowStep.fetchCursor(statement, arguments: arguments)
        while try cursor.next() != nil {
            guard try body(row) else { return }
        }
    }

    /// Steps `statement` as ``forEachRow(of:arguments:_:)`` does, handing
    /// `body` the row as a reader made once: a reader made for each row
    /// would retain the column names, and release them, every time.
    fileprivate static func forEachReaderRow(
        of statement: Statement, arguments: StatementArguments?,
        _ body: (any SQLColumnReader) throws -> Void
    ) throws {
        let row: any SQLColumnReader = StatementRow(statement: statement.sqliteStatement, columns: statement.columnNames)
        // `forEach` checks once that the statement runs; each `next()` would check again and retain the cursor.
        try RowStep.fetchCursor(statement, arguments: arguments).forEach { _ in try body(row) }
    }

    /// Row ids, the commonest list by far (every fetch's result), come
    /// through a cursor of `Int64` itself, whose stepping the compiler
    /// specialises; GRDB's generic `fetchAll`, called with a type known only
    /// at run time, looks up type metadata for every row, which took about
    /// a fifth of a fetch of 10,000 ids.
    func fetchAll<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> [Value] {
        let statement = try self.statement(sql)
        guard Value.self == Int64.self else { return try Value.fetchAll(statement) }
        var ids: [Int64] = []
        // `forEach` checks once that the statement is running, where each
        // `next()` would check again and retain the cursor: about 6 % of
        // reading 10,000 ids.
        try Int64.fetchCursor(statement).forEach { ids.append($0) }
        // The same type, checked above: no copy and no cast per element.
        return unsafeBitCast(ids, to: [Value].self)
    }

    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> Value? {
        try Value.fetchOne(statement(sql))
    }

    /// The cached statement of a fragment's text, its arguments bound and checked.
    private func statement(_ fragment: SQLFragment) throws -> Statement {
        let statement = try db.cachedStatement(sql: fragment.text)
        try statement.setArguments(fragment.arguments.statementArguments)
        return statement
    }

    func prepare(sql: String) throws -> any SQLStatement {
        Prepared(db: db, statement: try prepared?.statement(sql, in: db) ?? db.cachedStatement(sql: sql))
    }

    /// SQLite has one writer at a time, so the next row id is the next
    /// number in commit order.
    func numberChangeBlock(committedAt date: Date, author: String?, objectCount: Int) throws -> Int64 {
        guard
            let number = try fetchOne(
                Int64.self,
                sql: """
                    INSERT INTO change_transaction (committed_at, author, stamp, object_count) VALUES (?, ?, ?, ?) RETURNING id
                    """, arguments: [date.timeIntervalSince1970, author, Int64.random(in: 1...Int64.max), objectCount])
        else {
            throw StoreError.database("numbering a change block returned no number")
        }
        return number
    }

    /// Nothing to send: the revoking transaction's write to the log wakes
    /// every ``FileCommitWatcher`` as a commit does.
    func announceTokenRevocation() throws {}

    private struct Prepared: SQLStatement {
        let db: Database
        let statement: Statement

        func execute(arguments: SQLArguments) throws -> Int {
            try statement.execute(arguments: arguments.statementArguments)
            return db.changesCount
        }

        func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, arguments: SQLArguments) throws -> Value? {
            try Value.fetchOne(statement, arguments: arguments.statementArguments)
        }

        func forEachRow(arguments: SQLArguments, _ body: (any SQLColumnReader) throws -> Void) throws {
            try SQLiteConnection.forEachReaderRow(of: statement, arguments: arguments.statementArguments, body)
        }

        /// Binds the values and steps the statement with SQLite's own
        /// calls, as ``forEachRow(id:_:)`` does; a statement that returns
        /// rows is stepped through them.
        func execute(values: [DatabaseValue]) throws -> Int {
            let handle = statement.sqliteStatement
            defer { sqlite3_reset(handle) }
            sqlite3_reset(handle)
            guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_RANGE,
                    message: """
                        \(values.count) values for a statement of \(sqlite3_bind_parameter_count(handle)) parameters
                        """, sql: statement.sql)
            }
            var code = SQLITE_OK
            for (offset, value) in values.enumerated() where code == SQLITE_OK {
                code = value.bind(to: handle, at: CInt(offset + 1))
            }
            if code == SQLITE_OK {
                repeat { code = sqlite3_step(handle) } while code == SQLITE_ROW
                if code == SQLITE_DONE { return db.changesCount }
            }
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage,
                sql: statement.sql, arguments: StatementArguments(values))
        }

        /// Binds the id and steps the statement with SQLite's own calls:
        /// GRDB's cursor, with its list of arguments to check and bind,
        /// was a seventh of a lookup by id. A read on this connection
        /// outside a transaction needs none of the bookkeeping GRDB does
        /// around a statement that may write or begin one.
        func forEachRow(id: Int64, _ body: (any SQLColumnReader) throws -> Void) throws {
            let handle = statement.sqliteStatement
            defer { sqlite3_reset(handle) }
            sqlite3_reset(handle)
            var code = sqlite3_bind_int64(handle, 1, id)
            if code == SQLITE_OK {
                let row: any SQLColumnReader = StatementRow(statement: handle, columns: statement.columnNames)
                repeat {
                    code = sqlite3_step(handle)
                    if code == SQLITE_ROW { try body(row) }
                } while code == SQLITE_ROW
                if code == SQLITE_DONE { return }
            }
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage,
                sql: statement.sql, arguments: [id])
        }
    }
}

/// The row a statement stands on, read in place: each column is decoded
/// from SQLite when it is asked for, and nothing is copied before.
private struct StatementRow: SQLColumnReader {
    let statement: SQLiteStatement
    let columns: [String]

    func value(at index: Int) -> DatabaseValue {
        DatabaseValue(sqliteStatement: statement, index: CInt(index))
    }

    func columnName(at index: Int) -> String { columns[index] }

    /// Through the column's value: each `sqlite3_column_*` call enters
    /// and leaves the connection, which for a type and then an integer is
    /// two round trips where one does. The value is read at once, on the
    /// thread that holds the connection, while the row is current.
    func integer(at index: Int) -> Int64? {
        let value = sqlite3_column_value(statement, CInt(index))
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// Through the column's value, as ``integer(at:)``; invalid UTF-8 is
    /// repaired, as GRDB does.
    func text(at index: Int) -> String? {
        let value = sqlite3_column_value(statement, CInt(index))
        guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// SQLite's own bytes for the column, unvalidated: a reader of them
    /// repairs or rejects invalid UTF-8 itself.
    func withUTF8Text<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let value = sqlite3_column_value(statement, CInt(index))
        guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else { return nil }
        return body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    /// Through the column's value, as ``integer(at:)``.
    func real(at index: Int) -> Double? {
        let value = sqlite3_column_value(statement, CInt(index))
        return sqlite3_value_type(value) == SQLITE_FLOAT ? sqlite3_value_double(value) : nil
    }

    /// The row's values, kept.
    func copy() -> SQLRow {
        SQLRow(columns: columns, values: (0..<columns.count).map(value(at:)))
    }
}

/// The element of a cursor that only steps its statement, for a reader
/// that reads the row in place (``StatementRow``).
private struct RowStep: DatabaseValueConvertible, StatementColumnConvertible {
    /// A step, whatever the row holds, NULLs included.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> RowStep? {
        RowStep()
    }

    init() {}

    init(sqliteStatement: SQLiteStatement, index: CInt) {}

    /// A step is never written as a value.
    var databaseValue: DatabaseValue { .null }

    /// A step is never read from a value.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> RowStep? { nil }
}
