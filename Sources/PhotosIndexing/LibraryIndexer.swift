import Foundation
import Photos
import PhotosStore

/// Indexes a library for search: a PhotoKit client of the library that
/// follows its persistent history from a token it keeps in the library
/// itself (`indexer_state`), so that it is incremental, resumes where it
/// stopped after a crash or restart, and catches up after any downtime.
/// An OpenPhotoKit addition: Apple's Photos indexes inside its own daemon.
///
/// Each kind of understanding (today: places and the assets' own words)
/// keeps its own position. The first run reads every asset in a whole
/// pass, in batches; then each run reads only the change blocks committed
/// since. Every batch is written in one transaction with the position it
/// reaches, so a run killed at any point loses nothing and does nothing
/// twice. Processes sharing a library (several servers on one PostgreSQL
/// database) take turns through a lease: while one holds a kind's lease,
/// the others leave that kind to it.
///
/// Only the library's owner indexes: a client's store throws
/// `accessRestricted`.
public final class LibraryIndexer: Sendable {
    /// The library it indexes.
    public let library: PHPhotoLibrary
    /// Who holds the leases this indexer takes: by default the host and process.
    public let holder: String
    private let analyzers: [any AssetAnalyzer]
    private let now: @Sendable () -> Date
    private let batchSize: Int

    /// How long a lease lasts without a batch written: a holder that died
    /// is replaced after this long.
    static let lease: TimeInterval = 120
    /// Assets read and written per batch, by default: one transaction each.
    static let defaultBatchSize = 256
    /// Change blocks read per batch while following history.
    static let changesPerBatch = 64

    /// An indexer of `library`. `now` is its clock, for leases.
    public convenience init(library: PHPhotoLibrary, holder: String? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(library: library, holder: holder, now: now, batchSize: Self.defaultBatchSize)
    }

    /// An indexer that writes `batchSize` assets per transaction (tests stop, and kill, between small batches).
    package init(library: PHPhotoLibrary, holder: String?, now: @escaping @Sendable () -> Date, batchSize: Int) {
        self.library = library
        self.holder = holder ?? "\(Self.thisHost):\(ProcessInfo.processInfo.processIdentifier)"
        self.analyzers = [PlacesAndWords()]
        self.now = now
        self.batchSize = max(1, batchSize)
    }

    /// Indexes what is not indexed yet, kind by kind, batch by batch, until
    /// nothing is left or `shouldStop` says so between batches. A kind
    /// whose lease another process holds is left to it and named in the
    /// result. Cost: for places and words, tens of microseconds an asset.
    @discardableResult
    public func catchUp(shouldStop: () -> Bool = { false }) throws -> IndexRun {
        var run = IndexRun()
        for analyzer in analyzers {
            try catchUp(analyzer, run: &run, shouldStop: shouldStop)
        }
        return run
    }

    /// Has every kind index the whole library again, from its next run;
    /// what is indexed stays searchable meanwhile.
    public func reindex() throws {
        let store = try requireStore()
        for analyzer in analyzers {
            try Self.mapped { () throws(StoreError) in try store.resetIndexer(analyzer.name, now: now()) }
        }
    }

    /// Where each kind stands, and how much of the library is searchable.
    /// Cost: counting the assets and the index's rows, and reading the
    /// change blocks each kind has yet to index.
    public func status() throws -> IndexStatus {
        try status(pendingChanges: true)
    }

    /// Where each kind stands; with `pendingChanges` false, without counting
    /// the change blocks each has yet to index (each then says 0).
    public func status(pendingChanges countsPending: Bool) throws -> IndexStatus {
        let store = try requireStore()
        let states = try Self.mapped { () throws(StoreError) in try store.indexerStates() }
        let coverage = try Self.mapped { () throws(StoreError) in try store.indexCoverage() }
        var kinds: [IndexStatus.Kind] = []
        for analyzer in analyzers {
            let state = states.first { $0.name == analyzer.name }
            var kind = IndexStatus.Kind(name: analyzer.name, phase: .notStarted, pendingChanges: 0, indexed: Int(state?.indexed ?? 0))
            kind.holder = state?.leaseUntil.map { $0 > now() } == true ? state?.holder : nil
            kind.updatedAt = state?.updatedAt
            switch state?.position ?? .unstarted {
            case .unstarted:
                break
            case .pass:
                kind.phase = .wholePass
            case .following(let token):
                kind.phase = .following
                guard countsPending else { break }
                kind.pendingChanges = (try? library.fetchPersistentChanges(since: try Self.token(token)).reduce(0) { count, _ in count + 1 }) ?? 0
            }
            kinds.append(kind)
        }
        return IndexStatus(kinds: kinds, assets: Int(coverage.assets), searchable: Int(coverage.searchable), located: Int(coverage.located))
    }

    // MARK: - One kind

