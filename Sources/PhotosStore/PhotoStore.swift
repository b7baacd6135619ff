import Foundation

/// The engine's whole interface to the public layer: everything `Photos`,
/// the `photos` command and the server ask of a library goes through it.
/// It speaks rows, row ids and UUIDs, never PhotoKit objects; a backend
/// keeps its storage specifics (SQL, files, connections) behind it.
/// `SQLitePhotoStore` (in `PhotosSQLite`) is the reference backend; ``LibraryBackend`` opens
/// one by location; the conformance suite (`Tests/PhotosStoreTests/Conformance`)
/// checks any backend against what follows.
///
/// ## What a backend must guarantee
///
/// **Atomicity.** ``commit(_:in:)`` applies a whole ``ChangeSet`` or
/// nothing: if any part is refused (an unknown identifier, an index out of
/// range, an object outside the writer's grant), nothing of it is stored,
/// no file stays placed, and no change block is numbered. Its history
/// entries are written in the same transaction as the rows.
///
/// **Ordering.** Change blocks are numbered 1, 2, 3, … in the order they
/// commit, across every process and machine sharing the library: once a
/// reader has seen block *n*, every block below *n* is visible too (a
/// reader never skips a change). Within a block, entries keep the order
/// the committer recorded them in. Fetches order rows exactly as SQLite's
/// `ORDER BY` would (NULL first, then numbers, then text by bytes), with
/// the row id as the last key, so that an incremental refresh and a
/// refetch agree (see `SQLOrdering`).
///
/// **Visibility.** A commit that returned is visible to every later read,
/// by any connection, and durable: it survives a crash or power cut, its
/// files included (see ``LibraryFileStorage``). Each read runs in one
/// snapshot: a fetch's ids and the change block it reports agree, and
/// ``refreshAssets(_:from:)`` reads history and rows in one snapshot too.
/// ``watchCommits(after:onChange:onUnavailable:)`` reports every commit by
/// anyone, with at most a bounded delay, and again after it reconnects.
///
/// **Access.** Every method applies the store's ``client``'s grant, read
/// from the library inside each transaction (never cached across them):
/// a limited client sees its selection, the collections holding it, what
/// it created and the folders above them; an add-only client may create
/// assets and read nothing; an undecided or denied one gets nothing.
/// Objects outside the grant are absent, never revealed by an error
/// (`notFound`, as for an object that does not exist).
///
/// **Errors.** Every method throws only ``StoreError``, typed by cause, not
/// by message: `diskFull` and `busy` from the storage's own codes,
/// `accessDenied`, `notFound`, `historyExpired`, `damaged` for a library
/// that must not be written, `readOnly`. A method that throws has changed
/// nothing. `Photos` maps each case to its `PHPhotosError` code.
///
/// **Cost.** The costs stated below are the reference backend's; another
/// backend documents where it differs.
package protocol PhotoStore: AnyObject, Sendable {
    /// The library's own identity, fixed when it was created.
    var libraryUUID: String { get }
    /// Where the library is, as ``LibraryBackend/open(_:options:)`` was given it.
    var location: URL { get }
    /// The library's name as people call it: its directory's name, or its
    /// name inside a database.
    var name: String { get }
    /// The local directories of the library's files: its own directory, or,
    /// for a library in a database, the shared directory of its originals
    /// or this machine's cache for one whose originals are in object storage.
    var layout: LibraryLayout { get }
    /// The client this store acts for; nil for the library's owner. Every
    /// read and write below applies the client's grant, resolved anew in
    /// each transaction: a client that may not read gets `accessDenied`.
    var client: String? { get }

    /// The ids of the assets a query selects, in order, and the change block
    /// they reflect. Cost: one query; for a million-asset library, about the
    /// time to read a million integers.
    func fetchAssets(_ query: AssetQuery) throws(StoreError) -> FetchSnapshot
    /// The rows with these ids, in the same order; ids no longer stored are
    /// skipped. With `extendedMetadata`, each record holds its caption and
    /// keywords too, read by the same statement. Cost: one query per
    /// thousand ids; the caption and keywords add two columns to each row.
    func assets(ids: [Int64], extendedMetadata: Bool) throws(StoreError) -> [AssetRecord]
    /// Reads the rows `query` selects now, in its order (last first when
    /// `reverse`), `batchSize` at a time, handing each batch to `body`
    /// until it returns false or the rows run out; false, without reading,
    /// when the query has a limit and `reverse` is asked. With
    /// `extendedMetadata`, each record holds its caption and keywords.
    /// Cost: one pass of the query in one read transaction, open until `body` stops.
    func scanAssets(
        _ query: AssetQuery, reverse: Bool, batchSize: Int, extendedMetadata: Bool,
        _ body: ([AssetRecord]) -> Bool
    ) throws(StoreError) -> Bool
    /// Whether reading a fetch's rows again with ``scanAssets(_:reverse:batchSize:_:)``
    /// costs the database less than loading them by id with
    /// ``assets(ids:)``: true where every lookup by id descends an index
    /// (PostgreSQL), false where it reads the table by its row id (SQLite).
    var scansCostLessThanLookups: Bool { get }
    /// How many of these assets have the media type.
    func countAssets(ids: [Int64], mediaType: AssetMediaType) throws(StoreError) -> Int
    /// The files stored for an asset.
    func resources(assetID: Int64) throws(StoreError) -> [ResourceRecord]
    /// The bytes of the files stored for the assets this store's client may see.
    func storedBytes() throws(StoreError) -> Int64
    /// Every file the database names, library-relative: the check that
    /// nothing on disk is orphaned and nothing named is missing.
    func allResourcePaths() throws(StoreError) -> Set<String>
    /// The UUIDs of every asset, Recently Deleted included.
    func allAssetUUIDs() throws(StoreError) -> Set<String>
    /// SQLite's integrity check: "ok", or what it found.
    func integrityCheck() throws(StoreError) -> String
    /// Checks the whole library, database and files (owner only); see `SQLitePhotoStore.checkIntegrity`.
    func checkIntegrity() throws(StoreError) -> IntegrityReport

    /// The store's client's upload jobs, oldest first: those `action`
    /// finds (all when nil), and only those of `uuids` when given.
    func uploadJobs(action: UploadJobAction?, uuids: [String]?) throws(StoreError) -> [UploadJobRecord]
    /// The store's client's upload-job extension, when enabled.
    func uploadExtension() throws(StoreError) -> UploadExtensionRecord?
    /// Every client's enabled upload-job extension (the owner only).
    func allUploadExtensions() throws(StoreError) -> [UploadExtensionRecord]
    /// The next unfinished upload jobs of clients with an enabled extension, oldest first (the owner only).
    func unfinishedUploadJobs(limit: Int) throws(StoreError) -> [UploadJobRecord]

    /// The ids of the collections a query selects, in order, and the change block they reflect.
    func fetchCollections(_ query: CollectionQuery) throws(StoreError) -> FetchSnapshot

    /// An asset fetch brought up to the latest change block, with how it
    /// differs from `previous`; nil when nothing it shows changed. Cost grows
    /// with the size of the changes, not of the library (see `FetchRefresher`).
    func refreshAssets(_ query: AssetQuery, from previous: FetchSnapshot) throws(StoreError) -> FetchRefresh?
    /// A collection fetch brought up to the latest change block; nil when nothing it shows changed.
    func refreshCollections(_ query: CollectionQuery, from previous: FetchSnapshot) throws(StoreError) -> FetchRefresh?
    /// What the change blocks after `after`, up to `through`, did, object by object, in commit order.
    func history(after: Int64, through: Int64) throws(StoreError) -> HistorySpan
    func collections(ids: [Int64]) throws(StoreError) -> [CollectionRecord]

    /// The library's moments, oldest first. Computed from the assets, cached until the next commit.
    func moments() throws(StoreError) -> [MomentRecord]
    /// Moment lists of a subtype (``CollectionSubtype/momentListCluster`` or ``CollectionSubtype/momentListYear``), oldest first.
    func momentLists(subtype: Int) throws(StoreError) -> [MomentListRecord]

    /// Where the library's files live: stored files, derivatives, staging.
    var files: any LibraryFileStorage { get }
    /// Applies a change set atomically, files included, and records it in
    /// the history log as one change block, numbered after every block
    /// committed before it by any process. The only way anything readers
    /// see is written. Returns nil, committing nothing, when a set that
    /// names no objects (a purge, an access change) finds nothing to do.
    /// Called by ``CommitSession/commit(_:)``, the only way in: the session
    /// holds the set's new files, and gives the commit its staging area's
    /// journal when it removes files; it discards both afterwards.
    func commit(_ changeSet: ChangeSet, in session: CommitSession) throws(StoreError) -> CommitResult?
    /// The identifiers of deleted objects by row id, for fetch results made
    /// before the deletion. Collections of both kinds share one key space:
    /// ask with `.assetCollection` for either; each identifier says which
    /// kind the deletion recorded (asset collection for deletions made
    /// before OpenPhotoKit recorded the kind).
    func deletedIdentifiers(entity: StoreEntity, rowIDs: [Int64]) throws(StoreError) -> [Int64: LocalIdentifier]
    /// The row ids of stored objects by UUID; collections of both kinds share one table.
    func rowIDs(entity: StoreEntity, uuids: [String]) throws(StoreError) -> [String: Int64]
    /// The UUIDs of stored objects by row id, of those the reader may see;
    /// collections of both kinds share one table. Cost: one query, reading
    /// two columns of each row.
    func uuids(entity: StoreEntity, rowIDs: [Int64]) throws(StoreError) -> [Int64: String]
    /// The UUID of an asset (the oldest, outside Recently Deleted) whose
    /// original has each content hash, for those that one has.
    func assetUUIDs(withContentHashes hashes: [String]) throws(StoreError) -> [String: String]
    /// Filters and orders collections held in memory (moments, transient
    /// lists) with the same SQL semantics as stored ones; returns indexes into `rows`.
    func filterCollectionRows(
        _ rows: [CollectionRow], filter: StoreFilter<CollectionAttribute>,
        sort: [StoreSort<CollectionAttribute>], limit: Int
    ) throws(StoreError) -> [Int]
    /// The number of the last committed change block, by any process.
    func lastChangeBlock() throws(StoreError) -> Int64
    /// What a commit watcher follows, now: the last change block and the
    /// last token revocation's mark. Cost: one read of two values.
    func watchedState() throws(StoreError) -> WatchedState
    /// Watches for change blocks committed, and tokens revoked, by any
    /// process after `state`; `onChange` gets the state each time it is
    /// news (``WatchedState/isNews(after:)``), on the watcher's own thread,
    /// until the watcher is stopped. `onUnavailable` is called once if the
    /// library stops being usable (see `availabilityProblem`), and the
    /// watcher stops.
    func watchCommits(
        after state: WatchedState, onChange: @escaping @Sendable (WatchedState) -> Void,
        onUnavailable: @escaping @Sendable (StoreError) -> Void
    ) throws(StoreError) -> any CommitWatcher
    /// Why the library cannot be used as it was opened (damage found, its
    /// database removed or replaced); nil when it can. Cost: a few `stat`s.
    func availabilityProblem() -> StoreError?
    /// Why nothing can be written, when the library is read-only to this process.
    var readOnlyReason: String? { get }

    // MARK: Persistent history

    /// The state of the library now, as this store's client's change token
    /// names it (opaque without read-write access).
    func currentHistoryPoint() throws(StoreError) -> HistoryPoint
    /// The change blocks since a state, in commit order, the first `limit`
    /// of them (all when nil), as this store's client may see them.
    func persistentChanges(since point: HistoryPoint, limit: Int?) throws(StoreError) -> [PersistentChangeRecord]
    /// The object changes of a run of change blocks, as this store's client may see them.
    func persistentChangeEntries(after: Int64, through: Int64) throws(StoreError) -> HistoryPage
    /// The kept change blocks this store's client may see something of: how
    /// many, and when the oldest and newest were committed.
    func keptHistory() throws(StoreError) -> KeptHistory
    /// The last change block committed before `date`; 0 when none was.
    func lastChangeBlock(before date: Date) throws(StoreError) -> Int64
    func historyRetention() throws(StoreError) -> HistoryRetention
    func setHistoryRetention(_ retention: HistoryRetention) throws(StoreError)
    /// Whether the retention setting leaves anything to prune now.
    func historyNeedsPruning(now: Date) throws(StoreError) -> Bool
    /// Forgets what the retention no longer keeps, or everything through `target`.
    @discardableResult
    func pruneHistory(through target: Int64?, now: Date) throws(StoreError) -> Bool

    // MARK: Client access

    /// This store's client's grant (read-write for the owner; nil: undecided).
    func grant() throws(StoreError) -> AccessGrant?
    /// Records a request for access and returns the owner's decision, if any.
    func requestAccess(level: AccessLevel) throws(StoreError) -> AccessGrant?
    func clientAccessRecords() throws(StoreError) -> [ClientAccessRecord]
    func selectedAssets(of client: String) throws(StoreError) -> [LocalIdentifier]

    // MARK: Timeline

    /// A query's assets counted by month, or by day of one month, newest first.
    /// Cost: a scan of the `asset_by_local_day` index entries of the buckets.
    func timelineBuckets(_ query: AssetQuery, granularity: TimelineGranularity) throws(StoreError) -> [TimelineBucketRecord]
    /// A page of one bucket's assets, newest first.
    func timelineRows(
        _ query: AssetQuery, bucket key: Int, granularity: TimelineGranularity,
        offset: Int, limit: Int
    ) throws(StoreError) -> [TimelineRow]

    // MARK: Search index (owner only, but for searching, which fetches do)

    /// Where the indexer `name` stands; nil before it first ran.
    func indexerState(_ name: String) throws(StoreError) -> IndexerStateRecord?
    /// Where every indexer stands, by name.
    func indexerStates() throws(StoreError) -> [IndexerStateRecord]
    /// Takes the indexer's lease for `holder` until `now + lease` when no
    /// other process holds it (or its lease ran out, or it is
    /// `replacing`, a holder known to be gone), and returns where the
    /// indexer stands; nil when another holds it. Cost: one write.
    func claimIndexer(_ name: String, holder: String, replacing: String?, now: Date, lease: TimeInterval) throws(StoreError) -> IndexerStateRecord?
    /// Up to `limit` assets, Recently Deleted included, in the order of
    /// their row ids, after the row id `after` (from the first when nil),
    /// each with its UUID: a whole pass of an indexer, resumable where it
    /// stopped. Row order is the order a full-text index takes rows in
    /// fastest (FTS5 appends to its doclists instead of merging into
    /// them). Cost: a range of the table's key.
    func passAssets(after: Int64?, limit: Int) throws(StoreError) -> [(rowID: Int64, uuid: String)]
    /// Gives up the lease, when `holder` has it.
    func releaseIndexer(_ name: String, holder: String) throws(StoreError)
    /// Has the indexer index the whole library again, from its next claim.
    func resetIndexer(_ name: String, now: Date) throws(StoreError)
    /// Writes a batch and the position it reaches in one transaction, and
    /// renews the lease; `stateChanged`, writing nothing, when the holder
    /// lost its lease to another process. Cost: one write transaction, a
    /// few statements per asset.
    func writeIndex(_ batch: IndexBatch) throws(StoreError)
    /// Every place the assets this store's client sees (those a default
    /// fetch shows) were taken, as the index named them, by country then
    /// city. Cost: one pass over the located assets, grouped.
    func places() throws(StoreError) -> [PlaceSummary]
    /// The located assets this store's client sees (those the timeline
    /// shows, as a search of the library finds them) inside `bounds`, one cluster for each cell of a grid of
    /// `cellDegrees` from the box's south-west corner that holds any, the
    /// fullest `limit` of them, fullest first. Throws `limitExceeded` for
    /// a cell outside ``LocationCluster/smallestCell``…360 or a limit
    /// outside 1…``LocationCluster/maximumCount``. Cost: one pass over the
    /// assets, grouped.
    func locationClusters(in bounds: LocationBounds, cellDegrees: Double, limit: Int) throws(StoreError) -> [LocationCluster]
    /// The perceptual hash of every asset this store's client sees (those
    /// a default fetch shows) that the indexer has hashed. Cost: one pass
    /// over the hashes, joined with the assets.
    func perceptualHashes() throws(StoreError) -> [AssetHash]
    /// Remembers that the assets `uuids` (2 to ``AssetStack/maximumMembers``,
    /// outside Recently Deleted) are not look-alikes of one another. Needs
    /// the whole library (`accessDenied` otherwise). Cost: one write.
    func dismissLookAlikes(_ uuids: [String]) throws(StoreError)
    /// The words of the full-text index near each of `words` (typo
    /// tolerance, ``SearchTerms``), for any reader: a search corrected to
    /// them still shows only what the reader's grant covers. Cost, per word:
    /// reading the index's words that begin with its letter and are about
    /// as long, and comparing each.
    func searchCorrections(for words: [String]) throws(StoreError) -> [String: [String]]
    /// How much of the library the index covers. Cost: counting the assets
    /// and the index's rows.
    func indexCoverage() throws(StoreError) -> IndexCoverage

    // MARK: People (SQLPhotoStore+People)

    func people(includingHidden: Bool, minimumAssetCount: Int) throws(StoreError) -> [PersonSummary]
    func person(_ uuid: String) throws(StoreError) -> PersonSummary
    func faces(ofPerson personUUID: String?, inAsset assetUUID: String?) throws(StoreError) -> [FaceSummary]
    func setPersonName(_ name: String?, of uuid: String) throws(StoreError)
    func setPersonHidden(_ hidden: Bool, of uuid: String) throws(StoreError)
    func mergePeople(_ uuids: [String], into target: String) throws(StoreError)
    func moveFaces(_ faceUUIDs: [String], toPerson target: String?, now: Date) throws(StoreError) -> String

    // MARK: Access tokens (owner only)

    /// Stores a new bearer token.
    func addAccessToken(_ token: AccessTokenRecord) throws(StoreError)
    /// Every token, oldest first.
    func accessTokenRecords() throws(StoreError) -> [AccessTokenRecord]
    /// The token with this public id, if any. Cost: one primary-key lookup.
    func accessToken(id: String) throws(StoreError) -> AccessTokenRecord?
    /// Forgets a token, and tells every watcher of the library, in any
    /// process (``WatchedState/tokenRevocation``); false when there was none.
    func removeAccessToken(id: String) throws(StoreError) -> Bool
}

/// A running watch of a library's commits, from
/// ``PhotoStore/watchCommits(after:onChange:onUnavailable:)``: it calls back
/// on a thread of its own until stopped.
package protocol CommitWatcher: AnyObject, Sendable {
    /// Checks for new commits now, without waiting for an event.
    func check()
    /// Stops watching; no callback starts after it returns.
    func stop()
}

extension PhotoStore {
    /// Every change block since a state, in commit order.
    package func persistentChanges(since point: HistoryPoint) throws(StoreError) -> [PersistentChangeRecord] {
        try persistentChanges(since: point, limit: nil)
    }

    /// The rows with these ids, without their caption and keywords.
    package func assets(ids: [Int64]) throws(StoreError) -> [AssetRecord] {
        try assets(ids: ids, extendedMetadata: false)
    }

    /// ``scanAssets(_:reverse:batchSize:extendedMetadata:_:)`` without captions and keywords.
    package func scanAssets(
        _ query: AssetQuery, reverse: Bool, batchSize: Int, _ body: ([AssetRecord]) -> Bool
    ) throws(StoreError) -> Bool {
        try scanAssets(query, reverse: reverse, batchSize: batchSize, extendedMetadata: false, body)
    }
}
