import Foundation
import GRDB
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

/// Rows read through ``SQLiteConnection`` come straight from SQLite's
/// statement, column by column: every value as SQLite holds it, whichever
/// column is NULL, in every way of reading them.
@Suite struct SQLiteConnectionTests {
    static let query: SQLFragment = """
        SELECT NULL AS a, 1 AS b, 'x' AS c, 2.5 AS d UNION ALL SELECT 2, NULL, x'00ff', 'y'
        """

    static let expected: [[DatabaseValue]] = [
        [.null, 1.databaseValue, "x".databaseValue, 2.5.databaseValue],
        [2.databaseValue, .null, Data([0, 255]).databaseValue, "y".databaseValue],
    ]

    @Test func rowsKeepEveryValueWhicheverColumnIsNull() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let connection = SQLiteConnection(db: db)
            let rows = try connection.fetchAll(SQLRow.self, Self.query)
            #expect(rows.map(\.values) == Self.expected)
            #expect(rows.allSatisfy { $0.columns == ["a", "b", "c", "d"] })
            #expect(try connection.fetchOne(SQLRow.self, Self.query)?.values == Self.expected[0])
            #expect(try connection.fetchOne(SQLRow.self, "SELECT 1 WHERE 0") == nil)
            var scanned: [[DatabaseValue]] = []
            try connection.scan(Self.query, batchSize: 1) { batch in
                scanned += batch.map(\.values)
                return true
            }
            #expect(scanned == Self.expected)
            #expect(try rows[1]["c"] as Data == Data([0, 255]))
        }
    }

    /// A row read in place decodes integers, reals and text straight from the statement;
    /// what it reads, converts and refuses must be what a kept row does.
    @Test func integersAndTextReadInPlaceAgreeWithKeptRows() throws {
        let query: SQLFragment = "SELECT 7 AS i, 3.0 AS whole, 2.5 AS half, NULL AS n, 'y' AS t, 0 AS zero"
        /// What one read gave: a value, or a thrown error.
        enum Outcome<Value: Equatable>: Equatable {
            case value(Value)
            case threw
            init(_ read: () throws -> Value) {
                do { self = .value(try read()) } catch { self = .threw }
            }
        }
        struct Reads: Equatable {
            var int64: [Outcome<Int64>] = [], int: [Outcome<Int>] = [], bool: [Outcome<Bool>] = []
            var optional: [Outcome<Int64?>] = [], text: [Outcome<String>] = []
            var optionalText: [Outcome<String?>] = [], real: [Outcome<Double>] = [], optionalReal: [Outcome<Double?>] = []
        }
        func read(_ row: some SQLColumnReader) -> Reads {
            var reads = Reads()
            for column in 0..<6 {
                reads.int64.append(Outcome { try row[column] as Int64 })
                reads.int.append(Outcome { try row[column] as Int })
                reads.bool.append(Outcome { try row[column] as Bool })
                reads.optional.append(Outcome { try row[column] as Int64? })
                reads.text.append(Outcome { try row[column] as String })
                reads.optionalText.append(Outcome { try row[column] as String? })
                reads.real.append(Outcome { try row[column] as Double })
                reads.optionalReal.append(Outcome { try row[column] as Double? })
            }
            return reads
        }
        let queue = try DatabaseQueue()
        try queue.read { db in
            let connection = SQLiteConnection(db: db)
            var inPlace: [Reads] = []
            try connection.forEachRow(query) { inPlace.append(read($0)) }
            let kept = try #require(try connection.fetchOne(SQLRow.self, query))
            #expect(inPlace == [read(kept)])
            // GRDB's own conversions: a REAL is taken toward zero, NULL and text are refused.
            #expect(inPlace.first?.int64 == [.value(7), .value(3), .value(2), .threw, .threw, .value(0)])
            #expect(inPlace.first?.int == [.value(7), .value(3), .value(2), .threw, .threw, .value(0)])
            #expect(inPlace.first?.bool == [.value(true), .value(true), .value(true), .threw, .threw, .value(false)])
            #expect(inPlace.first?.optional == [.value(7), .value(3), .value(2), .value(nil), .threw, .value(0)])
            #expect(inPlace.first?.text == [.threw, .threw, .threw, .threw, .value("y"), .threw])
            #expect(inPlace.first?.optionalText == [.threw, .threw, .threw, .value(nil), .value("y"), .threw])
            // An integer is taken as a real; text is refused.
            #expect(inPlace.first?.real == [.value(7), .value(3), .value(2.5), .threw, .threw, .value(0)])
            #expect(inPlace.first?.optionalReal == [.value(7), .value(3), .value(2.5), .value(nil), .threw, .value(0)])
        }
    }

    /// A statement prepared once and run with arguments hands over the
    /// same rows, read in place, as the statement rendered with them.
    @Test func aPreparedStatementReadsTheRowsOfItsArguments() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, size REAL)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'one', 1.5), (2, NULL, NULL), (3, 'three', 3)")
        }
        try queue.read { db in
            let connection = SQLiteConnection(db: db)
            let statement = try connection.prepare(sql: "SELECT id, name, size FROM t WHERE id >= ? ORDER BY id")
            for first in [Int64(0), 2, 3, 4] {
                var prepared: [[DatabaseValue]] = []
                var rendered: [[DatabaseValue]] = []
                try statement.forEachRow(arguments: [first]) { row in prepared.append((0..<3).map(row.value(at:))) }
                try connection.forEachRow("SELECT id, name, size FROM t WHERE id >= \(first) ORDER BY id") { row in
                    rendered.append((0..<3).map(row.value(at:)))
                }
                #expect(prepared == rendered)
                #expect(prepared.count == max(0, 4 - Int(max(first, 1))))
            }
        }
    }

    /// Lists of ids fetched by their first column: row ids (which take a
    /// path of their own) and other values alike, in the query's order.
    @Test func firstColumnsComeInOrder() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let connection = SQLiteConnection(db: db)
            let ids = try connection.fetchAll(Int64.self, "SELECT value FROM json_each('[3, -1, 9223372036854775807, 0]')")
            #expect(ids == [3, -1, .max, 0])
            #expect(try connection.fetchAll(Int64.self, "SELECT 1 WHERE 0").isEmpty)
            #expect(try connection.fetchAll(String.self, "SELECT value FROM json_each('[\"b\", \"a\"]')") == ["b", "a"])
        }
    }

    /// A row looked up by id, with the id bound by SQLite's own calls, reads
    /// what the same statement with a list of arguments reads, again and
    /// again on a statement kept prepared; a missing id reads nothing, and a
    /// statement without a parameter fails with SQLite's error, not a crash.
    @Test func aLookupByIdReadsWhatTheStatementWithArgumentsReads() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            for id in 1...5 { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [id, "row \(id)"]) }
        }
        let select = "SELECT id, name FROM t WHERE id = ?"
        let kept = PreparedStatements()
        try queue.read { db in
            let connection = SQLiteConnection(db: db, prepared: kept)
            for id: Int64 in [3, 1, 5, 3, 9] {
                var byID: [[DatabaseValue]] = []
                var byArguments: [[DatabaseValue]] = []
                try connection.prepare(sql: select).forEachRow(id: id) { byID.append([$0.value(at: 0), $0.value(at: 1)]) }
                try SQLiteConnection(db: db).prepare(sql: select).forEachRow(arguments: [id]) {
                    byArguments.append([$0.value(at: 0), $0.value(at: 1)])
                }
                #expect(byID == byArguments)
                #expect(byID.count == (id <= 5 ? 1 : 0))
            }
            #expect(try kept.statement(select, in: db) === kept.statement(select, in: db))
            #expect(throws: DatabaseError.self) {
                try connection.prepare(sql: "SELECT 1").forEachRow(id: 1) { _ in }
            }
        }
    }

    /// Values bound with SQLite's own calls write what a list of arguments
    /// writes, NULL and text included, and a wrong count is refused
    /// before anything is written.
    @Test func valuesBoundDirectlyWriteWhatArgumentsWrite() throws {
        let queue = try DatabaseQueue()
        try queue.write { (db: Database) throws -> Void in
            let connection = SQLiteConnection(db: db)
            _ = try connection.execute("CREATE TABLE t (a, b, c, d)")
            let insert = try connection.prepare(sql: "INSERT INTO t VALUES (?, ?, ?, ?)")
            for row in Self.expected {
                #expect(try insert.execute(values: row) == 1)
                try insert.execute(arguments: SQLArguments(row))
            }
            #expect(throws: DatabaseError.self) { try insert.execute(values: [1.databaseValue]) }
            let written = try connection.fetchAll(SQLRow.self, "SELECT a, b, c, d FROM t ORDER BY rowid").map(\.values)
            #expect(written == [Self.expected[0], Self.expected[0], Self.expected[1], Self.expected[1]])
            #expect(try connection.execute(sql: "DELETE FROM t WHERE a IS NULL", arguments: SQLArguments()) == 2)
        }
    }

    /// A look-up without parameters, stepped directly, answers as GRDB's
    /// cursor does: the first row's first column, nil for no row or NULL.
    @Test func aLookupWithoutParametersAnswersAsWithThem() throws {
        let queue = try DatabaseQueue()
        try queue.read { (db: Database) throws -> Void in
            let connection = SQLiteConnection(db: db)
            let none = SQLArguments()
            #expect(try connection.fetchOne(String.self, sql: "SELECT 'x' UNION ALL SELECT 'y'", arguments: none) == "x")
            #expect(try connection.fetchOne(String.self, sql: "SELECT ? UNION ALL SELECT 'y'", arguments: ["x"]) == "x")
            #expect(try connection.fetchOne(Int64.self, sql: "SELECT NULL", arguments: none) == nil)
            #expect(try connection.fetchOne(Int64.self, sql: "SELECT 1 WHERE 0", arguments: none) == nil)
            #expect(try connection.fetchOne(Int64.self, sql: "SELECT '42'", arguments: none) == 42)
            #expect(throws: DatabaseError.self) { try connection.fetchOne(Int64.self, sql: "SELECT ?", arguments: none) }
            // The statement is left reset: the next look-up starts again from its first row.
            #expect(try connection.fetchOne(String.self, sql: "SELECT 'x' UNION ALL SELECT 'y'", arguments: none) == "x")
        }
    }
}
