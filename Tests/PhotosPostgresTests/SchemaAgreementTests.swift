import Foundation
import GRDB
import PhotosPostgres
import PhotosSQLite
import PhotosStore
import PhotosTestSupport
import Testing

/// The catalogue's tables are written once (``LibraryTables``); a new
/// library on SQLite and one on PostgreSQL, read back by introspection,
/// must both have exactly those tables, the same columns in each, and the
/// same primary keys.
@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct SchemaAgreementTests {
    struct Shape: Equatable {
        var columns: Set<String>
        var key: [String]
    }

    static func sqliteShapes() throws -> [String: Shape] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).photoslibrary")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLitePhotoStore(url: directory)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("database/Photos.sqlite").path)
        defer { try? queue.close() }
        return try queue.read { db in
            var shapes: [String: Shape] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                let rows = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_xinfo(?)", arguments: [table])
                let key = rows.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
                shapes[table] = Shape(columns: Set(rows.map { $0["name"] as String }), key: key)
            }
            return shapes
        }
    }

    static func postgresShapes() throws -> [String: Shape] {
        let database = try newLibrary()
        let text = PostgresStatementText()
        return try database.transaction(.read, text: text) { db in
            var shapes: [String: Shape] = [:]
            for row in try db.fetchAll(
                SQLRow.self,
                sql: """
                    SELECT table_name, column_name FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name IN
                        (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')
                    """)
            {
                shapes[try row[0], default: Shape(columns: [], key: [])].columns.insert(try row[1])
            }
            for row in try db.fetchAll(
                SQLRow.self,
                sql: """
                    SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
                    JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
                    WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY'
                    ORDER BY k.table_name, k.ordinal_position
                    """)
            {
                shapes[try row[0], default: Shape(columns: [], key: [])].key.append(try row[1])
            }
            return shapes
        }
    }

    @Test func bothDatabasesKeepTheCatalogueAsItIsWrittenOnce() throws {
        let sqlite = try Self.sqliteShapes()
        let postgres = try Self.postgresShapes()
        let catalogue = Set(LibraryTables.catalogue.map(\.name))
        #expect(Set(sqlite.keys.filter { !LibraryTables.isSQLiteBookkeeping($0) }) == catalogue)
        #expect(LibraryTables.isSQLiteBookkeeping("sqlite_stat1"), "what ANALYZE adds is SQLite's own")
        #expect(Set(postgres.keys).subtracting(LibraryTables.postgresBookkeeping) == catalogue)
        for table in LibraryTables.catalogue {
            let onSQLite = try #require(sqlite[table.name])
            let onPostgres = try #require(postgres[table.name])
            #expect(
                onSQLite.columns == onPostgres.columns,
                "\(table.name): columns only on SQLite \(onSQLite.columns.subtracting(onPostgres.columns).sorted()), only on PostgreSQL \(onPostgres.columns.subtracting(onSQLite.columns).sorted())"
            )
            #expect(onSQLite.key == table.key, "\(table.name)'s key on SQLite")
            #expect(onPostgres.key == table.key, "\(table.name)'s key on PostgreSQL")
            if let parent = table.parentColumn { #expect(onSQLite.columns.contains(parent)) }
        }
    }
}
