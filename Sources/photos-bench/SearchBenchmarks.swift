import Foundation
import GRDB
import Photos
import PhotosIndexing
import PhotosMedia
import PhotosStore

/// Search: indexing a library's places and words, against the same work
/// written plainly on GRDB; and searches for a word, a place and a
/// combined query, each side's 95th percentile over many turns, against
/// the same full-text query written by hand.
struct SearchBenchmarks {
    let assetCount: Int
    let workdir: URL
    let quick: Bool

    func run() throws {
        print("photos-bench search: \(assetCount) assets; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        try indexing(try BenchLibrary.prepare(assetCount: assetCount, in: workdir))
        try searches(try Self.indexedLibrary(assetCount: assetCount, in: workdir))
        BenchLibrary.removeScratch(in: workdir)
    }

    // MARK: - Indexing

    /// A whole pass of the indexer over a fresh copy of the library, against
    /// a plain indexer: the same rows read with GRDB, the same places named
    /// and words folded, written in transactions of the same size.
    private func indexing(_ library: URL) throws {
        var copy = library
        var counts = (ours: 0, baseline: 0)
        let (ours, baseline) = try Measure.alternating(
            runs: quick ? 1 : 3,
            beforeEachSide: { copy = try BenchLibrary.workingCopy(of: library, in: workdir) },
            ours: {
                counts.ours = try LibraryIndexer(library: try PHPhotoLibrary(url: copy, clientIdentifier: nil), kinds: [.metadata]).catchUp().indexed
            },
            baseline: { counts.baseline = try Self.plainIndex(copy) })
        guard counts.ours == counts.baseline else { throw BenchError("the indexer wrote \(counts.ours) assets, the plain one \(counts.baseline)") }
        let rate = { (milliseconds: Double) in Int((Double(counts.ours) / (milliseconds / 1000)).rounded()) }
        _ = Measure.report(
            "indexing places and words, whole pass, \(assetCount) assets, one core "
                + "(ours \(rate(ours)) assets/s, baseline \(rate(baseline)) assets/s)",
            ours: ours, baseline: baseline, target: 1.2)
    }

    /// The indexer's work written plainly: one pass over the assets outside
    /// Recently Deleted, 256 a transaction.
    static func plainIndex(_ library: URL) throws -> Int {
        let pool = try BenchLibrary.durablePool(library)
        // The engine's writer's page cache (64 MiB): with SQLite's 2 MiB, FTS5's merges read their pages again and again.
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = -65536") }
        var written = 0
        var after: Int64 = 0
        while true {
            let rows = try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, latitude, longitude, caption, keywords, original_filename, camera_make, camera_model FROM asset
                        WHERE id > ? AND trashed_date IS NULL ORDER BY id LIMIT 256
                        """, arguments: [after])
            }
            guard let last = rows.last else { return written }
            try pool.write { db in
                // Upserts, not INSERT OR REPLACE: REPLACE would reach the full-text index's triggers,
                // whose FTS5 table would then delete the new row's words it never held.
                let search = try db.cachedStatement(
                    sql: """
                        INSERT INTO asset_search (asset_id, words, place) VALUES (?, ?, ?)
                        ON CONFLICT (asset_id) DO UPDATE SET words = excluded.words, place = excluded.place
                        """)
                let place = try db.cachedStatement(
                    sql: """
                        INSERT INTO asset_place (asset_id, city, region, country, country_code) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (asset_id) DO UPDATE SET city = excluded.city, region = excluded.region, country = excluded.country,
                            country_code = excluded.country_code
                        """)
                for row in rows {
                    let id: Int64 = row["id"]
                    let keywords = (row["keywords"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
                    let words = [row["caption"], row["original_filename"], row["camera_make"], row["camera_model"]].compactMap { $0 as String? } + keywords
                    let found: GeoNamesCities.City? =
                        if let latitude = row["latitude"] as Double?, let longitude = row["longitude"] as Double? {
                            ReverseGeocoder.place(latitude: latitude, longitude: longitude)
                        } else { nil }
                    let placeWords = found.map { [$0.name, $0.region, $0.country] } ?? []
                    try search.execute(arguments: [id, SearchWords.document(words), SearchWords.document(placeWords)])
                    if let found { try place.execute(arguments: [id, found.name, found.region, found.country, found.countryCode]) }
                }
            }
            written += rows.count
            after = last["id"]
        }
    }

    // MARK: - Searching

    /// The bench library of `assetCount` assets with its places and words
    /// indexed and people named (``namePeople(in:)``), made once.
    static func indexedLibrary(assetCount: Int, in workdir: URL) throws -> URL {
        let unindexed = try BenchLibrary.prepare(assetCount: assetCount, in: workdir)
        return try BenchLibrary.cached(
            "library-\(assetCount)-indexed-people.photoslibrary", in: workdir, holding: "\(assetCount) assets, indexed, with people"
        ) { url in
            try FileManager.default.moveItem(at: try BenchLibrary.workingCopy(of: unindexed, in: workdir), to: url)
            try LibraryIndexer(library: try PHPhotoLibrary(url: url, clientIdentifier: nil), kinds: [.metadata]).catchUp()
            try namePeople(in: try BenchLibrary.durablePool(url))
        }
    }

    /// The names of the people in some photos, as the faces indexer writes
    /// them into each photo's search row (`asset_search.people`): Anna in
    /// one photo of 40, Bob in one of 7. Faces themselves cost 0.1 s a
    /// photo to find (`photos-bench faces`); searching their names is what
    /// is measured here.
    static func namePeople(in pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE asset_search SET people = ? WHERE asset_id % 40 = 0", arguments: [SearchWords.document(["Anna Lindqvist"])])
            try db.execute(
                sql: "UPDATE asset_search SET people = ? WHERE asset_id % 7 = 0 AND asset_id % 40 <> 0", arguments: [SearchWords.document(["Bob"])])
        }
    }

    /// One search as people type it, and the same written by hand in each
    /// backend's own full-text language: FTS5's MATCH text, and a
    /// `tsquery` with the column it must be found in (place, people).
    struct Query {
        var name: String
        var search: String
        var fts5: String
        var tsquery: String
        var tsqueryColumn: String?
        /// Conditions on the asset (`a`) the search's filters add.
        var extra: String = ""
    }

    /// The searches measured on a library of `assetCount` assets whose most
    /// common city is `city`.
    static func queries(assetCount: Int, city: String) -> [Query] {
        let cityWords = SearchWords.words(city)
        // The name BenchLibrary gave the asset in the middle (names repeat every 100,000 assets).
        let rare = String(format: "%05d", (assetCount / 2) % 100_000)
        let cityPhrase = cityWords.dropLast().map { "'\($0)' <-> " }.joined() + "'\(cityWords.last ?? "")':*"
        return [
            Query(name: "a rare word (a file name)", search: "img_\(rare)", fts5: "\"img \(rare)\"*", tsquery: "'img' <-> '\(rare)':*"),
            Query(name: "a common word, first page", search: "river", fts5: #""river"*"#, tsquery: "'river':*"),
            Query(
                name: "a place (\(city))", search: "place:\"\(city)\"", fts5: "{place} : (\"\(cityWords.joined(separator: " "))\"*)",
                tsquery: cityPhrase, tsqueryColumn: "place"),
            Query(name: "a person (Anna, in 1 of 40)", search: "person:anna", fts5: #"{people} : ("anna"*)"#, tsquery: "'anna':*", tsqueryColumn: "people"),
            Query(
                name: "words, a year and a filter", search: "family 2019 favorite", fts5: #""family"*"#, tsquery: "'family':*",
                extra: " AND a.local_month BETWEEN 201901 AND 201912 AND a.is_favorite = 1"),
        ]
    }

    /// Each search, on the indexed library, a first page of 100 as a grid
    /// asks: ours through `PHAsset.fetchAssets(matchingSearch:)`, the
    /// baseline the same FTS5 query with the same conditions and order,
    /// written by hand on GRDB. Each side's 95th percentile of the turns.
    private func searches(_ library: URL) throws {
        let photos = try PHPhotoLibrary(url: library, clientIdentifier: nil)
        var configuration = Configuration()
        configuration.readonly = true
        let pool = try DatabasePool(path: library.appendingPathComponent("database/Photos.sqlite").path, configuration: configuration)
        let city = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT city FROM asset_place GROUP BY city ORDER BY COUNT(*) DESC, city LIMIT 1")
        }
        guard let city else { throw BenchError("no asset of the bench library was named a place") }
        let queries = Self.queries(assetCount: assetCount, city: city)
        let turns = quick ? 20 : 200
        for query in queries {
            let options = PHFetchOptions()
            options.fetchLimit = 100
            var found = (ours: 0, baseline: 0)
            let sql = """
                SELECT a.id FROM asset_search_fts f JOIN asset a ON a.id = f.rowid
                WHERE asset_search_fts MATCH ? AND a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0
                    AND a.source_type = 1\(query.extra)
                ORDER BY bm25(asset_search_fts), a.creation_date DESC, a.id DESC LIMIT 100
                """
            var times = (ours: [Double](), baseline: [Double]())
            for _ in 0..<turns {
                let oursFirst = Bool.random()
                for side in oursFirst ? [true, false] : [false, true] {
                    if side {
                        times.ours.append(
                            try Measure.best(runs: 1) {
                                found.ours = try photos.withCurrentLibrary { try PHAsset.fetchAssets(matchingSearch: query.search, options: options).count }
                            })
                    } else {
                        times.baseline.append(
                            try Measure.best(runs: 1) {
                                found.baseline = try pool.read { db in try Int64.fetchAll(db, sql: sql, arguments: [query.fts5]).count }
                            })
                    }
                }
            }
            try Self.report(query, on: "", assetCount: assetCount, found: found, times: times)
        }
    }

    /// Checks both sides found the same, then reports each side's 95th
    /// percentile against the other and ours against the 50 ms target.
    /// `backend` prefixes the rows (`"PostgreSQL: "`, or nothing for SQLite).
    static func report(
        _ query: Query, on backend: String, assetCount: Int, found: (ours: Int, baseline: Int), times: (ours: [Double], baseline: [Double])
    )
        throws
    {
        guard found.ours == found.baseline, found.ours > 0 else {
            throw BenchError("\(backend)\(query.name): ours found \(found.ours), the baseline \(found.baseline)")
        }
        let p95 = (ours: Measure.percentile(times.ours, 0.95), baseline: Measure.percentile(times.baseline, 0.95))
        _ = Measure.report(
            "\(backend)search p95, \(query.name), \(assetCount) assets (\(found.ours) of 100 shown)", ours: p95.ours, baseline: p95.baseline,
            target: 1.3)
        _ = Measure.reportAbsolute("\(backend)search p95, \(query.name), \(assetCount) assets, ours alone", ours: p95.ours, target: 50)
    }
}
