import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

/// Lists as the engine writes them into statements. Ids: the same text as
/// each id's own decimal form joined by commas, whatever the ids, and read
/// back by SQLite as the same ids in the same order. Texts: JSON that a
/// JSON decoder and SQLite both read back as the same texts, whatever
/// characters they hold.
@Suite struct SQLDialectTests {
    static let edges: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func idListsAreEachIdInDecimal(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let lists: [[Int64]] = [
            [], Self.edges, (0..<1000).map { _ in Int64.random(in: .min ... .max, using: &random) },
            (0..<1000).map { _ in Int64.random(in: 0...1_000_000, using: &random) },
        ]
        for ids in lists {
            let decimal = ids.map(String.init).joined(separator: ",")
            #expect(SQLDialect.json(ids) == "[\(decimal)]")
            #expect(SQLDialect.arrayLiteral(ids) == "{\(decimal)}")
        }
        let queue = try DatabaseQueue()
        let read = try queue.read { db in
            try SQLiteConnection(db: db).fetchAll(Int64.self, "SELECT value FROM \(SQLDialect.sqlite.table(of: lists[2], alias: .listElement)) ORDER BY k.key")
        }
        #expect(read == lists[2])
    }

    /// Characters that JSON escapes or that take several bytes, mixed with plain ones.
    static let awkward: [Character] = ["\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "😀", "a", "Z", "0", " ", "'"]

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func textListsReadBackAsTheSameTexts(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let texts: [String] =
            [""] + Self.awkward.map(String.init)
            + (0..<500).map { _ in
                String((0..<Int.random(in: 0...12, using: &random)).map { _ in Self.awkward.randomElement(using: &random)! })
            } + [UUID().uuidString]
        let json = SQLDialect.json(texts)
        #expect(try JSONDecoder().decode([String].self, from: Data(json.utf8)) == texts)
        #expect(SQLDialect.json([String]()) == "[]")
        // SQLite's JSON functions end a text at a NUL, which no UUID holds.
        let storable = texts.filter { !$0.unicodeScalars.contains("\u{0}") }
        let queue = try DatabaseQueue()
        let read = try queue.read { db in
            try SQLiteConnection(db: db).fetchAll(String.self, "SELECT value FROM \(SQLDialect.sqlite.table(of: storable, alias: .listElement)) ORDER BY k.key")
        }
        #expect(read == storable)
    }
}
