import Foundation
import GRDB
import PhotosStore

/// Copies a library directory (SQLite, originals in the directory or in
/// object storage) into a new or empty PostgreSQL library, then proves the
/// copy: `photos migrate`.
///
/// Everything is copied as it is, so the copy is the same library: its
/// identity and token key (so persistent change tokens and the server's
/// access tokens stay valid), every asset, resource, collection and row id,
/// the whole change history with its numbers and stamps, the grants and
/// selections of clients, and every stored file under its stored path.
///
/// It runs as a change block does: the source is read in one snapshot;
/// the files are journalled and placed in the target's storage first; the
/// rows are written in one PostgreSQL transaction, so the target is either
/// still empty or a whole copy; and files placed for a copy that did not
/// commit are removed (or, after a crash, recovered as any change block's
/// are). Then, still in the source's snapshot, every row and every file is
/// compared with its copy, and the target's integrity check must find it
/// whole.
///
/// Cost: a read of every row and file of the source, a write of each into
/// the target, and a read of each back; the rows go in batches of a few
/// hundred per statement.
package struct LibraryMigration {
    /// What was copied and verified.
    package struct Report: Sendable {
        /// Rows copied, by table.
        package var rows: [String: Int] = [:]
        /// Stored files (originals and edits) copied.
        package var files = 0
        /// Their bytes.
        package var bytes: Int64 = 0
    }

    /// What the copy is doing, for a progress display.
    package enum Phase: Sendable {
        case files, rows, verification
    }

    /// The tables the copy carries: the catalogue every backend keeps.
    typealias CopiedTable = LibraryTables.Table

    /// Every table of a library, parents before children. A table either
    /// database has that is not here stops the copy: it would be lost.
    static var tables: [CopiedTable] { LibraryTables.catalogue }

    /// The PostgreSQL library's own tables, which the copy sets rather than copies.
    private static var targetOnlyTables: Set<String> { LibraryTables.postgresBookkeeping }
    /// The triggers that count the timeline's months, off while the assets go
    /// in: the source's counts are copied instead.
    private static let monthCountTriggers = ["timeline_month_count", "timeline_month_fold"]
    /// Tables whose ids come from an identity column, set past every id the source gave.
    private static let identityTables = ["asset", "resource", "collection"]
    /// Rows read from the source per batch.
    private static let batchRows = 2_000

    let source: any SQLPhotoStore
    let target: PostgresPhotoStore

    /// A copy of `source`, a library directory, into `target`. Refuses any
    /// other source; the target is checked when the copy runs.
    package init(source: any PhotoStore, target: any PhotoStore) throws(StoreError) {
        guard source.location.isFileURL, let sqlSource = source as? any SQLPhotoStore else {
            throw .notALibrary(path: source.location.absoluteString, reason: "migrate copies a library directory, and this is not one")
        }
        if let client = source.client {
            throw .ownerOnly("only the library's owner can copy it; this process is client \(client)")
        }
        guard let postgres = target as? PostgresPhotoStore else {
            throw .notALibrary(path: target.location.absoluteString, reason: "migrate copies into a PostgreSQL library (postgres://…)")
        }
        self.source = sqlSource
        self.target = postgres
    }

    /// Copies and verifies; `progress` hears each phase's steps as they
    /// are done (`done` of `total`). Throws, with the target left empty,
    /// when the target is not new or empty, a source file is missing or
    /// damaged, the source changed meanwhile, or the copy differs.
    package func run(progress: (Phase, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws(StoreError) -> Report {
        let report = try copyAndVerify(progress: progress)
        // The copy took the source's identity, so this machine's cache for
        // the identity the target was created with (the verification's
        // downloads among it) will never be used again.
        if target.layoutIsCache { try? FileManager.default.removeItem(at: target.layout.root) }
        return report
    }

    private func copyAndVerify(progress: (Phase, Int, Int) -> Void) throws(StoreError) -> Report {
        try source.read { src in
            try checkTables(src)
            try checkTargetIsEmpty()
            var report = Report()
            let files = try src.fetchAll(SQLRow.self, sql: "SELECT relative_path, file_size FROM resource ORDER BY id")
                .map { try (path: $0[0] as String, size: $0[1] as Int64) }
            let staging = try target.files.makeStagingArea()
            defer { staging.discard() }
            var staged: [(file: StagedFile, path: String)] = []
            for (index, file) in files.enumerated() {
                staged.append((try stage(file, in: staging), file.path))
                report.bytes += file.size
                progress(.files, index + 1, files.count)
            }
            report.files = staged.count
            try staging.recordJournal(staged.map { .file($0.path) })
            try target.files.place(staged)
            do throws(StoreError) {
                report.rows = try copyRows(src, files: files, progress: progress)
            } catch {
                try settleFailedCopy(error, placed: staged.map(\.path))
            }
            return report
        }
    }

    // MARK: - Checks before

    /// Both databases must have exactly the tables this copy knows.
    private func checkTables(_ src: any SQLConnection) throws(StoreError) {
        let known = Set(Self.tables.map(\.name))
        let sourceTables = Set(
            try sourceRead {
                try src.fetchAll(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        ).filter { !LibraryTables.isSQLiteBookkeeping($0) }
        let targetTables = Set(
            try target.read { db in
                try db.fetchAll(
                    String.self,
                    sql: """
                        SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                        """)
            }
        ).subtracting(Self.targetOnlyTables)
        for (side, tables, location) in [("source", sourceTables, source.location.path), ("target", targetTables, target.location.absoluteString)]
        where tables != known {
            let unknown = tables.subtracting(known).sorted()
            let missing = known.subtracting(tables).sorted()
            throw .notALibrary(
                path: location,
                reason: """
                    the \(side) library's tables are not those this version copies\
                    \(unknown.isEmpty ? "" : " (unknown: \(unknown.joined(separator: ", ")))")\
                    \(missing.isEmpty ? "" : " (missing: \(missing.joined(separator: ", ")))")
                    """)
        }
    }

    /// A library `photos init` made (its smart albums only) or a copy that
    /// failed left: no change block, no asset, no grant, no token, no file.
    private func checkTargetIsEmpty() throws(StoreError) {
        try target.read { db in try requireNoRows(db) }
        let present = target.files.presentStoredPaths()
        guard present.isEmpty else {
            throw .notALibrary(
                path: target.location.absoluteString,
                reason: """
                    its originals' place already holds \(present.count) file\(present.count == 1 ? "" : "s") \
                    (\(present.prefix(3).joined(separator: ", "))); migrate copies into an empty place
                    """)
        }
    }

    /// Checked again in the copy's transaction, under the commit lock, in
    /// case another process wrote meanwhile.
    private func requireNoRows(_ db: any SQLConnection) throws {
        let isEmpty =
            try db.fetchOne(
                Bool.self,
                sql: """
                    SELECT (SELECT last FROM change_counter) = 0
                        AND NOT EXISTS (SELECT 1 FROM asset) AND NOT EXISTS (SELECT 1 FROM access_token)
                        AND NOT EXISTS (SELECT 1 FROM client_access) AND NOT EXISTS (SELECT 1 FROM client_selection)
                        AND NOT EXISTS (SELECT 1 FROM collection WHERE NOT (kind = ? AND type = ?))
                    """, arguments: [CollectionKind.assetCollection.rawValue, CollectionType.smartAlbum.storedType]) ?? false
        guard isEmpty else {
            throw StoreError.notALibrary(
                path: target.location.absoluteString,
                reason: "it already holds assets, albums, history or grants; migrate copies into a new or empty library")
        }
    }

    // MARK: - Files

    /// Copies one stored file into the target's staging area, checking
    /// its size against the row that names it.
    private func stage(_ file: (path: String, size: Int64), in staging: StagingArea) throws(StoreError) -> StagedFile {
        let readable: URL?
        do {
            readable = try source.files.readableURL(forStoredPath: file.path)
        } catch {
            throw .damaged(path: source.location.path, reason: "its file \(file.path) cannot be read (\(error)); photos check says more")
        }
        guard let readable else {
            throw .damaged(path: source.location.path, reason: "a resource names \(file.path), which is not a path the library writes")
        }
        let staged = try staging.stage(fileAt: readable, move: false)
        guard staged.size == file.size else {
            throw .damaged(
                path: source.location.path,
                reason: """
                    its file \(file.path) has \(staged.size) bytes where the library recorded \(file.size); photos check says more
                    """)
        }
        return staged
    }

    /// After the row copy failed: the files placed for it go, unless the
    /// transaction's outcome is unknown and a read-back finds it committed.
    private func settleFailedCopy(_ error: StoreError, placed: [String]) throws(StoreError) -> Never {
        if case .unreachable = error {
            let sourceUUID = source.libraryUUID
            let committed = try? target.read { db in
                try db.fetchOne(
                    Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM library_metadata WHERE key = 'uuid' AND value = ?)",
                    arguments: [sourceUUID])
            }
            guard committed == false else {
                throw .unreachable(
                    location: target.location.absoluteString,
                    reason: """
                        the connection was lost while the copy committed\(committed == true ? ", and it did; run migrate's check again with photos check" : ", and whether it did is unknown; photos check on the target says"): \(error)
                        """)
            }
        }
        placed.forEach { target.files.remove(.file($0)) }
        throw error
    }

    // MARK: - Rows

    /// Copies every table in one transaction of the target, sets what
    /// PostgreSQL keeps apart (the change counter and the identity
    /// columns), and verifies the rows and files before it commits.
    private func copyRows(
        _ src: any SQLConnection, files: [(path: String, size: Int64)],
        progress: (Phase, Int, Int) -> Void
    ) throws(StoreError) -> [String: Int] {
        let sequences = try sourceRead { () throws -> [String: Int64] in
            var sequences: [String: Int64] = [:]
            for row in try src.fetchAll(SQLRow.self, sql: "SELECT name, seq FROM sqlite_sequence") {
                sequences[try row[0]] = try row[1] as Int64
            }
            return sequences
        }
        return try target.write { db in
            try requireNoRows(db)
            let originals = try db.fetchOne(String.self, sql: "SELECT value FROM library_metadata WHERE key = 'originals'")
            for table in ["timeline_month", "collection", "library_metadata"] {
                _ = try db.execute(sql: "DELETE FROM \(table)")
            }
            var copied: [String: Int] = [:]
            for trigger in Self.monthCountTriggers {
                _ = try db.execute(sql: "ALTER TABLE asset DISABLE TRIGGER \(trigger)")
            }
            for (index, table) in Self.tables.enumerated() {
                copied[table.name] = try copy(table, from: src, to: db)
                progress(.rows, index + 1, Self.tables.count)
            }
            for trigger in Self.monthCountTriggers {
                _ = try db.execute(sql: "ALTER TABLE asset ENABLE TRIGGER \(trigger)")
            }
            if let originals {
                _ = try db.execute(sql: "INSERT INTO library_metadata (key, value) VALUES ('originals', ?)", arguments: [originals])
            }
            for table in Self.identityTables {
                let largest = try src.fetchOne(Int64.self, sql: "SELECT COALESCE(MAX(id), 0) FROM \(table)") ?? 0
                let floor = max(largest, sequences[table] ?? 0)
                // Not called yet: the next id is 1.
                _ = try db.fetchOne(
                    Int64.self, sql: "SELECT setval(pg_get_serial_sequence(?, 'id'), ?, \(floor > 0))",
                    arguments: [table, max(floor, 1)])
            }
            let newest = try src.fetchOne(Int64.self, sql: "SELECT COALESCE(MAX(id), 0) FROM change_transaction") ?? 0
            _ = try db.execute(sql: "UPDATE change_counter SET last = ?", arguments: [max(newest, sequences["change_transaction"] ?? 0)])
            try verify(src, db, files: files, progress: progress)
            return copied
        }
    }

    /// Copies one table's rows in batches; returns how many.
    private func copy(_ table: CopiedTable, from src: any SQLConnection, to db: any SQLConnection) throws -> Int {
        let columns = Self.insertedColumns(of: table)
        let rowsPerStatement = max(1, min(500, 30_000 / columns.count))
        var statements: [Int: any SQLStatement] = [:]
        var parents: [(id: Int64, parent: Int64)] = []
        var count = 0
        let parentIndex = table.parentColumn.flatMap(columns.firstIndex(of:))
        try forEachBatch(of: table, columns: columns, in: src) { rows in
            for chunk in stride(from: 0, to: rows.count, by: rowsPerStatement).map({ rows[$0..<min($0 + rowsPerStatement, rows.count)] }) {
                var values: [DatabaseValue] = []
                values.reserveCapacity(chunk.count * columns.count)
                for row in chunk {
                    for (index, value) in row.values.enumerated() {
                        if index == parentIndex, !value.isNull {
                            parents.append(try (row["id"], row[index]))
                            values.append(.null)
                        } else {
                            values.append(value)
                        }
                    }
                }
                let statement = try statements[chunk.count] ?? db.prepare(sql: Self.insertSQL(table.name, columns: columns, rows: chunk.count))
                statements[chunk.count] = statement
                _ = try statement.execute(arguments: SQLArguments(values))
            }
            count += rows.count
        }
        if let column = table.parentColumn, !parents.isEmpty {
            let update = try db.prepare(sql: "UPDATE \(Self.quoted(table.name)) SET \(Self.quoted(column)) = ? WHERE id = ?")
            for (id, parent) in parents {
                _ = try update.execute(arguments: [parent, id])
            }
        }
        return count
    }

    /// The columns a copy writes: every column of the catalogue's table
    /// but those the database computes, which the verification compares.
    /// Both libraries are at the current version, so both have exactly
    /// these (`SchemaAgreementTests` holds each backend to the catalogue).
    private static func insertedColumns(of table: CopiedTable) -> [String] {
        table.columns.filter { !$0.isDerived }.map(\.name)
    }

    // MARK: - Verification

    /// Compares every row of every table, as the copy's transaction reads
    /// it back, and every stored file with the original; checks the month
    /// counts against the assets, and that the target's storage holds the
    /// copied files and nothing else.
    private func verify(
        _ src: any SQLConnection, _ db: any SQLConnection, files: [(path: String, size: Int64)],
        progress: (Phase, Int, Int) -> Void
    ) throws {
        let steps = Self.tables.count + files.count
        for (index, table) in Self.tables.enumerated() {
            try compare(table, src: src, db: db)
            progress(.verification, index + 1, steps)
        }
        try checkTimelineCounts(db)
        for (index, file) in files.enumerated() {
            try compareFile(file.path)
            progress(.verification, Self.tables.count + index + 1, steps)
        }
        let unexpected = Set(target.files.presentStoredPaths()).subtracting(files.map(\.path))
        if !unexpected.isEmpty {
            throw StoreError.damaged(
                path: target.location.absoluteString,
                reason: "its storage holds files the copy did not put there: \(unexpected.sorted().prefix(3).joined(separator: ", "))")
        }
    }

    /// Every column of every row of `table`, generated ones included, as
    /// the target has it against the source's snapshot.
    private func compare(_ table: CopiedTable, src: any SQLConnection, db: any SQLConnection) throws {
        let columns = table.columns.map(\.name)
        var copied: [SQLRow] = []
        var after: [DatabaseValue]?
        var exhausted = false
        func nextCopied() throws -> SQLRow? {
            if copied.isEmpty, !exhausted {
                copied = try db.fetchAll(SQLRow.self, Self.batchSQL(table, columns: columns, after: after))
                copied.reverse()
                exhausted = copied.count < Self.batchRows
                after = copied.first.map { row in table.key.map { row.values[row.columns.firstIndex(of: $0)!] } }
            }
            return copied.popLast()
        }
        try forEachBatch(of: table, columns: columns, in: src) { rows in
            for row in rows {
                guard let copy = try nextCopied() else { throw difference(table, row, "is missing from the copy") }
                if let column = zip(columns, zip(row.values, copy.values)).first(where: { $0.1.0 != $0.1.1 }) {
                    throw difference(table, row, "has \(column.1.1) for \(column.0) in the copy where the original has \(column.1.0)")
                }
            }
        }
        if let extra = try nextCopied() { throw difference(table, extra, "is in the copy but not in the original") }
    }

    private func difference(_ table: CopiedTable, _ row: SQLRow, _ what: String) -> StoreError {
        let key = table.key.map { "\($0) \(row.values[row.columns.firstIndex(of: $0)!])" }.joined(separator: ", ")
        return .damaged(path: target.location.absoluteString, reason: "the copy differs from the original: \(table.name) row (\(key)) \(what)")
    }

    /// The copied month counts against a count of the copied assets.
    private func checkTimelineCounts(_ db: any SQLConnection) throws {
        let mismatched = try db.fetchAll(
            SQLRow.self,
            sql: """
                SELECT COALESCE(t.local_month, c.local_month), t.asset_count, c.asset_count FROM
                    (SELECT local_month, asset_count, id_total FROM timeline_month WHERE asset_count <> 0) t
                FULL JOIN
                    (SELECT COALESCE(local_month, 0) AS local_month, COUNT(*) AS asset_count, SUM(id) AS id_total FROM asset
                     WHERE \(ShownAssets.inTimeline(.bare)) GROUP BY 1) c
                ON c.local_month = t.local_month
                WHERE t.asset_count IS DISTINCT FROM c.asset_count OR t.id_total IS DISTINCT FROM c.id_total
                """)
        if let month = mismatched.first {
            throw StoreError.damaged(
                path: source.location.path,
                reason: """
                    its timeline counts \(month.values[1]) assets in month \(month.values[0]) where it has \(month.values[2]); \
                    the copy was not kept
                    """)
        }
    }

    /// A stored file's copy against the original, byte for byte.
    private func compareFile(_ path: String) throws(StoreError) {
        guard let original = try source.files.readableURL(forStoredPath: path),
            let copy = try target.files.readableURL(forStoredPath: path)
        else {
            throw .damaged(path: target.location.absoluteString, reason: "the copy of \(path) cannot be read")
        }
        guard let originalHandle = try? FileHandle(forReadingFrom: original), let copyHandle = try? FileHandle(forReadingFrom: copy) else {
            throw .damaged(path: target.location.absoluteString, reason: "the copy of \(path) cannot be opened")
        }
        defer {
            try? originalHandle.close()
            try? copyHandle.close()
        }
        while true {
            let expected = (try? originalHandle.read(upToCount: 1 << 20)) ?? nil
            let found = (try? copyHandle.read(upToCount: 1 << 20)) ?? nil
            guard expected == found else {
                throw .damaged(path: target.location.absoluteString, reason: "the copy of \(path) differs from the original")
            }
            if expected == nil || expected!.isEmpty { return }
        }
    }

    // MARK: - Statements

    /// Calls `body` with the source's rows of `table`, in key order, a
    /// batch at a time (keyset pagination: each batch starts after the
    /// previous one's last key).
    private func forEachBatch(
        of table: CopiedTable, columns: [String], in src: any SQLConnection,
        _ body: ([SQLRow]) throws -> Void
    ) throws {
        var after: [DatabaseValue]?
        while true {
            let rows = try src.fetchAll(SQLRow.self, Self.batchSQL(table, columns: columns, after: after))
            guard !rows.isEmpty else { return }
            try body(rows)
            guard rows.count == Self.batchRows, let last = rows.last else { return }
            after = table.key.map { last.values[last.columns.firstIndex(of: $0)!] }
        }
    }

    /// One batch of a table's rows: the columns, and the key columns in
    /// case they are not among them, past `after` in key order.
    private static func batchSQL(_ table: CopiedTable, columns: [String], after: [DatabaseValue]?) -> SQLFragment {
        let selected = columns + table.key.filter { !columns.contains($0) }
        var conditions = table.excludedFromCopies.map { ["NOT (\($0))"] } ?? []
        if let after {
            let keys = table.key.map(quoted).joined(separator: ", ")
            conditions.append("(\(keys)) > (\(Array(repeating: "?", count: after.count).joined(separator: ", ")))")
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return SQLFragment(
            sql: """
                SELECT \(selected.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name))\(filter) \
                ORDER BY \(table.key.map(quoted).joined(separator: ", ")) LIMIT \(batchRows)
                """, arguments: SQLArguments(after ?? []))
    }

    private static func insertSQL(_ table: String, columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(quoted(table)) (\(columns.map(quoted).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// A name from the library's own catalogue, as an identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A read of the source inside its snapshot, its errors as the store's.
    private func sourceRead<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database("reading \(source.location.path): \(error)")
        }
    }
}
