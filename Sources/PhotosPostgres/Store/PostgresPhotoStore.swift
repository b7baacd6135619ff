import Foundation
import PhotosStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A library whose catalogue and history are in PostgreSQL, shared by any
/// number of processes on any number of machines, and whose files are in
/// object storage (`s3://…`) or in a directory every machine mounts
/// (`file:///…`), as recorded when it was created.
///
/// Everything a ``PhotoStore`` does is the engine's shared logic
/// (``SQLPhotoStore``) over ``PostgresSQLConnection``; this type adds how
/// the library is opened, its transactions, and its commit watcher.
///
/// Where it differs from SQLite: writers take turns by the library's commit
/// lock (``ChangeBlockNumbering``) held from the start of each write
/// transaction, as SQLite's single writer does; each statement is a round
/// trip to the server; durability is the server's (`synchronous_commit`,
/// replicas), and a derivative cache and a staging area are kept on local
/// disk, per machine, when the originals are in object storage.
package final class PostgresPhotoStore: SQLPhotoStore, @unchecked Sendable {
    /// The library's URL without secrets.
    package let location: URL
    /// The library's name inside its database.
    package let name: String
    package let layout: LibraryLayout
    package let files: any LibraryFileStorage
    /// Each id costs a descent of the primary key; a scan reads the fetch's index in order.
    package var scansCostLessThanLookups: Bool { true }
    /// Whether ``layout`` is this machine's cache (the originals are in
    /// object storage) rather than the directory every server shares.
    package let layoutIsCache: Bool
    package let libraryUUID: String
    package let client: String?
    /// PostgreSQL reports a read-only server (a replica) per statement.
    package let readOnlyReason: String? = nil
    package let writesHistoryEntries: Bool
    package let momentCache = MomentCache()
    package let tokenCipher: TokenCipher
    /// The library's connections.
    package let database: LibraryDatabase
    private let text: PostgresStatementText
    /// Damage a full check found, which stops writes until a check finds none.
    private let damage = Mutex<String?>(nil)

    /// Opens the library a `postgres://` URL names, creating it when allowed
    /// and `options.originals` says where its files go. The password comes
    /// from the environment (``PostgresCredentials``).
    package init(url: URL, options: StoreOpenOptions) throws(StoreError) {
        let postgres = try PostgresLocation(url: url)
        location = postgres.url
        name = postgres.library
        if let client = options.client { try ClientIdentifier.check(client) }
        client = options.client
        writesHistoryEntries = options.writesHistoryEntries
        if let asked = options.originals { try Self.checkOriginals(asked, location: postgres) }
        database = try LibraryDatabase(location: postgres, password: try PostgresCredentials.password(for: postgres))
        let opening: PostgresSchema.Opening
        do {
            opening = try PostgresSchema.open(
                database, createIfNeeded: options.createIfNeeded && options.originals != nil,
                originals: options.originals)
        } catch .notALibrary(let path, let reason) where options.createIfNeeded && options.originals == nil {
            throw .notALibrary(path: path, reason: reason + "; to create it, say where its originals go (--originals s3://… or file:///…)")
        }
        libraryUUID = opening.libraryUUID
        text = PostgresStatementText()
        guard let originals = opening.originals else {
            throw .notALibrary(path: location.absoluteString, reason: "it records no place for its originals")
        }
        let shared = URL(string: originals).flatMap { $0.isFileURL ? URL(fileURLWithPath: $0.path, isDirectory: true) : nil }
        layoutIsCache = shared == nil
        (layout, files) = try Self.fileStorage(
            originals: originals, sharedDirectory: shared, libraryUUID: libraryUUID,
            options: options, location: postgres)
        tokenCipher = try Self.tokenCipher(database, text: text)
        try recoverAbandonedChangeBlocks()
    }

    // MARK: - Opening

    /// Refuses an originals location no machine could share.
    private static func checkOriginals(_ originals: String, location: PostgresLocation) throws(StoreError) {
        guard let url = URL(string: originals), let scheme = url.scheme?.lowercased(), ["s3", "file"].contains(scheme) else {
            throw .notALibrary(
                path: location.url.absoluteString,
                reason: "its originals go to object storage (s3://…) or a directory every server mounts (file:///…), not \(originals)")
        }
        if scheme == "file", !url.path.hasPrefix("/") {
            throw .notALibrary(path: location.url.absoluteString, reason: "the originals directory \(originals) must be an absolute path")
        }
    }

    /// The library's layout and file storage. Originals in a shared
    /// directory: the library's directory is that one, with a staging
    /// folder per machine. In object storage: this machine's cache directory
    /// holds derivatives and staging.
    private static func fileStorage(
        originals: String, sharedDirectory: URL?, libraryUUID: String, options: StoreOpenOptions,
        location: PostgresLocation
    ) throws(StoreError) -> (LibraryLayout, any LibraryFileStorage) {
        let layout: LibraryLayout
        let stored: String?
        if let sharedDirectory {
            layout = LibraryLayout(root: sharedDirectory, machine: try machineIdentity())
            stored = nil
        } else {
            layout = LibraryLayout(root: cacheDirectory().appendingPathComponent(libraryUUID, isDirectory: true))
            stored = originals
        }
        do {
            for directory in [layout.root, layout.originals, layout.derivatives, layout.staging] {
                try DurableFiles.createDirectory(directory)
            }
        } catch {
            throw .fileSystem("cannot set up the files of \(location.url.absoluteString) at \(layout.root.path): \(error.localizedDescription)")
        }
        return (layout, try options.fileStorage.open(layout: layout, originals: stored))
    }

    /// Where this machine keeps what it caches of libraries whose originals
    /// are in object storage: `PHOTOS_CACHE_DIR`, else `$XDG_CACHE_HOME` or
    /// `~/.cache`, under `openphotokit/libraries`.
    private static func cacheDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        if let explicit = environment["PHOTOS_CACHE_DIR"] { return URL(fileURLWithPath: explicit, isDirectory: true) }
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("openphotokit/libraries", isDirectory: true)
    }

    /// This machine's identity, made once and kept in its cache directory:
    /// neither the host name nor `/etc/machine-id` is sure to differ
    /// between machines (containers, cloned images).
    private static func machineIdentity() throws(StoreError) -> String {
        let file = cacheDirectory().appendingPathComponent("machine-id")
        if let text = try? String(contentsOf: file, encoding: .utf8), let identity = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return identity.uuidString
        }
        let identity = UUID().uuidString
        do {
            try DurableFiles.createDirectory(file.deletingLastPathComponent())
            // Two processes starting at once: the first name written wins, and both read it back.
            let made = FileManager.default.createFile(atPath: file.path + ".\(identity)", contents: Data(identity.utf8))
            if made, link(file.path + ".\(identity)", file.path) != 0, errno != EEXIST {
                throw CocoaError(.fileWriteUnknown)
            }
            try? FileManager.default.removeItem(atPath: file.path + ".\(identity)")
            let text = try String(contentsOf: file, encoding: .utf8)
            guard let written = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw CocoaError(.fileReadCorruptFile) }
            return written.uuidString
        } catch {
            throw .fileSystem("cannot record this machine's identity at \(file.path): \(error.localizedDescription)")
        }
    }

    /// The library's token cipher; its key is made by the first opening.
    private static func tokenCipher(_ database: LibraryDatabase, text: PostgresStatementText) throws(StoreError) -> TokenCipher {
        let key = try database.transaction(.write, text: text) { db in
            try db.execute(
                sql: "INSERT INTO library_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                arguments: [TokenCipher.metadataKey, TokenCipher.newKeyText()])
            return try db.fetchOne(String.self, sql: "SELECT value FROM library_metadata WHERE key = ?", arguments: [TokenCipher.metadataKey])
        }
        guard let key, let cipher = TokenCipher(hex: key) else {
            throw .damaged(path: database.location.url.absoluteString, reason: "its token key is not readable")
        }
        return cipher
    }

    /// PostgreSQL keeps its tables whole itself: nothing to check first.
    package func checkTablesBeforeRecovery() throws(StoreError) {}

    // MARK: - Transactions

    package func read<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        try database.transaction(.read, text: text) { db in try body(db) }
    }

    /// A read transaction: its BEGIN and COMMIT travel with the statement
    /// without waiting for answers (see ``LibraryDatabase/transaction(_:text:_:)``),
    /// so they cost no round trip.
    package func readStatement<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        try read(body)
    }

    /// Writes, retrying a few times what PostgreSQL reports as a
    /// serialisation failure or deadlock, which a retry resolves.
    package func write<T>(_ body: (any SQLConnection) throws -> T) throws(StoreError) -> T {
        try checkWritable()
        var attempt = 0
        while true {
            do {
                return try database.transaction(.write, text: text) { db in try body(db) }
            } catch .busy(let reason) {
                attempt += 1
                guard attempt < 5 else { throw .busy(reason) }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }

    package func checkWritable() throws(StoreError) {
        if let reason = damage.withLock({ $0 }) { throw .damaged(path: location.absoluteString, reason: reason) }
    }

    /// A commit PostgreSQL acknowledged is the server's to keep.
    package func commitLossProblem() -> StoreError? { nil }

    package func availabilityProblem() -> StoreError? {
        damage.withLock { $0 }.map { .damaged(path: location.absoluteString, reason: $0) }
    }

    package func watchCommits(
        after state: WatchedState, onChange: @escaping @Sendable (WatchedState) -> Void,
        onUnavailable: @escaping @Sendable (StoreError) -> Void
    ) throws(StoreError) -> any CommitWatcher {
        PostgresCommitWatcher(database: database, after: state, onChange: onChange, onUnavailable: onUnavailable)
    }

    // MARK: - Integrity

    /// "ok", or what ``databaseProblems()`` found, a line each.
    package func integrityCheck() throws(StoreError) -> String {
        let problems = databaseProblems()
        return problems.isEmpty ? "ok" : problems.joined(separator: "\n")
    }

    /// PostgreSQL checks its pages (with data checksums on) and keys itself
    /// as it reads; this reads every table of the library whole, and checks
    /// what constraints cannot say: that the change counter is not behind
    /// the change blocks it numbered.
    package func databaseProblems() -> [String] {
        do {
            return try read { db in
                var problems: [String] = []
                let tables = try db.fetchAll(
                    String.self,
                    sql: """
                        SELECT table_name FROM information_schema.tables
                        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
                        """)
                for table in tables {
                    // Names come from the catalogue, quoted as identifiers.
                    _ = try db.fetchOne(Int64.self, sql: "SELECT COUNT(*) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
                let counter = try db.fetchOne(Int64.self, sql: "SELECT last FROM change_counter") ?? -1
                let newest = try db.fetchOne(Int64.self, sql: "SELECT COALESCE(MAX(id), 0) FROM change_transaction") ?? 0
                if counter < newest {
                    problems.append("the change counter (\(counter)) is behind the newest change block (\(newest))")
                }
                return problems
            }
        } catch {
            return ["the database cannot be read: \(error)"]
        }
    }

    package func recordIntegrity(databaseIsWhole: Bool, problem: String?) {
        damage.withLock { recorded in
            if databaseIsWhole { recorded = nil } else if let problem { recorded = problem }
        }
    }
}