    private func catchUp(_ analyzer: any AssetAnalyzer, run: inout IndexRun, shouldStop: () -> Bool) throws {
        let store = try requireStore()
        let gone = try Self.mapped { () throws(StoreError) in try store.indexerState(analyzer.name) }?.holder.flatMap(Self.goneHolder)
        guard
            let state = try Self.mapped({ () throws(StoreError) in
                try store.claimIndexer(analyzer.name, holder: holder, replacing: gone, now: now(), lease: Self.lease)
            })
        else {
            run.heldElsewhere.append(analyzer.name)
            return
        }
        defer { try? store.releaseIndexer(analyzer.name, holder: holder) }
        var position = state.position
        while true {
            if case .unstarted = position {
                // The pass starts from the state before it reads anything: what changes while it runs is followed after.
                position = .pass(token: try Self.data(library.currentChangeToken), after: nil)
            }
            if shouldStop() { return }
            switch position {
            case .unstarted:
                continue
            case .pass(let token, let after):
                let uuids = try Self.mapped { () throws(StoreError) in try store.assetUUIDs(after: after, limit: batchSize) }
                let ends = uuids.count < batchSize
                let next: IndexPosition = ends ? .following(token: token) : .pass(token: token, after: uuids.last)
                let found = analyzer.analyze(assets(uuids))
                try write(analyzer, found, removed: [], position: next, endsPass: ends, store: store)
                run.indexed += found.count
                position = next
            case .following(let data):
                guard let step = try followingStep(from: try Self.token(data)) else {
                    // The history it needs is gone (pruned, or kept without details): everything again.
                    position = .unstarted
                    continue
                }
                guard let last = step.last else { return }
                let found = analyzer.analyze(assets(step.touched))
                try write(analyzer, found, removed: step.removed, position: .following(token: try Self.data(last)), endsPass: false, store: store)
                run.indexed += found.count
                run.removed += step.removed.count
                position = .following(token: try Self.data(last))
            }
        }
    }

    /// The assets the next change blocks inserted or updated, those they
    /// deleted, and the token after the last; nil when the history from
    /// `token` cannot be read (expired, or kept without details).
    private func followingStep(from token: PHPersistentChangeToken) throws -> (touched: [String], removed: [String], last: PHPersistentChangeToken?)? {
        var touched: [String] = []
        var seen = Set<String>()
        var removed = Set<String>()
        var last: PHPersistentChangeToken?
        do {
            for change in try library.fetchPersistentChanges(since: token, limit: Self.changesPerBatch) {
                let details = try change.changeDetails(for: .asset)
                for identifier in details.insertedLocalIdentifiers.union(details.updatedLocalIdentifiers).sorted() {
                    let uuid = Self.uuid(identifier)
                    removed.remove(uuid)
                    if seen.insert(uuid).inserted { touched.append(uuid) }
                }
                for identifier in details.deletedLocalIdentifiers { removed.insert(Self.uuid(identifier)) }
                last = change.changeToken
            }
        } catch let error as PHPhotosError where error.code == .persistentChangeTokenExpired || error.code == .persistentChangeDetailsUnavailable {
            return nil
        }
        return (touched.filter { !removed.contains($0) }, removed.sorted(), last)
    }

    /// The assets with these UUIDs as PhotoKit gives them, with their
    /// caption and keywords; those deleted or in Recently Deleted meanwhile drop out.
    private func assets(_ uuids: [String]) -> [PHAsset] {
        guard !uuids.isEmpty else { return [] }
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        options.includeAssetSourceTypes = [.typeUserLibrary, .typeCloudShared, .typeiTunesSynced]
        options.prefetchAssetExtendedMetadata = true
        return library.withCurrentLibrary {
            let result = PHAsset.fetchAssets(withLocalIdentifiers: uuids, options: options)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
    }

    private func write(
        _ analyzer: any AssetAnalyzer, _ found: [IndexedAsset], removed: [String], position: IndexPosition, endsPass: Bool, store: any PhotoStore
    ) throws {
        let batch = IndexBatch(
            indexer: analyzer.name, holder: holder, assets: found, removed: removed, position: position, endsPass: endsPass, now: now(),
            lease: Self.lease)
        try Self.mapped { () throws(StoreError) in try store.writeIndex(batch) }
    }

    // MARK: - Helpers

    private func requireStore() throws -> any PhotoStore {
        guard let store = library.store else { throw library.unavailabilityReason ?? PHPhotosError(.internalError, "the library is not open") }
        return store
    }

    private static func mapped<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// The host and process a default holder names.
    private static var thisHost: String { ProcessInfo.processInfo.hostName }

    /// `holder` when it names a process of this machine that no longer
    /// runs: its lease can pass at once rather than when it lapses (a
    /// server killed and started again resumes without waiting).
    private static func goneHolder(_ holder: String) -> String? {
        guard let colon = holder.lastIndex(of: ":"), holder[..<colon] == thisHost, let pid = Int32(holder[holder.index(after: colon)...]),
            pid > 0, pid != ProcessInfo.processInfo.processIdentifier
        else { return nil }
        return kill(pid, 0) != 0 && errno == ESRCH ? holder : nil
    }

    private static func uuid(_ identifier: String) -> String {
        String(identifier.prefix { $0 != "/" })
    }

    private static func data(_ token: PHPersistentChangeToken) throws -> Data {
        try JSONEncoder().encode(token)
    }

    private static func token(_ data: Data) throws -> PHPersistentChangeToken {
        try JSONDecoder().decode(PHPersistentChangeToken.self, from: data)
    }
}
