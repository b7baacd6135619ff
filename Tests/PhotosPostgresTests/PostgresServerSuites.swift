import Foundation
import PhotosStore
import PhotosTestSupport
import PostgresNIO
import Testing

@testable import PhotosPostgres

/// A new library's database on the test server, its schema created.
func newLibrary(user: String = "postgres", password: String? = nil) throws -> LibraryDatabase {
    let server = try #require(TestPostgresServer.current)
    let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL(user: user)), password: password)
    _ = try PostgresSchema.open(database, createIfNeeded: true, originals: nil)
    return database
}

/// The rows of one query, each a tuple of the given types.
func rows<each T: PostgresDecodable & Sendable>(
    _ database: LibraryDatabase, _ sql: String,
    as types: (repeat each T).Type
) throws -> [(repeat each T)] {
    try database.read { connection in
        var result: [(repeat each T)] = []
        for try await row in try await connection.run(PostgresQuery(unsafeSQL: sql)) {
            result.append(try row.decode((repeat each T).self))
        }
        return result
    }
}

@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct PostgresDatabaseTests {
    @Test func anAbsentServerIsUnreachableAtOnce() throws {
        let location = try PostgresLocation(url: URL(string: "postgres://postgres@/postgres?host=/nonexistent&library=x")!)
        #expect {
            _ = try LibraryDatabase(location: location, password: nil)
        } throws: { error in
            guard case StoreError.unreachable(let place, _) = error else { return false }
            return place.contains("/nonexistent")
        }
    }

    @Test func aMissingDatabaseIsUnreachable() throws {
        let server = try #require(TestPostgresServer.current)
        let location = try PostgresLocation(url: URL(string: "postgres://postgres@/no_such_database?host=\(server.socketDirectory)&library=x")!)
        #expect {
            _ = try LibraryDatabase(location: location, password: nil)
        } throws: { error in
            guard case StoreError.unreachable(_, let reason) = error else { return false }
            return reason.contains("no_such_database")
        }
    }

    @Test func aRoleWithAPasswordNeedsIt() throws {
        let server = try #require(TestPostgresServer.current)
        let password = try #require(server.password)
        let location = try PostgresLocation(url: server.newLibraryURL(user: "photos_password"))
        #expect {
            _ = try LibraryDatabase(location: location, password: nil)
        } throws: { error in
            guard case StoreError.unreachable(_, let reason) = error else { return false }
            return reason.contains(PostgresCredentials.passwordVariable)
        }
        #expect {
            _ = try LibraryDatabase(location: location, password: "wrong")
        } throws: { error in
            guard case StoreError.unreachable(_, let reason) = error else { return false }
            return !reason.contains("wrong")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("\(password)\n".utf8).write(to: file)
        let given = try PostgresCredentials.password(for: location, environment: [PostgresCredentials.passwordFileVariable: file.path])
        let database = try LibraryDatabase(location: location, password: given)
        let opening = try PostgresSchema.open(database, createIfNeeded: true, originals: nil)
        #expect(opening.created)
    }

    @Test func aFailedWriteChangesNothingAndErrorsAreTyped() throws {
        let database = try newLibrary()
        #expect {
            try database.write { connection in
                try await connection.run("INSERT INTO library_metadata (key, value) VALUES ('probe', 'x')")
                try await connection.run("SELECT no_such_column FROM library_metadata")
            }
        } throws: { error in
            guard case StoreError.database(let message) = error else { return false }
            return message.contains("42703")
        }
        #expect(try rows(database, "SELECT COUNT(*) FROM library_metadata WHERE key = 'probe'", as: Int.self) == [0])
    }
}

