import Foundation
import GRDB
import Testing
@testable import PhotosStore

/// Rows read through ``SQLiteConnection`` come straight from SQLite's
/// statement, column by column: every value as SQLite holds it, whichever
/// column is NULL, in every way of reading them.
@Suite struct SQLiteConnectionTests {
    static let query: SQL = """
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
}
