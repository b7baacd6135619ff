import Foundation
import GRDB
import PhotosTestSupport
import Testing
@testable import PhotosStore

/// Lists of ids as the engine writes them into statements: the same text
/// as each id's own decimal form joined by commas, whatever the ids, and
/// read back by SQLite as the same ids in the same order.
@Suite struct SQLDialectTests {
    static let edges: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func idListsAreEachIdInDecimal(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let lists: [[Int64]] = [[], Self.edges, (0..<1000).map { _ in Int64.random(in: .min ... .max, using: &random) },
                                (0..<1000).map { _ in Int64.random(in: 0...1_000_000, using: &random) }]
        for ids in lists {
            let decimal = ids.map(String.init).joined(separator: ",")
            #expect(SQLDialect.json(ids) == "[\(decimal)]")
            #expect(SQLDialect.arrayLiteral(ids) == "{\(decimal)}")
        }
        let queue = try DatabaseQueue()
        let read = try queue.read { db in
            try SQLiteConnection(db: db).fetchAll(Int64.self, "SELECT value FROM \(SQLDialect.sqlite.table(of: lists[2], alias: "k")) ORDER BY k.key")
        }
        #expect(read == lists[2])
    }
}
