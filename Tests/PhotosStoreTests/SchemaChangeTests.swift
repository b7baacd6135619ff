import Testing

@testable import PhotosStore

/// Each backend's statements for a schema change are rendered from the
/// catalogue's one description; the live databases are held to that
/// description by `SchemaAgreementTests`.
struct SchemaChangeTests {
    @Test func aColumnIsDeclaredInEachDialectsOwnTypes() {
        let hash = LibraryTables.column("password_hash", of: "access_token")
        #expect(hash.definition(in: .sqlite) == "password_hash BLOB")
        #expect(hash.definition(in: .postgres) == "password_hash BYTEA")
        let label = LibraryTables.column("label", of: "access_token")
        #expect(label.definition(in: .sqlite) == "label TEXT NOT NULL DEFAULT ''")
        #expect(label.definition(in: .postgres) == "label TEXT COLLATE \"C\" NOT NULL DEFAULT ''")
        let version = LibraryTables.column("content_version", of: "asset")
        #expect(version.definition(in: .postgres) == "content_version BIGINT NOT NULL DEFAULT 0")
        #expect(LibraryColumn("note", .text, default: "it's").definition(in: .sqlite) == "note TEXT NOT NULL DEFAULT 'it''s'")
    }

    @Test func anIndexOrdersNullsAsSQLiteDoesOnBoth() {
        let change = SchemaChange.createIndex("asset_timeline")
        let sqlite = change.statements(in: .sqlite)
        let postgres = change.statements(in: .postgres)
        #expect(sqlite.count == 1 && sqlite[0].hasPrefix("CREATE INDEX asset_timeline ON asset (creation_date, id, trashed_date,"))
        // creation_date and trashed_date may be NULL; SQLite sorts NULLs first.
        #expect(postgres[0].hasPrefix("CREATE INDEX asset_timeline ON asset (creation_date NULLS FIRST, id, trashed_date NULLS FIRST,"))
        #expect(
            SchemaChange.createIndex("asset_by_burst").statements(in: .sqlite)
                == ["CREATE INDEX asset_by_burst ON asset (burst_identifier) WHERE burst_identifier IS NOT NULL"])
    }

    @Test func everyStepNamesWhatTheCatalogueDescribes() {
        for step in LibraryTables.steps {
            for change in step.changes {
                // Rendering looks every name up; a step naming a column or
                // index the catalogue lacks would trap here, not in a migration.
                // The full-text index and its vocabulary alone are each backend's own
                // (a table and its triggers, or one index; a view of FTS5's words, or a table, a function and a trigger).
                guard change != .createTextSearchIndex && change != .createSearchTerms else { continue }
                #expect(change.statements(in: .sqlite).count == change.statements(in: .postgres).count)
            }
        }
        #expect(
            LibraryTables.steps.first?.statements(in: .postgres).first
                == "ALTER TABLE client_access ADD COLUMN shared_album TEXT COLLATE \"C\"")
    }

    @Test func theFullTextIndexCoversEverySearchColumnOnBoth() {
        let sqlite = SchemaChange.createTextSearchIndex.statements(in: .sqlite)
        let postgres = SchemaChange.createTextSearchIndex.statements(in: .postgres)
        let columns = LibraryTables.table("asset_search").columns.map(\.name).filter { $0 != "asset_id" }
        #expect(Set(columns) == Set(SearchIndex.columns), "every column the indexer writes is indexed")
        #expect(sqlite.count == 4 && sqlite[0].contains("USING fts5(words, place, people, content, content='asset_search'"))
        #expect(sqlite.dropFirst().allSatisfy { $0.contains("CREATE TRIGGER") && $0.contains("ON asset_search") })
        #expect(postgres.count == 1 && postgres[0].contains("USING gin") && columns.allSatisfy { postgres[0].contains($0) })
        #expect(LibraryTables.isSQLiteBookkeeping("asset_search_fts_data") && !LibraryTables.isSQLiteBookkeeping("asset_search"))
    }

    @Test func everyIndexAndKeyNamesColumnsOfItsTable() {
        for table in LibraryTables.catalogue {
            let names = Set(table.columns.map(\.name))
            #expect(Set(table.key).isSubset(of: names), "\(table.name)'s key")
            #expect(table.columns.count == names.count, "\(table.name) names a column twice")
        }
        for index in LibraryTables.indexes {
            let names = Set(LibraryTables.table(index.table).columns.map(\.name))
            #expect(Set(index.columns).isSubset(of: names), "\(index.name)")
        }
    }
}

/// The records read columns the catalogue describes: a column renamed or
/// dropped in one place fails here, not in a query.
struct RecordColumnsTests {
    @Test func everyColumnARecordReadsIsInTheCatalogue() {
        func names(_ table: String) -> Set<String> { Set(LibraryTables.table(table).columns.map(\.name)) }
        #expect(Set(AssetRecord.Column.allCases.map(\.name)).subtracting(names("asset")).isEmpty)
        #expect(Set(ResourceRecord.Column.allCases.map(\.name)).subtracting(names("resource")).isEmpty)
        // The last three a collection's summary computes from its members.
        #expect(
            Set(CollectionRecord.Column.allCases.map(\.name)).subtracting(names("collection")) == ["asset_count", "start_date", "end_date"])
    }
}
