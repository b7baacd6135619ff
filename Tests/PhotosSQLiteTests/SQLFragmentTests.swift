import Foundation
import GRDB
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

/// The engine's statement type: text and arguments kept in step however a
/// fragment is built, and run by SQLite as GRDB's own `SQL` literal is.
@Suite struct SQLFragmentTests {
    @Test func interpolatedValuesBecomePlaceholdersInOrder() {
        let name: String? = nil
        let inner: SQLFragment = "b = \(2) AND c IS \(name)"
        let fragment: SQLFragment = "SELECT \(sql: "x") FROM t WHERE a = \(1) AND \(inner) AND d = \("four")"
        #expect(fragment.text == "SELECT x FROM t WHERE a = ? AND b = ? AND c IS ? AND d = ?")
        #expect(fragment.arguments.values == [1.databaseValue, 2.databaseValue, .null, "four".databaseValue])
        #expect(fragment.arguments.description == #"[1, 2, NULL, "four"]"#)
    }

    @Test func joiningAndAppendingKeepTextAndArgumentsInStep() {
        let parts: [SQLFragment] = (1...3).map { "k = \($0)" }
        var joined = parts.joined(separator: " OR ")
        joined += " LIMIT \(10)"
        #expect(joined.text == "k = ? OR k = ? OR k = ? LIMIT ?")
        #expect(joined.arguments == [1, 2, 3, 10])
        #expect(([] as [SQLFragment]).joined(separator: ", ").isEmpty)
        #expect(("a = \(1)" + " AND b = \(2)" as SQLFragment).arguments == [1, 2])
    }

    /// The same statement written as a fragment and as GRDB's `SQL` gives
    /// the same rows from SQLite, for values of every storage class.
    @Test(arguments: [DatabaseValue.null, 7.databaseValue, 2.5.databaseValue, "é'\"?".databaseValue, Data([0, 1, 2]).databaseValue])
    func sqliteRunsAFragmentAsGRDBRunsItsOwnLiteral(value: DatabaseValue) throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let ours: SQLFragment = "SELECT \(value) AS v, '?' AS literal, \(value) IS \(value) AS same"
            let connection = SQLiteConnection(db: db, prepared: nil)
            let row = try #require(try connection.fetchOne(SQLRow.self, ours))
            let grdb = try #require(try Row.fetchOne(db.makeStatement(literal: "SELECT \(value) AS v, '?' AS literal, \(value) IS \(value) AS same")))
            #expect(row.values == [grdb["v"] as DatabaseValue, grdb["literal"] as DatabaseValue, grdb["same"] as DatabaseValue])
        }
    }
}
