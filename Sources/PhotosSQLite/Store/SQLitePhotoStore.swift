import Foundation
import GRDB
import PhotosStore

/// A library stored in SQLite (WAL) and plain files, shared safely by any
/// number of processes.
///
/// Connections: read-only readers, opened as reads need them (see
/// ``SQLiteReaders``), and one writer, opened at the first write. Opening a
/// library that is up to date therefore opens one connection, as a
/// command that only reads needs, and writes nothing.
///
/// Durability: the writer connection syncs the write-ahead log at every
/// commit (`synchronous = FULL`), and a change block's files and the
/// directories they enter are synced before that commit, so a change block
/// that returned survives a power cut or an OS crash, files included.
package final class SQLitePhotoStore: SQLPhotoStore, @unchecked Sendable {
    /// Options for opening a library (see ``StoreOpenOptions``).
    package typealias OpenOptions = StoreOpenOptions

    package let layout: LibraryLayout
    package var location: URL { layout.root }
    package var name: String { layout.root.deletingPathExtension().lastPathComponent }
    /// The library's files: its own directory.
    package let files: any LibraryFileStorage
    /// SQLite finds a row by its row id in the table itself: reading by id costs what a scan does.
    package var scansCostLessThanLookups: Bool { false }
    package let libraryUUID: String
    package let client: String?
    /// Why nothing can be written, when the library's database is read-only
    /// to this process; nil when it can be written.
    package let readOnlyReason: String?
    package let writesHistoryEntries: Bool
    private let readers: SQLiteReaders
    private let writer: SQLiteWriter
    package let momentCache = MomentCache()
    let damage: LibraryDamage
    /// The database file as opened: a file put in its place is another
    /// library. Its path is kept as text, which every commit checks: a URL
    /// built and parsed again each time was about a tenth of a commit.
    private let database: (path: String, identity: FileIdentity?)
    /// The write-ahead log the writer appends to, for writable libraries.
    private let writeAheadLog: (path: String, identity: FileIdentity)?
    package let tokenCipher: TokenCipher

    /// Opens the library at `url`, creating it first when allowed. Refuses,
    /// without writing anything, a library from a newer version, a damaged
    /// one (a database missing or emptied beside its originals, a truncated
    /// or unreadable one), a non-empty directory that is not a library, and
    /// (unless allowed) an unsafe location. A library whose database this
    /// process cannot write opens read-only, without writing anything.
    package init(url: URL, options: OpenOptions = OpenOptions()) throws(StoreError) {
        let layout = LibraryLayout(root: url)
        self.layout = layout
        let path = layout.root.path
        if let client = options.client { try ClientIdentifier.check(client) }
        client = options.client
        writesHistoryEntries = options.writesHistoryEntries
        let isNew = try Self.checkDirectory(layout, options: options)
        if !options.allowsUnsafeLocation, let problem = LibraryLocationCheck.problem(with: layout.root) {
            throw .unsafeLocation(path: path, reason: problem)
        }
        if let found = Self.formatVersion(layout), found > SQLiteSchema.formatVersion {
            throw .newerLibraryVersion(path: path, found: found, supported: SQLiteSchema.formatVersion)
        }
        let readOnlyReason = isNew ? nil : Self.readOnlyReason(layout)
        self.readOnlyReason = readOnlyReason
        damage = LibraryDamage(layout: layout, persists: readOnlyReason == nil)
        if readOnlyReason == nil {
            do {
                for directory in [layout.databaseDirectory, layout.originals, layout.derivatives, layout.staging] {
                    try DurableFiles.createDirectory(directory)
                }
            } catch {
                throw .fileSystem("cannot create the library at \(path): \(error.localizedDescription)")
            }
        }
        let walURL = URL(fileURLWithPath: layout.databaseFile.path + "-wal")
        // A `stat`: Foundation's attributes also look up the owner's and group's names.
        let hasWriteAheadLog = (FileStatus(atPath: walURL.path)?.size ?? 0) > 0
        // Damage an earlier process recorded (a lost write-ahead log, say)
        // explains any failure below better than what SQLite then reports,
        // and nothing is written into such a library: no upgrade, no recovery.
        let recordedDamage = isNew ? nil : damage.reason
        if !isNew, let problem = OpeningCheck.fileProblem(at: layout.databaseFile, hasWriteAheadLog: hasWriteAheadLog) {
            throw .damaged(path: path, reason: recordedDamage ?? problem)
        }

        var configuration = Configuration()
        // SQLite's own timeout sleeps up to 100 ms between tries, so a writer
        // can wait far longer than the lock was held; retry every millisecond.
        let tries = Int(options.busyTimeout * 1000)
        configuration.busyMode = .callback { attempt in
            usleep(1000)
            return attempt < tries
        }
        configuration.foreignKeysEnabled = true
        configuration.label = "photos"
        configuration.readonly = readOnlyReason != nil
        configuration.prepareDatabase { db in
            db.add(function: TextMatching.sqlFunction)
            // Checks each cell's size as pages are read: a damaged page fails
            // with SQLITE_CORRUPT instead of yielding wrong rows.
            try db.execute(sql: "PRAGMA cell_size_check = ON")
        }
        // Read-only and without a log to replay, the file is the whole
        // database: opened immutable, SQLite needs no -shm it could not create.
        // (Should a writer with more rights open it meanwhile, this process
        // may read stale or torn pages; what it finds then stays in memory.)
        let immutable = readOnlyReason != nil && !hasWriteAheadLog
        let databasePath = immutable ? Self.immutableURI(layout.databaseFile) : layout.databaseFile.path
        readers = SQLiteReaders(path: databasePath, configuration: configuration)
        writer = SQLiteWriter(path: databasePath, configuration: configuration)
        do {
            // A new database is made by its writer, before any reader opens it.
            if isNew { _ = try writer.connection() }
            let migrator = SQLiteSchema.migrator
            let (superseded, upToDate) = try readers.read { db, _ in
                (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
            }
            if superseded {
                throw StoreError.newerLibraryVersion(
                    path: path, found: SQLiteSchema.formatVersion + 1,
                    supported: SQLiteSchema.formatVersion)
            }
            if let readOnlyReason, !upToDate {
                throw StoreError.readOnly(path: path, reason: readOnlyReason + ", and the library needs upgrading to this version's format")
            } else if let recordedDamage, !upToDate {
                throw StoreError.damaged(path: path, reason: recordedDamage)
            } else if !upToDate {
                // Only a library that needs it waits for the writer: an
                // up-to-date one (nearly every opening) was read above.
                try migrator.migrate(try writer.connection())
            }
            // What an opening reads of the metadata, and the tables' check,
            // in one read: each read of its own took a transaction.
            let (metadata, problem) = try readers.read { db, _ in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT key, value FROM library_metadata WHERE key IN ('uuid', 'originals', ?)",
                    arguments: [TokenCipher.metadataKey])
                let metadata = Dictionary(
                    try rows.map { (try $0.decode(String.self, atIndex: 0), try $0.decode(String.self, atIndex: 1)) },
                    uniquingKeysWith: { first, _ in first })
                return (metadata, try OpeningCheck.tableProblem(db))
            }
            guard let uuid = metadata["uuid"] else {
                throw StoreError.damaged(path: path, reason: "the database has no library identity")
            }
            if let problem {
                throw StoreError.damaged(path: path, reason: problem)
            }
            libraryUUID = uuid
            tokenCipher = try Self.tokenCipher(writer, recorded: metadata[TokenCipher.metadataKey], writable: readOnlyReason == nil)
            files = try options.fileStorage.open(
                layout: layout,
                originals: try Self.originals(
                    writer, recorded: metadata["originals"], isNew: isNew, asked: options.originals, writable: readOnlyReason == nil, path: path))
        } catch let error as StoreError {
            if case .damaged = error, let recordedDamage { throw .damaged(path: path, reason: recordedDamage) }
            throw error
        } catch let error as DatabaseError {
            if let reason = damage.reason { throw .damaged(path: path, reason: reason) }
            throw Self.openError(error, path: path)
        } catch {
            throw .damaged(path: path, reason: error.localizedDescription)
        }
        database = (layout.databaseFile.path, FileIdentity(of: layout.databaseFile))
        writeAheadLog = readOnlyReason == nil ? FileIdentity(of: walURL).map { (walURL.path, $0) } : nil
        guard readOnlyReason == nil, recordedDamage == nil else { return }
        do {
            if isNew {
                // The new database's entry, and the library's folders', must last as VERSION will.
                try DurableFiles.synchronize(layout.databaseDirectory)
                try DurableFiles.synchronize(layout.root)
            }
            try Self.writeFormatVersion(layout)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .fileSystem("cannot set up the library at \(path): \(error.localizedDescription)")
        }
        try recoverAbandonedChangeBlocks()
    }

    // MARK: - Opening

    /// Checks what the directory holds; true when a new library is to be
    /// made there. A directory with the parts of a library but no database,
    /// or an emptied one, is damaged: refused, and left as it is.
    private static func checkDirectory(_ layout: LibraryLayout, options: OpenOptions) throws(StoreError) -> Bool {
        let path = layout.root.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if !options.createIfNeeded { throw .notALibrary(path: path, reason: "it does not exist") }
            return true
        }
        guard isDirectory.boolValue else { throw .notALibrary(path: path, reason: "it is a file, not a directory") }
        let manager = FileManager.default
        let databaseSize = FileStatus(atPath: layout.databaseFile.path)?.size
        // A database with pages is the common case, and enough: only
        // without one are the other signs of a library looked for.
        if let databaseSize, databaseSize > 0 { return false }
        let hasVersion = manager.fileExists(atPath: layout.versionFile.path)
        let originals = manager.enumerator(atPath: layout.originals.path)
        let hasOriginals =
            originals?.contains { name in
                FileStatus(atPath: layout.originals.appendingPathComponent(name as? String ?? "").path)?.isRegularFile == true
            } ?? false
        switch databaseSize {
        case .some where hasVersion || hasOriginals:
            throw .damaged(path: path, reason: "its database (database/Photos.sqlite) is empty\(hasOriginals ? " while originals/ holds files" : "")")
        case nil where hasVersion || hasOriginals:
            throw .damaged(path: path, reason: "its database (database/Photos.sqlite) is missing\(hasOriginals ? " while originals/ holds files" : "")")
        default:
            break
        }
        // No database worth the name: a new library, in an empty directory or
        // in one that holds only the empty folders of an interrupted creation.
        let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
        let libraryParts = Set([layout.databaseDirectory, layout.originals, layout.derivatives, layout.staging].map(\.lastPathComponent))
        guard contents.allSatisfy(libraryParts.contains) else {
            throw .notALibrary(path: path, reason: "the directory is not empty and holds no library")
        }
        if !options.createIfNeeded { throw .notALibrary(path: path, reason: "the directory is empty") }
        return true
    }

    /// Why this process cannot write the library's database; nil when it can.
    private static func readOnlyReason(_ layout: LibraryLayout) -> String? {
        for url in [layout.databaseDirectory, layout.databaseFile] where access(url.path, W_OK) != 0 {
            return errno == EROFS ? "it is on a read-only file system" : "this user cannot write \(url.path)"
        }
        return nil
    }

    /// The library's token cipher, from its `recorded` key, the key made
    /// the first time a writable library opens (so that later openings
    /// write nothing).
    /// A read-only library made before keys existed gets a key for this
    /// process only: its restricted clients' tokens then last as long as it.
    private static func tokenCipher(_ writer: SQLiteWriter, recorded: String?, writable: Bool) throws -> TokenCipher {
        let select = "SELECT value FROM library_metadata WHERE key = ?"
        var key = recorded
        if key == nil, writable {
            key = try writer.connection().write { db in
                try db.execute(
                    sql: "INSERT OR IGNORE INTO library_metadata (key, value) VALUES (?, ?)",
                    arguments: [TokenCipher.metadataKey, TokenCipher.newKeyText()])
                return try String.fetchOne(db, sql: select, arguments: [TokenCipher.metadataKey])
            }
        }
        return key.flatMap(TokenCipher.init(hex:)) ?? TokenCipher(hex: TokenCipher.newKeyText())!
    }

    /// Where the library's originals are kept: recorded when a writable
    /// library is created with a location, else nil (its own directory).
    /// An existing library asked to keep them elsewhere is refused: moving
    /// originals is `photos migrate`'s work, not an opening's. `recorded`:
    /// what the library held as it was opened.
    private static func originals(
        _ writer: SQLiteWriter, recorded: String?, isNew: Bool, asked: String?,
        writable: Bool, path: String
    ) throws -> String? {
        var recorded = recorded
        if isNew, writable, let asked {
            // Another process creating the library at once may have recorded its own first.
            recorded = try writer.connection().write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO library_metadata (key, value) VALUES ('originals', ?)", arguments: [asked])
                return try String.fetchOne(db, sql: "SELECT value FROM library_metadata WHERE key = 'originals'")
            }
        }
        if let asked, asked != recorded {
            throw StoreError.notALibrary(path: path, reason: "its originals are kept \(recorded.map { "at \($0)" } ?? "in its own directory"), not at \(asked)")
        }
        return recorded
    }

    /// An SQLite URI opening `url` as an immutable file.
    private static func immutableURI(_ url: URL) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let path = url.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path
        return "file:\(path)?immutable=1"
    }

    /// The format version recorded in VERSION, as "OpenPhotoKit library N".
    private static func formatVersion(_ layout: LibraryLayout) -> Int? {
        guard let text = try? String(contentsOf: layout.versionFile, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }
    }

    private static func writeFormatVersion(_ layout: LibraryLayout) throws(StoreError) {
        guard formatVersion(layout) != SQLiteSchema.formatVersion else { return }
        do {
            try DurableFiles.write(Data("OpenPhotoKit library \(SQLiteSchema.formatVersion)\n".utf8), to: layout.versionFile)
        } catch {
            throw .fileSystem("cannot write \(layout.versionFile.path): \(error.localizedDescription)")
        }
    }

    /// SQLite's integrity check of the two tables, not the quick one: it
    /// also finds an index that has lost rows, which would make a stored
    /// file look unnamed. Damage found is recorded.
    package func checkTablesBeforeRecovery() throws(StoreError) {
        let problems: [String]
        do {
            problems = try readers.read { db, _ in
                try ["asset", "resource"].flatMap { table in
                    try String.fetchAll(db, sql: "PRAGMA integrity_check(\(table))").filter { $0 != "ok" }
                }
            }
        } catch {
            throw storeError(error)
        }
        if let problem = problems.first {
            damage.record("the database's asset or resource table is damaged (\(problem))")
            throw StoreError.damaged(
                path: layout.root.path,
                reason: "an interrupted change block needs recovering, "
                    + "but the tables that say which files are stored are damaged: \(problem)")
        }
    }

    private static func openError(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT:
            .damaged(path: path, reason: error.message ?? "\(error.resultCode)")
        case .SQLITE_FULL:
            .diskFull(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_IOERR:
            .fileSystem("cannot open the library database at \(path): \(error.message ?? "\(error.resultCode)")")
        default:
            .database("opening \(path): \(error)")
        }
    }

    /// The engine's error for what a read or write threw. Damage SQLite
    /// reports, or a value of the wrong type found in a row, is remembered,
    /// so that nothing more is written into it (until `photos check` finds
    /// the database whole again).
    func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? StoredValueError {
            damage.record(error.description)
            return .damaged(path: layout.root.path, reason: error.description)
        }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                let reason = "SQLite reports \(error.message ?? "a corrupt database") (\(error.resultCode))"
                damage.record(reason)
                return .damaged(path: layout.root.path, reason: reason)
            case .SQLITE_FULL: return .diskFull(path: layout.root.path)
            case .SQLITE_INTERRUPT where StatementBudget.current?.stop != nil:
                return .stopped(StatementBudget.current!)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .busy(
                    "another process held the library at \(layout.root.path) for longer than the wait allowed: \(error.message ?? "\(error.resultCode)")")
            case .SQLITE_READONLY where readOnlyReason != nil:
                return .readOnly(path: layout.root.path, reason: readOnlyReason!)
            case .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN:
                return .fileSystem("the library at \(layout.root.path): \(error.message ?? "\(error.resultCode)")")
            default: return .database("the library at \(layout.root.path): \(error.description)")
            }
        }
        return .database("the library at \(layout.root.path): \(error)")
    }

    // MARK: - Availability

    /// Why the library cannot be used as it was opened: its database
    /// removed, moved or replaced, its write-ahead log deleted or replaced
    /// under this process's writer, or damage found in it; nil when it can.
    /// Cost: two or three `stat`s.
    package func availabilityProblem() -> StoreError? {
        if let lost = commitLossProblem() { return lost }
        return damage.reason.map { .damaged(path: layout.root.path, reason: $0) }
    }

    /// Why commits made now cannot last: the database or its write-ahead
    /// log is no longer the file this process writes (deleted, moved or
    /// replaced); nil while they are. The log's loss is recorded as damage.
    /// Cost: two `stat`s.
    package func commitLossProblem() -> StoreError? {
        guard FileIdentity(atPath: database.path) == database.identity else { return .removed(path: layout.root.path) }
        guard let log = writeAheadLog, FileIdentity(atPath: log.path) != log.identity else { return nil }
        let reason = """
            the write-ahead log (database/Photos.sqlite-wal) was deleted or replaced while a process wrote to the library; \
            the change blocks committed since then are lost when that process ends
            """
        damage.record(reason)
        return .damaged(path: layout.root.path, reason: reason)
    }

    /// Refuses to write into a library that cannot take it: read-only,
    /// damaged, or whose write-ahead log is gone. Checked before each commit
    /// and after it, so that no change block is acknowledged that cannot
    /// last.
    package func checkWritable() throws(StoreError) {
        if let readOnlyReason { throw .readOnly(path: layout.root.path, reason: readOnlyReason) }
        if let problem = availabilityProblem() { throw problem }
    }

    /// The most the writer connection's page cache holds, in KiB; 0 for a
    /// read-only library, which has no writer.
    package func writerPageCacheKiB() throws(StoreError) -> Int {
        guard readOnlyReason == nil else { return 0 }
        do {
            // SQLite reports a size set in KiB as its negation.
            return try writer.connection().writeWithoutTransaction { -(try Int.fetchOne($0, sql: "PRAGMA cache_size") ?? 0) }
        } catch {
            throw storeError(error)
        }
    }

    /// SQLite's `synchronous` setting on the writer connection: 2 (FULL),
    /// where each commit is synced before it returns; 0 for a read-only library.
    package func writerSynchronousLevel() throws(StoreError) -> Int {
        guard readOnlyReason == nil else { return 0 }
        do {
            return try writer.connection().writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? 0 }
        } catch {
            throw storeError(error)
        }
    }

    // MARK: - Transactions

    package func read<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        do {
            return try readers.read { db, prepared in try body(SQLiteConnection(db: db, prepared: prepared)) }
        } catch {
            throw storeError(error)
        }
    }

    /// Runs the statement on a reader, outside any transaction.
    package func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        do {
            return try readers.readStatement { db, prepared in try body(SQLiteConnection(db: db, prepared: prepared)) }
        } catch {
            throw storeError(error)
        }
    }

    /// Writes with retries: SQLite can report a busy database even with a
    /// timeout (another process recovering the WAL, for one). Refuses a
    /// library that cannot take a write (see `checkWritable`).
    package func write<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        try checkWritable()
        var attempt = 0
        while true {
            do {
                return try writer.connection().write { db in try body(SQLiteConnection(db: db)) }
            } catch let error as DatabaseError
                where
                (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && attempt < 5
            {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            } catch {
                throw storeError(error)
            }
        }
    }

    /// Reads with GRDB directly, for what only SQLite has (its pragmas).
    func readDatabase<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try readers.read { db, _ in try body(db) }
        } catch {
            throw storeError(error)
        }
    }

    package func integrityCheck() throws(StoreError) -> String {
        try readDatabase { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// A read-only connection of its own to the database, for a reader
    /// that keeps one (the commit watcher's). Cost: opening an SQLite
    /// connection.
    func openReadOnlyConnection() throws(StoreError) -> DatabaseQueue {
        do {
            return try readers.openConnection()
        } catch {
            throw storeError(error)
        }
    }

    package func watchCommits(
        after state: WatchedState, onChange: @escaping @Sendable (WatchedState) -> Void,
        onUnavailable: @escaping @Sendable (StoreError) -> Void
    ) throws(StoreError) -> any CommitWatcher {
        try FileCommitWatcher(store: self, after: state, onChange: onChange, onUnavailable: onUnavailable)
    }
}
