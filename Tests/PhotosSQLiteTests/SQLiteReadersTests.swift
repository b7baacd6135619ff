import Foundation
import GRDB
import GRDBSQLite
import PhotosTestSupport
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

/// The store's reader connections always read the library as it is now.
@Suite struct SQLiteReadersTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("readers")
    }

    private static func commitAsset(_ store: SQLitePhotoStore) throws {
        var changes = ChangeSet()
        changes.newAssets = [
            NewAsset(
                record: AssetRecord(
                    uuid: UUID().uuidString, mediaType: .image, modificationDate: Date(),
                    addedDate: Date(), playbackStyle: .image), resources: [])
        ]
        _ = try store.beginCommit().commit(changes)
    }

    /// A statement a read leaves unfinished would keep its connection's
    /// snapshot, and every later read on that connection would miss what
    /// other connections commit; the readers end such statements.
    @Test func aStatementLeftSteppingDoesNotFreezeWhatLaterReadsSee() throws {
        let url = scratch.url.appendingPathComponent("L.photoslibrary")
        let reader = try SQLitePhotoStore(url: url)
        let writer = try SQLitePhotoStore(url: url)
        try Self.commitAsset(writer)
        try Self.commitAsset(writer)
        var unfinished: Statement?
        try reader.readDatabase { db in
            let statement = try db.makeStatement(sql: "SELECT id FROM change_transaction")
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
            unfinished = statement
        }
        let before = try reader.lastChangeBlock()
        try Self.commitAsset(writer)
        #expect(try reader.lastChangeBlock() == before + 1)
        #expect(try reader.readStatement { try HistoryLog.lastChangeBlock($0) } == before + 1)
        withExtendedLifetime(unfinished) {}
    }
}