@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct PostgresSchemaTests {
    @Test func aNewLibraryHasEveryTableItsIdentityAndItsSmartAlbums() throws {
        let database = try newLibrary()
        let schema = database.location.schema
        #expect(try rows(database, "SELECT MAX(version) FROM \(schema).schema_migration", as: Int.self) == [PostgresSchema.currentVersion])
        let titles = try rows(database, "SELECT title FROM \(schema).collection ORDER BY position", as: String.self)
        #expect(titles == SmartAlbumSubtype.libraryAlbums.map(\.title))
        let reopened = try PostgresSchema.open(database, createIfNeeded: false, originals: nil)
        #expect(!reopened.created)
        #expect(try rows(database, "SELECT value FROM \(schema).library_metadata WHERE key = 'uuid'", as: String.self) == [reopened.libraryUUID])
    }

    @Test func aMissingLibraryIsNotCreatedWhenNotAllowed() throws {
        let server = try #require(TestPostgresServer.current)
        let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL()), password: nil)
        #expect {
            _ = try PostgresSchema.open(database, createIfNeeded: false, originals: nil)
        } throws: { error in
            guard case StoreError.notALibrary(_, let reason) = error else { return false }
            return reason.contains("photos init")
        }
    }

    @Test func aNewerLibraryIsRefusedAndLeftUntouched() throws {
        let database = try newLibrary()
        let schema = database.location.schema
        try database.write { connection in
            try await connection.run(
                PostgresQuery(unsafeSQL: "INSERT INTO \(schema).schema_migration VALUES (\(PostgresSchema.currentVersion + 1), 'from the future', 0)"))
        }
        #expect(
            throws: StoreError.newerLibraryVersion(
                path: database.location.url.absoluteString,
                found: PostgresSchema.currentVersion + 1, supported: PostgresSchema.currentVersion)
        ) {
            try PostgresSchema.open(database, createIfNeeded: true, originals: nil)
        }
        #expect(try rows(database, "SELECT COUNT(*) FROM \(schema).schema_migration", as: Int.self) == [PostgresSchema.currentVersion + 1])
    }

    @Test func processesOpeningANewLibraryAtOnceCreateItOnce() async throws {
        let server = try #require(TestPostgresServer.current)
        let url = server.newLibraryURL()
        let identities = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let database = try LibraryDatabase(location: PostgresLocation(url: url), password: nil)
                    return try PostgresSchema.open(database, createIfNeeded: true, originals: nil).libraryUUID
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
    }

    @Test func theOriginalsAreRecordedAndAnotherPlaceRefused() throws {
        let server = try #require(TestPostgresServer.current)
        let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL()), password: nil)
        #expect(try PostgresSchema.open(database, createIfNeeded: true, originals: "s3://bucket/library").originals == "s3://bucket/library")
        #expect(try PostgresSchema.open(database, createIfNeeded: false, originals: nil).originals == "s3://bucket/library")
        #expect(throws: StoreError.self) {
            try PostgresSchema.open(database, createIfNeeded: false, originals: "s3://other/library")
        }
    }

    @Test func theTimelineDayAndMonthCountsAreKeptByTheDatabase() throws {
        let database = try newLibrary()
        let schema = database.location.schema
        try database.write { connection in
            // 2023-11-14 22:13:20 UTC, one hour east: the 14th; the second, a day later.
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO \(schema).asset (uuid, media_type, creation_date, modification_date, added_date, playback_style, time_zone_offset)
                        VALUES ('A', 1, 1700000000, 0, 0, 1, 3600), ('B', 1, 1700086400, 0, 0, 1, 3600), ('C', 1, NULL, 0, 0, 1, NULL)
                        """))
        }
        #expect(
            try rows(
                database, "SELECT uuid, local_day, local_month FROM \(schema).asset WHERE creation_date IS NOT NULL ORDER BY uuid",
                as: (String, Int, Int).self
            ).map { "\($0.0) \($0.1) \($0.2)" } == ["A 20231114 202311", "B 20231115 202311"])
        #expect(
            try rows(database, "SELECT local_month, asset_count FROM \(schema).timeline_month ORDER BY 1", as: (Int, Int).self)
                .map { "\($0.0):\($0.1)" } == ["0:1", "202311:2"])
        try database.write { connection in
            try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \(schema).asset SET is_hidden = 1 WHERE uuid = 'A'"))
            try await connection.run(PostgresQuery(unsafeSQL: "DELETE FROM \(schema).asset WHERE uuid = 'C'"))
        }
        #expect(
            try rows(database, "SELECT local_month, asset_count FROM \(schema).timeline_month ORDER BY 1", as: (Int, Int).self)
                .map { "\($0.0):\($0.1)" } == ["0:0", "202311:1"])
        #expect(try rows(database, "SELECT COUNT(*) FROM \(schema).timeline_month_change", as: Int.self) == [0])
    }

    /// Thousands of assets of one month, some then moved, hidden or deleted
    /// in the same transaction, and others in a later one: the months
    /// match a count of the assets, each transaction moves a month's
    /// version, and no change is left waiting.
    @Test func monthCountsAddUpWhatEachTransactionDid() throws {
        let database = try newLibrary()
        let schema = database.location.schema
        let november2023 = 1_700_000_000
        try database.write { connection in
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO \(schema).asset (uuid, media_type, creation_date, modification_date, added_date, playback_style, time_zone_offset)
                        SELECT 'A' || n, 1, \(november2023) + n, 0, 0, 1, 0 FROM generate_series(1, 5000) n
                        """))
            try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \(schema).asset SET creation_date = creation_date + 40 * 86400 WHERE id % 5 = 0"))
            try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \(schema).asset SET is_hidden = 1 WHERE id % 7 = 0"))
            try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \(schema).asset SET is_favorite = 1 WHERE id % 3 = 0"))
            try await connection.run(PostgresQuery(unsafeSQL: "DELETE FROM \(schema).asset WHERE id % 11 = 0"))
        }
        try expectMonthCountsMatchTheAssets(database)
        let versions = try rows(database, "SELECT local_month, version FROM \(schema).timeline_month ORDER BY 1", as: (Int, Int).self)
        try database.write { connection in
            try await connection.run(PostgresQuery(unsafeSQL: "UPDATE \(schema).asset SET is_favorite = 0 WHERE id = 1"))
        }
        try expectMonthCountsMatchTheAssets(database)
        let moved = try rows(database, "SELECT local_month, version FROM \(schema).timeline_month ORDER BY 1", as: (Int, Int).self)
        #expect(moved.map(\.0) == versions.map(\.0))
        #expect(zip(moved, versions).filter { $0.0.1 != $0.1.1 }.map(\.0.0) == [202311])
    }

    /// A library left at version 2, which counted months row by row, keeps
    /// its counts when opened by this build and counts on from them.
    @Test func aVersion2LibraryKeepsItsMonthCounts() throws {
        let server = try #require(TestPostgresServer.current)
        let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL()), password: nil)
        _ = try PostgresSchema.open(database, createIfNeeded: true, originals: nil, through: 2)
        let schema = database.location.schema
        func insert(_ first: Int, _ last: Int) throws {
            _ = try database.write { connection in
                try await connection.run(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO \(schema).asset (uuid, media_type, creation_date, modification_date, added_date, playback_style, time_zone_offset)
                            SELECT 'A' || n, 1, 1700000000 + n * 86400, 0, 0, 1, 0 FROM generate_series(\(first), \(last)) n
                            """))
            }
        }
        try insert(1, 100)
        _ = try PostgresSchema.open(database, createIfNeeded: false, originals: nil)
        #expect(try rows(database, "SELECT MAX(version) FROM \(schema).schema_migration", as: Int.self) == [PostgresSchema.currentVersion])
        try expectMonthCountsMatchTheAssets(database)
        try insert(101, 200)
        try expectMonthCountsMatchTheAssets(database)
    }

    /// A library left at version 3, which counted a change block's objects
    /// only when it dropped their details, has every kept block counted
    /// when opened by this build (readers with read-write access list blocks
    /// by their counts); a block of one client's access counts none.
    @Test func aVersion3LibraryCountsTheObjectsOfItsChangeBlocks() throws {
        let server = try #require(TestPostgresServer.current)
        let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL()), password: nil)
        _ = try PostgresSchema.open(database, createIfNeeded: true, originals: nil, through: 3)
        let schema = database.location.schema
        _ = try database.write { connection in
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO \(schema).change_transaction (id, committed_at, stamp, details, object_count)
                            VALUES (1, 0, 11, 1, 0), (2, 0, 12, 1, 0), (3, 0, 13, 0, 5000)
                        """))
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO \(schema).change_entry (transaction_id, position, entity, row_id, uuid, kind, client)
                            VALUES (1, 0, 1, 1, 'A', 1, NULL), (1, 1, 1, 2, 'B', 1, NULL), (2, 0, 0, 0, '', 2, 'app')
                        """))
        }
        _ = try PostgresSchema.open(database, createIfNeeded: false, originals: nil)
        #expect(
            try rows(database, "SELECT id, object_count FROM \(schema).change_transaction ORDER BY id", as: (Int, Int).self)
                .map { "\($0.0): \($0.1)" } == ["1: 2", "2: 0", "3: 5000"])
    }

    /// A library left at version 4 takes the steps every backend shares
    /// (``LibraryTables/steps``), rendered for PostgreSQL with bare table
    /// names: its share links, limited selections then, become shares of
    /// the album their label names, or are denied when none holds them all.
    @Test func aVersion4LibraryTakesTheSharedStepsAndItsLinksShareTheirAlbum() throws {
        let server = try #require(TestPostgresServer.current)
        let database = try LibraryDatabase(location: PostgresLocation(url: server.newLibraryURL()), password: nil)
        _ = try PostgresSchema.open(database, createIfNeeded: true, originals: nil, through: 4)
        let schema = database.location.schema
        _ = try database.write { connection in
            for statement in [
                "INSERT INTO \(schema).asset (id, uuid, media_type, modification_date, added_date, playback_style) VALUES (1, 'A1', 1, 0, 0, 1)",
                """
                INSERT INTO \(schema).collection (id, uuid, kind, type, subtype, title, creation_date, modification_date)
                    VALUES (100, 'TRIP', 1, 1, 2, 'Trip', 0, 0)
                """,
                "INSERT INTO \(schema).collection_asset (collection_id, asset_id, position) VALUES (100, 1, 0)",
                "INSERT INTO \(schema).client_access (client, access) VALUES ('share.found', 2), ('share.lost', 2), ('app', 2)",
                "INSERT INTO \(schema).client_selection (client, entity, uuid) VALUES ('share.found', 1, 'A1'), ('share.lost', 1, 'A1')",
                """
                INSERT INTO \(schema).access_token (id, secret_hash, client, label, created_at)
                    VALUES ('t1', '\\x00', 'share.found', 'share: Trip', 0), ('t2', '\\x00', 'share.lost', 'share: Gone', 0)
                """,
            ] {
                try await connection.run(PostgresQuery(unsafeSQL: statement))
            }
        }
        _ = try PostgresSchema.open(database, createIfNeeded: false, originals: nil)
        #expect(try rows(database, "SELECT MAX(version) FROM \(schema).schema_migration", as: Int.self) == [PostgresSchema.currentVersion])
        #expect(
            try rows(
                database, "SELECT client, access, COALESCE(shared_album, '-') FROM \(schema).client_access ORDER BY client", as: (String, Int, String).self
            )
            .map { "\($0.0) \($0.1) \($0.2)" } == ["app 2 -", "share.found 5 TRIP", "share.lost 4 -"])
    }

    private func expectMonthCountsMatchTheAssets(_ database: LibraryDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = database.location.schema
        let kept = try rows(
            database,
            """
            SELECT local_month, asset_count, id_total FROM \(schema).timeline_month WHERE asset_count <> 0 ORDER BY 1
            """, as: (Int, Int, Int).self
        ).map { "\($0.0): \($0.1), \($0.2)" }
        let counted = try rows(
            database,
            """
            SELECT COALESCE(local_month, 0), COUNT(*), SUM(id)::bigint FROM \(schema).asset
            WHERE trashed_date IS NULL AND is_hidden = 0 AND burst_member_hidden = 0 AND source_type = 1 GROUP BY 1 ORDER BY 1
            """, as: (Int, Int, Int).self
        ).map { "\($0.0): \($0.1), \($0.2)" }
        #expect(kept == counted, sourceLocation: sourceLocation)
        #expect(try rows(database, "SELECT COUNT(*) FROM \(schema).timeline_month_change", as: Int.self) == [0], sourceLocation: sourceLocation)
    }
}

@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct ChangeBlockNumberingTests {
    /// Writers that number blocks at once, each holding its transaction open
    /// a random while before numbering; a reader meanwhile: every state it
    /// sees holds blocks 1…n and nothing else, so no reader skips a block.
    @Test func blocksAreNumberedInCommitOrderAndNoReaderSeesAGap() async throws {
        let database = try newLibrary()
        let location = database.location
        let text = PostgresStatementText()
        let writers = 4
        let blocksEach = 25
        let stop = LockedValue(false)
        let reader = Task.detached { () throws -> Int in
            var states = 0
            while !stop.get() {
                let ids = try rows(database, "SELECT id FROM change_transaction ORDER BY id", as: Int64.self)
                #expect(ids == (0..<ids.count).map { Int64($0 + 1) }, "a reader saw \(ids)")
                states += 1
            }
            return states
        }
        try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<writers {
                // Each writer blocks its thread, as the engine's callers do: not on the cooperative pool.
                group.addTask(executorPreference: DispatchTaskExecutor.shared) {
                    var numbers: [Int64] = []
                    for _ in 0..<blocksEach {
                        let pause = Double.random(in: 0...0.002)
                        numbers.append(
                            try database.transaction(.write, text: text) { db in
                                _ = try db.fetchOne(Int64.self, sql: "SELECT 1")
                                Thread.sleep(forTimeInterval: pause)
                                return try ChangeBlockNumbering.number(db, committedAt: Date(), author: nil, objectCount: 0)
                            })
                    }
                    return numbers
                }
            }
            var all: [Int64] = []
            for try await numbers in group {
                #expect(numbers == numbers.sorted())
                all += numbers
            }
            #expect(all.sorted() == Array(1...Int64(writers * blocksEach)))
        }
        stop.set(true)
        #expect(try await reader.value > 0)
        #expect(try database.read { try await ChangeBlockNumbering.watchedState($0, location: location) }.changeBlock == Int64(writers * blocksEach))
    }

    /// The server commits a block, and the connection fails before its
    /// answer arrives: the block is reported committed, once, and not as
    /// a failure a caller would retry into a duplicate.
    @Test func aBlockWhoseCommitAnswerIsLostIsReportedCommitted() throws {
        let (proxy, database) = try libraryBehindAProxy()
        defer { proxy.stop() }
        let text = PostgresStatementText()
        proxy.lose(.answer)
        let number = try database.transaction(.write, text: text) { db in
            _ = try db.execute(sql: "INSERT INTO library_metadata (key, value) VALUES ('probe', 'kept')")
            return try ChangeBlockNumbering.number(db, committedAt: Date(), author: nil, objectCount: 0)
        }
        #expect(proxy.losses == 1)
        #expect(number == 1)
        #expect(try rows(database, "SELECT value FROM library_metadata WHERE key = 'probe'", as: String.self) == ["kept"])
        #expect(try rows(database, "SELECT id FROM change_transaction", as: Int.self) == [1])
        let next = try database.transaction(.write, text: text) { try ChangeBlockNumbering.number($0, committedAt: Date(), author: nil, objectCount: 0) }
        #expect(next == 2)
    }

    /// The connection fails as the block's COMMIT is sent, before the
    /// server has it: the block is reported failed, and nothing of it stays.
    @Test func aBlockWhoseCommitIsLostIsReportedFailedAndLeavesNothing() throws {
        let (proxy, database) = try libraryBehindAProxy()
        defer { proxy.stop() }
        let text = PostgresStatementText()
        proxy.lose(.request)
        #expect {
            try database.transaction(.write, text: text) { db in
                _ = try db.execute(sql: "INSERT INTO library_metadata (key, value) VALUES ('probe', 'lost')")
                return try ChangeBlockNumbering.number(db, committedAt: Date(), author: nil, objectCount: 0)
            }
        } throws: { error in
            guard case StoreError.unreachable = error else { return false }
            return true
        }
        #expect(proxy.losses == 1)
        #expect(try rows(database, "SELECT value FROM library_metadata WHERE key = 'probe'", as: String.self).isEmpty)
        let next = try database.transaction(.write, text: text) { try ChangeBlockNumbering.number($0, committedAt: Date(), author: nil, objectCount: 0) }
        #expect(next == 1)
    }

    /// A new library reached through an ``AnswerLosingProxy``.
    private func libraryBehindAProxy() throws -> (AnswerLosingProxy, LibraryDatabase) {
        let server = try #require(TestPostgresServer.current)
        let proxy = try AnswerLosingProxy(upstream: server.socket)
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let database = try LibraryDatabase(location: PostgresLocation(url: proxy.libraryURL(name)), password: nil)
        _ = try PostgresSchema.open(database, createIfNeeded: true, originals: nil)
        return (proxy, database)
    }

    @Test func aRolledBackBlockTakesNoNumber() throws {
        let database = try newLibrary()
        let text = PostgresStatementText()
        #expect(throws: StoreError.self) {
            try database.transaction(.write, text: text) { db in
                _ = try ChangeBlockNumbering.number(db, committedAt: Date(), author: "x", objectCount: 0)
                throw StoreError.editNotAllowed("abandoned")
            }
        }
        let next = try database.transaction(.write, text: text) { try ChangeBlockNumbering.number($0, committedAt: Date(), author: nil, objectCount: 0) }
        #expect(next == 1)
    }

    /// The session ends while COMMIT runs (a deferred trigger ends it), so
    /// the answer to COMMIT is lost: the block is looked up by its stamp,
    /// found not committed, and the write fails with nothing of it stored.
    @Test func aCommitWhoseAnswerIsLostIsSettledByItsStamp() throws {
        let database = try newLibrary()
        let text = PostgresStatementText()
        try database.transaction(.write, text: text) { db in
            try db.execute(
                sql: """
                    CREATE FUNCTION end_session() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$
                    """)
            try db.execute(
                sql: """
                    CREATE CONSTRAINT TRIGGER end_session AFTER INSERT ON change_transaction
                    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.author = 'lost') EXECUTE FUNCTION end_session()
                    """)
        }
        #expect {
            try database.transaction(.write, text: text) { try ChangeBlockNumbering.number($0, committedAt: Date(), author: "lost", objectCount: 0) }
        } throws: { error in
            guard case StoreError.unreachable = error else { return false }
            return true
        }
        #expect(try rows(database, "SELECT COUNT(*) FROM change_transaction", as: Int.self) == [0])
        let next = try database.transaction(.write, text: text) { try ChangeBlockNumbering.number($0, committedAt: Date(), author: nil, objectCount: 0) }
        #expect(next == 1)
    }
}

@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct PostgresCommitWatcherTests {
    private func commit(_ database: LibraryDatabase) throws -> Int64 {
        return try database.transaction(.write, text: PostgresStatementText()) {
            try ChangeBlockNumbering.number($0, committedAt: Date(), author: nil, objectCount: 0)
        }
    }

    @Test func everyCommitIsHeardOnceInOrderEvenAcrossADroppedConnection() async throws {
        let database = try newLibrary()
        let other = try LibraryDatabase(location: database.location, password: nil)
        let heard = LockedValue<[Int64]>([])
        let watcher = PostgresCommitWatcher(
            database: database, after: WatchedState(changeBlock: 0, tokenRevocation: nil),
            onChange: { state in heard.update { $0.append(state.changeBlock) } },
            onUnavailable: { _ in Issue.record("the library was reported unavailable") })
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(try commit(other) == 1)
        #expect(try await eventually { heard.get() == [1] })

        // The server drops the watcher's connection; a block commits while it is away.
        try other.write { connection in
            try await connection.run(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
                """)
        }
        #expect(try commit(other) == 2)
        #expect(try commit(other) == 3)
        #expect(try await eventually { heard.get().last == 3 })
        #expect(heard.get() == heard.get().sorted() && Set(heard.get()).count == heard.get().count)
    }

    @Test func aDroppedLibraryIsReportedOnce() async throws {
        let database = try newLibrary()
        let reports = LockedValue<[StoreError]>([])
        let watcher = PostgresCommitWatcher(
            database: database, after: WatchedState(changeBlock: 0, tokenRevocation: nil), onChange: { _ in },
            onUnavailable: { error in reports.update { $0.append(error) } })
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(200))
        let schema = database.location.schema
        try database.write { try await $0.run(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE")) }
        #expect(try await eventually { !reports.get().isEmpty })
        try await Task.sleep(for: .milliseconds(300))
        #expect(reports.get() == [.removed(path: database.location.url.absoluteString)])
    }
}
