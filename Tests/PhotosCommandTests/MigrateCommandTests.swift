import Foundation
import PhotosObjectStorage
import PhotosPostgres
import PhotosStore
import PhotosTestSupport
import Testing

/// `photos migrate`: a library directory copied into PostgreSQL is the
/// same library (identifiers, albums, folders, grants, tokens, history),
/// verified; a copy that cannot be made whole leaves nothing behind.
@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct MigrateCommandTests {
    /// What a library shows through the command, to compare two libraries.
    private static let views: [[String]] = [
        ["ls", "--json"], ["album", "ls", "--json"], ["folder", "ls"],
        ["access", "ls", "--json"], ["token", "ls", "--json"],
    ]

    /// A library directory with two photos imported.
    private static func libraryWithTwoPhotos() throws -> CommandLineTool {
        let tool = try CommandLineTool()
        try #require(tool.run("init").status == 0)
        try tool.photo("IMG_1.JPG")
        try tool.photo("IMG_2.JPG", shade: 0.5)
        try #require(tool.run("import", "card").status == 0)
        return tool
    }

    @Test func aLibraryDirectoryMovesIntoPostgreSQLAsTheSameLibrary() throws {
        let server = try #require(TestPostgresServer.current)
        let tool = try CommandLineTool()
        try #require(tool.run("init").status == 0)
        for index in 1...4 { try tool.photo("IMG_\(index).JPG", taken: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 86_400)) }
        try #require(tool.run("import", "card").status == 0)
        let identifiers = try #require((tool.run("ls", "--json").json as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String })
        try #require(identifiers.count == 4)
        // The folder is made after the album it holds: a parent with the larger row id.
        for command in [
            ["album", "create", "Trip"], ["album", "add", "Trip", identifiers[0], identifiers[1]], ["folder", "create", "Years"],
            ["folder", "add", "Years", "Trip"], ["favorite", identifiers[2]],
            ["access", "grant", "com.example.viewer", "--limited", identifiers[0]],
            ["token", "create", "--owner", "--label", "laptop"],
        ] {
            let run = try tool.run(command)
            try #require(run.status == 0, "\(command): \(run.errors)")
        }
        let token = try #require(tool.run("changes").lines.last)
        // The newest asset is deleted for good: its row id must never be given again.
        try #require(tool.run("delete", identifiers[3]).status == 0)
        try #require(tool.run("trash", "empty").status == 0)
        let before = try Self.views.map { try tool.run($0).output }
        let changesBefore = try tool.run("changes", "--since", token).output

        let library = server.newLibraryURL().absoluteString
        let shared = tool.directory.appendingPathComponent("shared", isDirectory: true)
        let migrated = try tool.run("migrate", "--to", library, "--originals", "file://" + shared.path, "--json")
        #expect(migrated.status == 0, "\(migrated.errors)")
        let report = try #require(migrated.json as? [String: Any])
        #expect(report["assets"] as? Int == 3)
        #expect(report["files"] as? Int == 3)
        #expect(report["verified"] as? Bool == true)

        let onPostgres = ["PHOTOS_LIBRARY": library]
        #expect(try Self.views.map { try tool.run($0, environment: onPostgres).output } == before)
        #expect(
            try tool.run(["changes", "--since", token], environment: onPostgres).output == changesBefore,
            "a change token of the directory library reads the same history in PostgreSQL")
        let check = try tool.run(["check"], environment: onPostgres)
        #expect(check.status == 0, "\(check.output)\(check.errors)")

        // New rows continue after every id the directory library ever gave.
        try tool.photo("IMG_5.JPG", in: "later")
        try #require(tool.run(["import", "later"], environment: onPostgres).status == 0)
        let store = try PostgresPhotoStore(url: URL(string: library)!, options: StoreOpenOptions(createIfNeeded: false))
        #expect(try store.read { db in try db.fetchOne(Int64.self, sql: "SELECT MAX(id) FROM asset") } == 5)
        let blocks = try store.read { db in try db.fetchAll(Int64.self, sql: "SELECT id FROM change_transaction ORDER BY id") }
        #expect(blocks == Array(1...Int64(blocks.count)), "history numbers carry on without a gap")

        // A library that holds anything is not a destination.
        let again = try tool.run("migrate", "--to", library)
        #expect(again.status != 0)
        #expect(again.errors.contains("new or empty"), "\(again.errors)")
        #expect((try tool.run(["ls", "--json"], environment: onPostgres).json as? [Any])?.count == 4, "the library is as it was")
    }

    @Test func aCopyThatCannotBeMadeWholeLeavesTheDestinationEmpty() throws {
        let server = try #require(TestPostgresServer.current)
        let tool = try Self.libraryWithTwoPhotos()
        // An original cut short behind the library's back.
        let originals = tool.library.appendingPathComponent("originals")
        let damaged = try #require(FileManager.default.subpathsOfDirectory(atPath: originals.path).first { $0.hasSuffix(".jpg") })
        try Data("short".utf8).write(to: originals.appendingPathComponent(damaged))

        let library = server.newLibraryURL().absoluteString
        let shared = tool.directory.appendingPathComponent("shared", isDirectory: true)
        let refused = try tool.run("migrate", "--to", library, "--originals", "file://" + shared.path)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("bytes where the library recorded"), "\(refused.errors)")
        let onPostgres = ["PHOTOS_LIBRARY": library]
        #expect((try tool.run(["ls", "--json"], environment: onPostgres).json as? [Any])?.isEmpty == true)
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: shared.appendingPathComponent("originals").path)) ?? []
        #expect(left.filter { $0.hasSuffix(".jpg") }.isEmpty, "no file of the failed copy stays: \(left)")

        // Without a place for its originals, a new library is not made.
        let nowhere = try tool.run("migrate", "--to", server.newLibraryURL().absoluteString)
        #expect(nowhere.status != 0)
        #expect(nowhere.errors.contains("--originals"), "\(nowhere.errors)")
        // Only a PostgreSQL library is a destination.
        #expect(try tool.run("migrate", "--to", "/tmp/elsewhere").status != 0)
    }

    @Test(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts"))
    func aLibraryMovesIntoPostgreSQLWithItsOriginalsInABucket() throws {
        let server = try #require(TestPostgresServer.current)
        let storage = try #require(TestObjectStorageServer.current)
        let tool = try Self.libraryWithTwoPhotos()
        let listing = try tool.run("ls", "--json").output

        let library = server.newLibraryURL().absoluteString
        let environment = [
            "PHOTOS_S3_ACCESS_KEY_ID": storage.credentials.accessKeyID,
            "PHOTOS_S3_SECRET_ACCESS_KEY": storage.credentials.secretAccessKey,
            "PHOTOS_CACHE_DIR": tool.directory.appendingPathComponent("cache").path,
        ]
        let migrated = try tool.run(["migrate", "--to", library, "--originals", try storage.newBucket().absoluteString], environment: environment)
        #expect(migrated.status == 0, "\(migrated.errors)")
        var onPostgres = environment
        onPostgres["PHOTOS_LIBRARY"] = library
        #expect(try tool.run(["ls", "--json"], environment: onPostgres).output == listing)
        let check = try tool.run(["check", "--content"], environment: onPostgres)
        #expect(check.status == 0, "\(check.output)\(check.errors)")
    }
}
