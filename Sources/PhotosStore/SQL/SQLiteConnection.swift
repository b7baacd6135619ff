import Foundation
import GRDB
import GRDBSQLite

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
        let cursor = try RowValues.fetchCursor(statement)
        var rows: [SQLRow] = []
        while let row = try cursor.next() {
            rows.append(SQLRow(columns: columns, values: row.values))
        }
        return rows
    }

    func scan(_ sql: SQL, batchSize: Int, _ body: ([SQLRow]) throws -> Bool) throws {
        let statement = try db.cachedStatement(literal: sql)
        let columns = statement.columnNames
        let cursor = try RowValues.fetchCursor(statement)
        var batch: [SQLRow] = []
        batch.reserveCapacity(batchSize)
        while let row = try cursor.next() {
            batch.append(SQLRow(columns: columns, values: row.values))
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
        return try RowValues.fetchCursor(statement).next().map { SQLRow(columns: columns, values: $0.values) }
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
    func numberChangeBlock(committedAt date: Date, author: String?, objectCount: Int) throws -> Int64 {
        guard let number = try fetchOne(Int64.self, sql: """
            INSERT INTO change_transaction (committed_at, author, stamp, object_count) VALUES (?, ?, ?, ?) RETURNING id
            """, arguments: [date.timeIntervalSince1970, author, Int64.random(in: 1...Int64.max), objectCount]) else {
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

/// The values of the row a statement stands on, read column by column
/// straight from SQLite, as the element of GRDB's cursor of column values.
/// That cursor only steps the statement, where a `Row` cursor first builds
/// a table of its columns' lowercased names (microseconds, which a lookup
/// of one row by id would pay every time), and a `Row` decodes each value
/// through a generic conversion.
private struct RowValues: DatabaseValueConvertible, StatementColumnConvertible {
    let values: [DatabaseValue]

    /// Reads the whole row, whichever column the cursor names (the first),
    /// and whether or not that column is NULL.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> RowValues? {
        RowValues(sqliteStatement: sqliteStatement, index: index)
    }

    init(sqliteStatement: SQLiteStatement, index: CInt) {
        values = (0..<sqlite3_column_count(sqliteStatement)).map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0) }
    }

    /// A row is never written as one value.
    var databaseValue: DatabaseValue { .null }

    /// A row is never read from one value.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> RowValues? { nil }
}
