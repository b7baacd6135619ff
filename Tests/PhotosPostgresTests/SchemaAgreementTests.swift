import Foundation
import GRDB
import PhotosPostgres
import PhotosSQLite
import PhotosStore
import PhotosTestSupport
import Testing

/// The catalogue is written once (``LibraryTables``); a new library on
/// SQLite and one on PostgreSQL, read back by introspection, must both
/// have exactly its tables, and in each exactly its columns (type,
/// nullability, default, uniqueness), its primary key and its indexes.
@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct SchemaAgreementTests {
    /// A column as a database reports it, in the catalogue's terms.
    struct ColumnShape: Hashable, CustomStringConvertible {
        var name: String
        var type: LibraryColumn.StoredType
        var isNullable: Bool
        var defaultLiteral: String?
        var isUnique: Bool

        init(name: String, type: LibraryColumn.StoredType, isNullable: Bool, defaultLiteral: String?, isUnique: Bool) {
            self.name = name
            self.type = type
            self.isNullable = isNullable
            self.defaultLiteral = defaultLiteral
            self.isUnique = isUnique
        }

        /// What the catalogue says the column is; derived columns are
        /// computed, so their default is not the catalogue's to say.
        init(_ column: LibraryColumn) {
            self.init(
                name: column.name, type: column.type, isNullable: column.isNullable, defaultLiteral: column.defaultValue?.literal,
                isUnique: column.isUnique)
        }

        var description: String {
            "\(name) \(type)\(isNullable ? "" : " not null")\(defaultLiteral.map { " default \($0)" } ?? "")\(isUnique ? " unique" : "")"
        }
    }

    struct TableShape: Equatable {
        var columns: Set<ColumnShape> = []
        var key: [String] = []
    }

    struct Schema {
        var tables: [String: TableShape] = [:]
        /// Each index's table and columns, by name.
        var indexes: [String: IndexShape] = [:]
    }

    struct IndexShape: Equatable, CustomStringConvertible {
        var table: String
        var columns: [String]
        var isPartial: Bool
        var description: String { "\(table)(\(columns.joined(separator: ", ")))\(isPartial ? " partial" : "")" }
    }

    static func sqliteType(_ declared: String) throws -> LibraryColumn.StoredType {
        switch declared.uppercased() {
        case "INTEGER": .integer
        case "REAL": .real
        case "TEXT": .text
        case "BLOB": .bytes
        default: throw SchemaMismatch(reason: "SQLite declares a column \(declared)")
        }
    }

    static func postgresType(_ declared: String, collation: String?) throws -> LibraryColumn.StoredType {
        switch declared {
        // Columns that keep small codes were declared INTEGER in version 1.
        case "bigint", "integer": return .integer
        case "double precision": return .real
        case "text":
            guard collation == "C" else { throw SchemaMismatch(reason: "text in the \(collation ?? "default") collation, not \"C\"") }
            return .text
        case "bytea": return .bytes
        default: throw SchemaMismatch(reason: "PostgreSQL declares a column \(declared)")
        }
    }

    struct SchemaMismatch: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func sqliteSchema() throws -> Schema {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).photoslibrary")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLitePhotoStore(url: directory)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("database/Photos.sqlite").path)
        defer { try? queue.close() }
        return try queue.read { db in
            var schema = Schema()
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                var unique: Set<String> = []
                for index in try Row.fetchAll(db, sql: "SELECT name, origin, partial FROM pragma_index_list(?)", arguments: [table]) {
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"]])
                    switch index["origin"] as String {
                    case "u" where columns.count == 1: unique.insert(columns[0])
                    case "c":
                        schema.indexes[index["name"]] = IndexShape(table: table, columns: columns, isPartial: index["partial"] as Bool)
                    default: break
                    }
                }
                let rows = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_xinfo(?)", arguments: [table])
                var shape = TableShape()
                shape.key = rows.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
                for row in rows where !LibraryTables.isSQLiteBookkeeping(table) {
                    let name: String = row["name"]
                    shape.columns.insert(
                        ColumnShape(
                            name: name, type: try sqliteType(row["type"]),
                            // SQLite reports an INTEGER PRIMARY KEY as nullable; it never holds NULL.
                            isNullable: !(row["notnull"] as Bool) && !shape.key.contains(name),
                            defaultLiteral: row["dflt_value"], isUnique: unique.contains(name)))
                }
                schema.tables[table] = shape
            }
            return schema
        }
    }

    static func postgresSchema() throws -> Schema {
        let database = try newLibrary()
        let text = PostgresStatementText()
        return try database.transaction(.read, text: text) { db in
            var schema = Schema()
            var unique: Set<String> = []
            var keys: [String: [String]] = [:]
            var indexColumns: [(index: String, table: String, column: String, partial: Bool, primary: Bool, unique: Bool)] = []
            for row in try db.fetchAll(
                SQLRow.self,
                sql: """
                    SELECT i.relname, t.relname, a.attname, ix.indpred IS NOT NULL, ix.indisprimary, ix.indisunique
                    FROM pg_index ix
                    JOIN pg_class i ON i.oid = ix.indexrelid
                    JOIN pg_class t ON t.oid = ix.indrelid
                    JOIN pg_namespace n ON n.oid = t.relnamespace
                    CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, position)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                    WHERE n.nspname = current_schema()
                    ORDER BY i.relname, k.position
                    """)
            {
                indexColumns.append((try row[0], try row[1], try row[2], try row[3], try row[4], try row[5]))
            }
            for entry in indexColumns {
                if entry.primary {
                    keys[entry.table, default: []].append(entry.column)
                } else if entry.unique {
                    unique.insert("\(entry.table).\(entry.column)")
                } else {
                    schema.indexes[entry.index, default: IndexShape(table: entry.table, columns: [], isPartial: entry.partial)].columns.append(
                        entry.column)
                }
            }
            for row in try db.fetchAll(
                SQLRow.self,
                sql: """
                    SELECT c.table_name, c.column_name, c.data_type, c.collation_name, c.is_nullable = 'YES', c.column_default,
                           c.is_generated = 'ALWAYS'
                    FROM information_schema.columns c
                    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
                    """)
            {
                let table: String = try row[0]
                let name: String = try row[1]
                guard !LibraryTables.postgresBookkeeping.contains(table) else {
                    schema.tables[table] = TableShape()
                    continue
                }
                // PostgreSQL names a text default with its type (`''::text`).
                let defaultLiteral = (try row[5] as String?).map { $0.replacingOccurrences(of: "::text", with: "") }
                schema.tables[table, default: TableShape(key: keys[table] ?? [])].columns.insert(
                    ColumnShape(
                        name: name, type: try postgresType(try row[2], collation: try row[3]), isNullable: try row[4],
                        defaultLiteral: (try row[6] as Bool) ? nil : defaultLiteral, isUnique: unique.contains("\(table).\(name)")))
            }
            return schema
        }
    }

    /// Defaults a backend's history gave columns that the catalogue does
    /// not: SQLite adds a NOT NULL column to existing rows only with one,
    /// and cannot drop it after. The engine writes every such column.
    static let sqliteHistoricalDefaults: [String: String] = ["change_transaction.stamp": "0"]

    static func expectAgreement(
        _ schema: Schema, on backend: String, bookkeeping: (String) -> Bool, historicalDefaults: [String: String] = [:]
    ) {
        let tables = Set(schema.tables.keys.filter { !bookkeeping($0) })
        #expect(tables == Set(LibraryTables.catalogue.map(\.name)), "\(backend)'s tables")
        for table in LibraryTables.catalogue {
            guard let found = schema.tables[table.name] else { continue }
            let expected = Set(table.columns.map(ColumnShape.init))
            // How a derived column is computed differs (generated on PostgreSQL,
            // kept by triggers on SQLite), so its default is not compared.
            let derived = Set(table.columns.filter(\.isDerived).map(\.name))
            let foundColumns = Set(
                found.columns.map { column in
                    if derived.contains(column.name) { return ColumnShape(LibraryTables.column(column.name, of: table.name)) }
                    var column = column
                    if let historical = historicalDefaults["\(table.name).\(column.name)"], column.defaultLiteral == historical {
                        column.defaultLiteral = nil
                    }
                    return column
                })
            #expect(
                foundColumns == expected,
                """
                \(backend)'s \(table.name): it has \(foundColumns.subtracting(expected).map(\.description).sorted()), \
                the catalogue says \(expected.subtracting(foundColumns).map(\.description).sorted())
                """)
            #expect(found.key == table.key, "\(backend)'s key of \(table.name)")
            if let parent = table.parentColumn { #expect(table.columns.contains { $0.name == parent }) }
        }
        let foundIndexes = schema.indexes.filter { tables.contains($0.value.table) }
        #expect(Set(foundIndexes.keys) == Set(LibraryTables.indexes.map(\.name)), "\(backend)'s indexes")
        for index in LibraryTables.indexes {
            #expect(
                foundIndexes[index.name] == IndexShape(table: index.table, columns: index.columns, isPartial: index.condition != nil),
                "\(backend)'s \(index.name)")
        }
    }

    @Test func bothDatabasesKeepTheCatalogueAsItIsWrittenOnce() throws {
        Self.expectAgreement(
            try Self.sqliteSchema(), on: "SQLite", bookkeeping: LibraryTables.isSQLiteBookkeeping,
            historicalDefaults: Self.sqliteHistoricalDefaults)
        #expect(LibraryTables.isSQLiteBookkeeping("sqlite_stat1"), "what ANALYZE adds is SQLite's own")
        Self.expectAgreement(try Self.postgresSchema(), on: "PostgreSQL", bookkeeping: LibraryTables.postgresBookkeeping.contains)
    }

    /// The full-text index is each backend's own, so the catalogue's
    /// comparison leaves it out; each live database has it.
    @Test func bothDatabasesHaveTheFullTextIndex() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).photoslibrary")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLitePhotoStore(url: directory)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("database/Photos.sqlite").path)
        defer { try? queue.close() }
        let sqliteObjects = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'asset_search_fts%' AND type IN ('table', 'trigger')")
        }
        #expect(
            Set(sqliteObjects).isSuperset(of: [
                "asset_search_fts", "asset_search_fts_insert", "asset_search_fts_delete", "asset_search_fts_update", "asset_search_fts_terms",
            ]))
        let postgres = try newLibrary()
        let definition = try postgres.transaction(.read, text: PostgresStatementText()) { db in
            try db.fetchOne(String.self, sql: "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'asset_search_text'")
        }
        #expect(definition?.contains("gin (to_tsvector('simple'::regconfig") == true, "\(definition ?? "none")")
        let vocabularyTrigger = try postgres.transaction(.read, text: PostgresStatementText()) { db in
            try db.fetchOne(
                String.self,
                sql: "SELECT tgname::text FROM pg_trigger WHERE tgrelid = 'asset_search'::regclass AND tgname = 'search_term_add'")
        }
        #expect(vocabularyTrigger == "search_term_add")
    }
}
