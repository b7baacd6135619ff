import Foundation
import GRDB

/// A GRDB database connection inside one of its transactions, as the
/// engine's ``SQLConnection``. Every statement goes through GRDB's
/// statement cache, so a statement run again is not compiled again.
struct SQLiteConnection: SQLConnection {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    func execute(_ sql: SQL) throws -> Int {
        try db.cachedStatement(literal: sql).execute()
        return db.changesCount
    }

    func fetchAll(_ type: SQLRow.Type, _ sql: SQL) throws -> [SQLRow] {
        let statement = try db.cachedStatement(literal: sql)
        let columns = statement.columnNames
        let cursor = try Row.fetchCursor(statement)
        var rows: [SQLRow] = []
        while try cursor.next() != nil {
            rows.append(Self.sqlRow(statement, columns: columns))
        }
        return rows
    }

    func scan(_ sql: SQL, batchSize: Int, _ body: ([SQLRow]) throws -> Bool) throws {
        let statement = try db.cachedStatement(literal: sql)
        let columns = statement.columnNames
        let cursor = try Row.fetchCursor(statement)
        var batch: [SQLRow] = []
        batch.reserveCapacity(batchSize)
        while try cursor.next() != nil {
            batch.append(Self.sqlRow(statement, columns: columns))
            if batch.count == batchSize {
                guard try body(batch) else { return }
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = try body(batch) }
    }

    func fetchOne(_ type: SQLRow.Type, _ sql: SQL) throws -> SQLRow? {
        let statement = try db.cachedStatement(literal: sql)
        let columns = statement.columnNames
        let cursor = try Row.fetchCursor(statement)
        // The cursor resets the statement when it goes: keep it until the row is read.
        return try withExtendedLifetime(cursor) {
            try cursor.next().map { _ in Self.sqlRow(statement, columns: columns) }
        }
    }

    /// The row `statement` stands on, as the engine's row named by its
    /// `columns`: each value is read from SQLite directly, without the
    /// generic decoding a GRDB `Row` goes through for every column.
    private static func sqlRow(_ statement: Statement, columns: [String]) -> SQLRow {
        let sqliteStatement = statement.sqliteStatement
        return SQLRow(columns: columns, values: (0..<CInt(columns.count)).map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0) })
    }

    func fetchAll<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQL) throws -> [Value] {
        try Value.fetchAll(db.cachedStatement(literal: sql))
    }

    func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQL) throws -> Value? {
        try Value.fetchOne(db.cachedStatement(literal: sql))
    }

    func prepare(sql: String) throws -> any SQLStatement {
        Prepared(db: db, statement: try db.cachedStatement(sql: sql))
    }

    /// SQLite has one writer at a time, so the next row id is the next
    /// number in commit order.
    func numberChangeBlock(committedAt date: Date, author: String?) throws -> Int64 {
        guard let number = try fetchOne(Int64.self, sql: "INSERT INTO change_transaction (committed_at, author, stamp) VALUES (?, ?, ?) RETURNING id",
                                        arguments: [date.timeIntervalSince1970, author, Int64.random(in: 1...Int64.max)]) else {
            throw StoreError.database("numbering a change block returned no number")
        }
        return number
    }

    private struct Prepared: SQLStatement {
        let db: Database
        let statement: Statement

        func execute(arguments: StatementArguments) throws -> Int {
            try statement.execute(arguments: arguments)
            return db.changesCount
        }

        func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, arguments: StatementArguments) throws -> Value? {
            try Value.fetchOne(statement, arguments: arguments)
        }
    }
}
