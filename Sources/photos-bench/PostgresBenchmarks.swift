import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Photos
import PhotosObjectStorage
import PhotosPostgres
import PhotosStore
import PostgresNIO

/// Libraries past one machine, on the servers `script/services` starts:
/// - fetches and enumeration of a PostgreSQL library of N assets, against
///   the same queries and row decoding written by hand on postgres-nio;
/// - searches (a word, a place, a person, a combined query) of the same
///   library indexed, against the same `tsquery` written by hand;
/// - a change block of 10,000 assets, against hand-written inserts of the
///   same rows in one transaction;
/// - a commit through one `photos serve` to the event on another's stream;
/// - change blocks from 4 processes at once, SQLite against PostgreSQL;
/// - importing photos with the originals in object storage, against a
///   library directory.
struct PostgresBenchmarks {
    let assetCount: Int
    let workdir: URL
    let quick: Bool
    let services: BenchServices

    /// Scratch libraries are named with this prefix, and dropped before and after the run.
    private static let scratchPrefix = "bench_scratch_"

    func run() async throws {
        print("photos-bench postgres: \(assetCount) assets, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        setenv("PHOTOS_S3_ACCESS_KEY_ID", services.s3AccessKey, 1)
        setenv("PHOTOS_S3_SECRET_ACCESS_KEY", services.s3SecretKey, 1)
        try await dropScratchLibraries()
        do {
            try await BenchLibrary.withScratch(in: workdir) {
                try await fetches()
                try await searches()
                try await commit()
                try await eventAcrossServers()
                try await writersAtOnce()
                try await objectStorageImport()
            }
        } catch {
            try? await dropScratchLibraries()
            throw error
        }
        try await dropScratchLibraries()
    }

    // MARK: - Fetches

    private func fetches() async throws {
        let name = try await prepareLibrary()
        let library = try PHPhotoLibrary(url: services.libraryURL(name))
        try await services.withConnection(library: name) { connection in
            try await fetches(library, connection)
        }
    }

    private func fetches(_ library: PHPhotoLibrary, _ connection: PostgresConnection) async throws {
        var sink = 0

        // 1. The default fetch sorted by creation date: count, then 100 random objects.
        let sorted = PHFetchOptions()
        sorted.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let visible = FetchBenchmarks.visible
        sink &+= try await compareFetch(
            "PostgreSQL: fetchAssets sorted by creationDate, count + 100 random object(at:)",
            sorted, library, connection, matching: visible,
            ids: PostgresQuery(
                unsafeSQL: """
                    SELECT a.id FROM asset a WHERE \(visible) ORDER BY a.creation_date ASC NULLS FIRST, a.id ASC
                    """))

        // 2. A predicate fetch, newest first.
        let since = BenchLibrary.start.addingTimeInterval(BenchLibrary.span / 2)
        let predicate = PHFetchOptions()
        predicate.predicate = NSPredicate(
            format: "mediaType == %d AND creationDate > %@ AND favorite == NO",
            PHAssetMediaType.image.rawValue, since as any CVarArg)
        predicate.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        var binds = PostgresBindings()
        binds.append(since.timeIntervalSince1970)
        sink &+= try await compareFetch(
            "PostgreSQL: predicate fetch (mediaType, creationDate, favorite), newest first", predicate,
            library, connection,
            matching: "\(visible) AND a.media_type = 1 AND a.creation_date > \(since.timeIntervalSince1970) AND a.is_favorite = 0",
            ids: PostgresQuery(
                unsafeSQL: """
                    SELECT a.id FROM asset a WHERE \(visible) AND a.media_type = 1 AND a.creation_date > $1 AND a.is_favorite = 0
                    ORDER BY a.creation_date DESC NULLS LAST, a.id DESC
                    """, binds: binds))

        // 3. enumerateObjects over everything, against one streamed query of the same columns.
        let (oursEnumerate, baseEnumerate) = try await Measure.alternating(
            runs: 2,
            ours: {
                library.withCurrentLibrary {
                    PHAsset.fetchAssets(with: sorted).enumerateObjects { asset, _, _ in sink &+= asset.pixelWidth }
                }
            },
            baseline: {
                try await Self.inReadTransaction(connection) {
                    let rows = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT \(FetchBenchmarks.columns) FROM asset a WHERE \(visible) ORDER BY a.creation_date ASC NULLS FIRST, a.id ASC
                                """), logger: BenchServices.quiet)
                    for try await row in rows { sink &+= try BaselineAsset(postgres: row).pixelWidth }
                }
            })
        Measure.report("PostgreSQL: enumerateObjects over the whole result", ours: oursEnumerate, baseline: baseEnumerate, target: 1.5)
        if sink == 42 { print("") }
    }

    /// Reports a fetch with `options` and 100 random `object(at:)` against
    /// the baseline's `ids` query (the rows `matching` says, in order) and
    /// single-row loads. Returns a value that keeps the work from being optimised away.
    private func compareFetch(
        _ name: String, _ options: PHFetchOptions, _ library: PHPhotoLibrary, _ connection: PostgresConnection,
        matching condition: String, ids: PostgresQuery
    ) async throws -> Int {
        var sink = 0
        let indexes = Self.randomIndexes(upTo: try await Self.count(connection, "SELECT COUNT(*) FROM asset a WHERE \(condition)"))
        let (ours, baseline) = try await Measure.alternating(
            ours: {
                library.withCurrentLibrary {
                    let result = PHAsset.fetchAssets(with: options)
                    sink &+= result.count
                    for index in indexes { sink &+= result.object(at: index).pixelWidth }
                }
            },
            baseline: {
                sink &+= try await Self.fetchAndLoad(connection, ids: ids, at: indexes)
            })
        Measure.report(name, ours: ours, baseline: baseline, target: 1.3)
        return sink
    }

    /// The baseline's fetch: the ids in order in one snapshot, then the
    /// asked rows one query each, every column decoded.
    private static func fetchAndLoad(_ connection: PostgresConnection, ids query: PostgresQuery, at indexes: [Int]) async throws -> Int {
        try await inReadTransaction(connection) {
            var ids: [Int64] = []
            for try await id in try await connection.query(query, logger: BenchServices.quiet).decode(Int64.self) { ids.append(id) }
            var sink = ids.count
            for index in indexes {
                var binds = PostgresBindings()
                binds.append(ids[index])
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT \(FetchBenchmarks.columns) FROM asset a WHERE a.id = $1",
                        binds: binds), logger: BenchServices.quiet)
                for try await row in rows { sink &+= try BaselineAsset(postgres: row).pixelWidth }
            }
            return sink
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction, as the engine reads.
    private static func inReadTransaction<T>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: BenchServices.quiet)
        let value = try await body()
        try await connection.query("COMMIT", logger: BenchServices.quiet)
        return value
    }

    private static func count(_ connection: PostgresConnection, _ sql: String) async throws -> Int {
        for try await count in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: BenchServices.quiet).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }

    private static func randomIndexes(upTo count: Int) -> [Int] {
        var random = SplitMix(state: 7)
        return count == 0 ? [] : (0..<100).map { _ in Int(random.next() % UInt64(count)) }
    }

    /// The library of ``assetCount`` assets: the SQLite bench library's copy
    /// by `photos migrate`'s code, made once per database server.
    private func prepareLibrary() async throws -> String {
        let name = "bench_\(assetCount)"
        try await copyOnce(name, "\(assetCount) assets", checking: "asset") { try BenchLibrary.prepare(assetCount: assetCount, in: workdir) }
        return name
    }

    /// Copies the SQLite library `source` makes into the PostgreSQL library
    /// `name` by `photos migrate`'s code, unless `table` there has rows: once
    /// per database server.
    private func copyOnce(_ name: String, _ contents: String, checking table: String, from source: () throws -> URL) async throws {
        let stored = try await services.withConnection(library: name) { connection in
            for try await exists in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT to_regclass('\(table)') IS NOT NULL"), logger: BenchServices.quiet
            )
            .decode(Bool.self) where exists {
                return try await Self.count(connection, "SELECT COUNT(*) FROM \(table)")
            }
            return 0
        }
        guard stored == 0 else { return }
        let library = try source()
        print("copying \(contents) into PostgreSQL (once per database server)...")
        let started = Date()
        let originals = workdir.appendingPathComponent("postgres-\(name)-files", isDirectory: true)
        try? FileManager.default.removeItem(at: originals)
        _ = try PHPhotoLibrary(url: library).migrate(to: services.libraryURL(name), originals: URL(string: "file://\(originals.path)"))
        print(String(format: "copied in %.0f s", Date().timeIntervalSince(started)))
    }

    // MARK: - Searches

    /// Each search a first page of 100 as a grid asks, on the search bench
    /// library (``SearchBenchmarks/indexedLibrary(assetCount:in:)``) copied
    /// into PostgreSQL with its index: ours through
    /// `PHAsset.fetchAssets(matchingSearch:)`, the baseline the same
    /// `tsquery` on the same GIN-indexed expression with the same conditions
    /// and order, by hand on postgres-nio. Each side's 95th percentile.
    private func searches() async throws {
        let name = "bench_search_\(assetCount)"
        try await copyOnce(name, "\(assetCount) indexed assets", checking: "asset_search") {
            try SearchBenchmarks.indexedLibrary(assetCount: assetCount, in: workdir)
        }
        let library = try PHPhotoLibrary(url: services.libraryURL(name))
        try await services.withConnection(library: name) { connection in
            var city: String?
            for try await found in try await connection.query(
                "SELECT city FROM asset_place GROUP BY city ORDER BY COUNT(*) DESC, city LIMIT 1", logger: BenchServices.quiet
            ).decode(String.self) {
                city = found
            }
            guard let city else { throw BenchError("no asset of the bench library was named a place") }
            let document = "to_tsvector('simple'::regconfig, x.words || ' ' || x.place || ' ' || x.people || ' ' || x.content)"
            let turns = quick ? 20 : 200
            for query in SearchBenchmarks.queries(assetCount: assetCount, city: city) {
                let options = PHFetchOptions()
                options.fetchLimit = 100
                let recheck = query.tsqueryColumn.map { " AND to_tsvector('simple'::regconfig, x.\($0)) @@ q" } ?? ""
                var found = (ours: 0, baseline: 0)
                var times = (ours: [Double](), baseline: [Double]())
                for _ in 0..<turns {
                    let oursFirst = Bool.random()
                    for side in oursFirst ? [true, false] : [false, true] {
                        if side {
                            times.ours.append(
                                try await Measure.elapsed {
                                    found.ours = try library.withCurrentLibrary {
                                        try PHAsset.fetchAssets(matchingSearch: query.search, options: options).count
                                    }
                                })
                        } else {
                            let sql: PostgresQuery = """
                                SELECT a.id FROM asset_search x JOIN asset a ON a.id = x.asset_id, to_tsquery('simple'::regconfig, \(query.tsquery)) q
                                WHERE \(unescaped: document) @@ q\(unescaped: recheck)
                                    AND a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 AND a.source_type = 1\(unescaped: query.extra)
                                ORDER BY ts_rank(\(unescaped: document), q) DESC, a.creation_date DESC, a.id DESC LIMIT 100
                                """
                            times.baseline.append(
                                try await Measure.elapsed {
                                    var count = 0
                                    for try await _ in try await connection.query(sql, logger: BenchServices.quiet).decode(Int64.self) { count += 1 }
                                    found.baseline = count
                                })
                        }
                    }
                }
                try SearchBenchmarks.report(query, on: "PostgreSQL: ", assetCount: assetCount, found: found, times: times)
            }
        }
    }

    // MARK: - Commits

    /// One change block creating 10,000 assets, against hand-written inserts
    /// of the same rows in one transaction; both committed by the same server
    /// with its durability (`synchronous_commit`).
    private func commit() async throws {
        var random = SplitMix(state: 2024)
        let records = (0..<(quick ? 1_000 : 10_000)).map { BenchLibrary.record(index: $0, random: &random) }
        var changes = ChangeSet()
        changes.newAssets = records.map { NewAsset(record: $0, resources: []) }
        var store: (any PhotoStore)?
        var baseline: PostgresConnection?
        let (ours, base) = try await Measure.alternating(
            prepare: {
                store = try openStore(try scratchLibrary())
                let name = try scratchLibrary()
                _ = try openStore(name)
                try await baseline?.close()
                baseline = try await services.connect(library: name)
            },
            ours: {
                _ = try store!.beginCommit().commit(changes)
            },
            baseline: {
                let connection = baseline!
                try await connection.query("BEGIN", logger: BenchServices.quiet)
                for record in records {
                    try await connection.query(Self.insert(record), logger: BenchServices.quiet)
                }
                try await connection.query("COMMIT", logger: BenchServices.quiet)
            })
        try await baseline?.close()
        Measure.report("PostgreSQL: one change block creating \(records.count) assets (metadata path)", ours: ours, baseline: base, target: 2)
    }

    /// The baseline's insert of one asset, every column bound by hand.
    private static func insert(_ record: AssetRecord) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 39)
        binds.append(record.uuid)
        binds.append(Int64(record.mediaType.rawValue))
        binds.append(Int64(record.mediaSubtypes.rawValue))
        binds.append(Int64(record.pixelWidth))
        binds.append(Int64(record.pixelHeight))
        binds.append(record.creationDate?.timeIntervalSince1970)
        binds.append(record.modificationDate.timeIntervalSince1970)
        binds.append(record.addedDate.timeIntervalSince1970)
        binds.append(record.duration)
        binds.append(record.location?.latitude)
        binds.append(record.location?.longitude)
        binds.append(record.location?.altitude)
        binds.append(record.location?.timestamp?.timeIntervalSince1970)
        binds.append(record.location?.horizontalAccuracy)
        binds.append(record.location?.course)
        binds.append(record.location?.speed)
        binds.append(Int64(record.isFavorite ? 1 : 0))
        binds.append(Int64(record.isHidden ? 1 : 0))
        binds.append(Int64(record.sourceType.rawValue))
        binds.append(record.burstIdentifier)
        binds.append(Int64(record.burstSelectionTypes.rawValue))
        binds.append(Int64(record.representsBurst ? 1 : 0))
        binds.append(Int64(record.playbackStyle.rawValue))
        binds.append(record.adjustmentFormatIdentifier)
        binds.append(record.trashedDate?.timeIntervalSince1970)
        binds.append(Int64(record.isFrontCamera ? 1 : 0))
        binds.append(Int64(record.isLongExposure ? 1 : 0))
        binds.append(Int64(record.hasRAWOriginal ? 1 : 0))
        binds.append(record.originalFilename)
        binds.append(record.uniformTypeIdentifier)
        binds.append(record.timeZoneOffset.map(Int64.init))
        binds.append(record.cameraMake)
        binds.append(record.cameraModel)
        binds.append(record.lensModel)
        binds.append(record.contentHash)
        binds.append(Int64(record.contentVersion))
        binds.append(record.adjustmentFormatVersion)
        binds.append(record.thumbHash.map { ByteBuffer(bytes: $0) })
        binds.append(record.thumbHash.map { ByteBuffer(bytes: $0) })
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO asset (uuid, media_type, media_subtypes, pixel_width, pixel_height, creation_date, modification_date,
                    added_date, duration, latitude, longitude, altitude, location_date, horizontal_accuracy, course, speed,
                    is_favorite, is_hidden, source_type, burst_identifier, burst_selection_types, represents_burst, playback_style,
                    adjustment_format_identifier, trashed_date, is_front_camera, is_long_exposure, has_raw_original,
                    original_filename, uniform_type_identifier, time_zone_offset, camera_make, camera_model, lens_model,
                    content_hash, content_version, adjustment_format_version, thumb_hash, original_thumb_hash)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,
                    $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39)
                """, binds: binds)
    }

    // MARK: - Servers sharing a library

    /// A commit through one `photos serve` to its event on the stream of
    /// another serving the same PostgreSQL library.
    private func eventAcrossServers() async throws {
        let name = try scratchLibrary()
        let url = services.libraryURL(name)
        let token = try PHPhotoLibrary(url: url, originals: try scratchFiles()).createAccessToken(forClient: nil).bearer
        let (writer, reader) = (try ServerChild.start(library: url), try ServerChild.start(library: url))
        defer {
            writer.stop()
            reader.stop()
        }
        let events = try await ChangeEventArrivals(port: reader.port, token: token)
        var latencies: [Double] = []
        for index in 0..<(quick ? 10 : 100) {
            var commit = HTTPClientRequest(url: "http://127.0.0.1:\(writer.port)/v1/changes")
            commit.method = .POST
            commit.headers.add(name: "Authorization", value: "Bearer \(token)")
            commit.headers.add(name: "Content-Type", value: "application/json")
            commit.body = .bytes(ByteBuffer(string: #"{"requests": [{"op": "createAlbum", "title": "bench-\#(index)"}]}"#))
            let sent = DispatchTime.now().uptimeNanoseconds
            let answer = try await HTTPClient.shared.execute(commit, timeout: .seconds(60))
            _ = try await answer.body.collect(upTo: 1 << 20)
            guard answer.status == .ok else { throw BenchError("committing through the first server: \(answer.status)") }
            latencies.append(Double(try await events.next() - sent) / 1_000_000)
        }
        Measure.reportAbsolute(
            "PostgreSQL: commit through one server to the event on another's stream, p95 over \(latencies.count) commits",
            ours: Measure.percentile(latencies, 0.95), target: 100)
        print(String(format: "  median %.1f ms, the commit's answer included", ServeBenchmarks.median(latencies)))
    }

    // MARK: - Writers at once

    /// Change blocks from 4 processes at once, each block one album, on a
    /// library directory and on PostgreSQL. Reported, no target: SQLite
    /// syncs a file on this machine, PostgreSQL its log on the same disk
    /// and one round trip per statement.
    private func writersAtOnce() async throws {
        let blocks = quick ? 25 : 250
        let sqlite = try Self.blocksPerSecond(library: BenchLibrary.scratch(in: workdir), processes: 4, blocksEach: blocks)
        let name = try scratchLibrary()
        _ = try PHPhotoLibrary(url: services.libraryURL(name), originals: try scratchFiles())
        let postgres = try Self.blocksPerSecond(library: services.libraryURL(name), processes: 4, blocksEach: blocks)
        print(
            String(
                format: "PostgreSQL: change blocks from 4 processes at once, %d each: %.0f blocks/s, a library directory (SQLite) %.0f blocks/s (reported)",
                blocks, postgres, sqlite))
    }

    /// Starts `processes` writers on `library`, lets them go together once
    /// all have opened it, and returns the blocks committed per second.
    private static func blocksPerSecond(library: URL, processes: Int, blocksEach: Int) throws -> Double {
        if library.isFileURL { _ = try PHPhotoLibrary(url: library) }
        let writers = try (0..<processes).map { _ in
            try ChildProcess.start(["write-child", "--library", BenchLibrary.argument(library), "--count", "\(blocksEach)"], input: true)
        }
        for writer in writers {
            guard writer.output.fileHandleForReading.readLine() == "ready" else { throw BenchError("a writer did not start") }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for writer in writers { writer.input!.fileHandleForWriting.write(Data("go\n".utf8)) }
        for writer in writers { _ = try writer.finish() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(processes * blocksEach) / seconds
    }

    /// `write-child`: opens the library, says `ready`, waits for a line,
    /// then commits `count` change blocks of one album each.
    static func writeBlocks(library url: URL, count: Int) throws {
        let library = try PHPhotoLibrary(url: url)
        print("ready")
        fflush(nil)
        _ = readLine()
        for index in 0..<count {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "writer-\(index)")
            }
        }
    }

    // MARK: - Object storage

    /// Importing photos into a library whose originals are in object storage
    /// (the moto server), against a library directory. Reported: moto is
    /// slow, so the figure bounds our overhead from above.
    private func objectStorageImport() async throws {
        let photos = try MediaBenchmarks.fixtures(width: 1600, height: 1200, count: quick ? 20 : 200, in: workdir)
        let storage = S3Client(
            location: S3Location(
                endpoint: URL(string: services.s3Endpoint)!,
                bucket: "bench-\(UUID().uuidString.lowercased())", prefix: "library"),
            credentials: StorageCredentials(accessKeyID: services.s3AccessKey, secretAccessKey: services.s3SecretKey))
        try await storage.createBucket()
        var prefix = 0
        let (ours, base) = try Measure.alternating(
            runs: quick ? 1 : 3,
            ours: {
                prefix += 1
                let bucket = URL(string: "s3://\(storage.location.bucket)/run-\(prefix)?endpoint=\(services.s3Endpoint)")!
                let library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir), originals: bucket)
                try Self.importAll(photos, into: library)
            },
            baseline: {
                try Self.importAll(photos, into: try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir)))
            })
        print(
            String(
                format:
                    "import of %d 2 MP photos in one change block, originals in object storage (moto): ours %.1f ms, a library directory %.1f ms, ratio %.2f (reported)",
                photos.count, ours, base, ours / base))
    }

    private static func importAll(_ photos: [URL], into library: PHPhotoLibrary) throws {
        try library.performChangesAndWait {
            for photo in photos { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
        }
    }

    // MARK: - Scratch libraries

    /// The name of a new scratch library (not yet created).
    private func scratchLibrary() throws -> String {
        Self.scratchPrefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// A new directory for a scratch library's files, under the scratch folder the run removes.
    private func scratchFiles() throws -> URL {
        let directory = BenchLibrary.scratch(in: workdir)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return URL(string: "file://\(directory.path)")!
    }

    /// Opens (creating) the scratch library `name` through the engine's contract.
    private func openStore(_ name: String) throws -> any PhotoStore {
        try PostgresBackend().open(
            services.libraryURL(name),
            options: StoreOpenOptions(
                client: nil, originals: try scratchFiles().absoluteString))
    }

    private func dropScratchLibraries() async throws {
        try await services.withConnection(library: "none") { connection in
            var names: [String] = []
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT nspname FROM pg_namespace WHERE nspname LIKE 'photos_\(Self.scratchPrefix)%'
                        """), logger: BenchServices.quiet)
            for try await name in rows.decode(String.self) { names.append(name) }
            for name in names {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \"\(name)\" CASCADE"), logger: BenchServices.quiet)
            }
        }
    }
}

extension BaselineAsset {
    /// Every column the engine reads, decoded from a PostgreSQL row in order.
    init(postgres row: PostgresRow) throws {
        var cells = row.makeIterator()
        func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
            guard let cell = cells.next() else { throw BenchError("a row has fewer columns than the baseline reads") }
            return try cell.decode(Value.self)
        }
        func date(_ seconds: Double?) -> Date? { seconds.map(Date.init(timeIntervalSince1970:)) }
        self.init(
            id: try next(Int64.self), uuid: try next(String.self), mediaType: Int(try next(Int64.self)),
            mediaSubtypes: Int(try next(Int64.self)), pixelWidth: Int(try next(Int64.self)), pixelHeight: Int(try next(Int64.self)),
            creationDate: date(try next(Double?.self)), modificationDate: Date(timeIntervalSince1970: try next(Double.self)),
            addedDate: Date(timeIntervalSince1970: try next(Double.self)), duration: try next(Double.self),
            latitude: try next(Double?.self), longitude: try next(Double?.self), altitude: try next(Double?.self),
            locationDate: date(try next(Double?.self)), horizontalAccuracy: try next(Double?.self), course: try next(Double?.self),
            speed: try next(Double?.self), isFavorite: try next(Int64.self) != 0, isHidden: try next(Int64.self) != 0,
            sourceType: Int(try next(Int64.self)), burstIdentifier: try next(String?.self),
            burstSelectionTypes: Int(try next(Int64.self)), representsBurst: try next(Int64.self) != 0,
            playbackStyle: Int(try next(Int64.self)), adjustmentFormatIdentifier: try next(String?.self),
            trashedDate: date(try next(Double?.self)), isFrontCamera: try next(Int64.self) != 0,
            isLongExposure: try next(Int64.self) != 0, hasRAWOriginal: try next(Int64.self) != 0,
            originalFilename: try next(String?.self), uniformTypeIdentifier: try next(String?.self),
            timeZoneOffset: try next(Int64?.self).map(Int.init), cameraMake: try next(String?.self),
            cameraModel: try next(String?.self), lensModel: try next(String?.self), contentHash: try next(String?.self),
            contentVersion: Int(try next(Int64.self)), adjustmentFormatVersion: try next(String?.self),
            thumbHash: try next(ByteBuffer?.self).map { Data($0.readableBytesView) }, rating: Int(try next(Int64.self)),
            adjustmentTimestamp: date(try next(Double?.self)), originalResourceChoice: Int(try next(Int64.self)),
            playbackVariation: Int(try next(Int64.self)))
    }
}
