import Foundation
import Photos
import PhotosStore
import PhotosVision

/// Indexes a library for search: a PhotoKit client of the library that
/// follows its persistent history from a token it keeps in the library
/// itself (`indexer_state`), so that it is incremental, resumes where it
/// stopped after a crash or restart, and catches up after any downtime.
/// An OpenPhotoKit addition: Apple's Photos indexes inside its own daemon.
///
/// Each kind of understanding (``IndexKind``: places and the assets' own
/// words, text in photos, a perceptual hash of each) keeps its own position. The first run reads every asset in a whole
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
    /// The kinds it keeps, in the order each round runs them.
    public let kinds: [IndexKind]
    private let analyzers: [any AssetAnalyzer]
    private let now: @Sendable () -> Date
    private let batchLimit: Int?

    /// How long a lease lasts without a batch written: a holder that died
    /// is replaced after this long.
    static let lease: TimeInterval = 120
    /// Change blocks read per batch while following history.
    static let changesPerBatch = 64

    /// An indexer of `library` that keeps `kinds` (all by default), reading
    /// text in `textLanguages` (Tesseract's names: `eng`, `deu`, …; each
    /// needs its Debian package, `tesseract-ocr-eng`, …). `now` is its
    /// clock, for leases. Cost: none until it runs; text models load on
    /// the first photo read.
    public convenience init(
        library: PHPhotoLibrary, holder: String? = nil, kinds: [IndexKind] = IndexKind.allCases, textLanguages: [String] = ["eng"],
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(library: library, holder: holder, kinds: kinds, textLanguages: textLanguages, now: now, batchLimit: nil)
    }

    /// An indexer that writes at most `batchLimit` assets per transaction
    /// (tests stop, and kill, between small batches).
    package init(
        library: PHPhotoLibrary, holder: String?, kinds: [IndexKind] = IndexKind.allCases, textLanguages: [String] = ["eng"],
        now: @escaping @Sendable () -> Date, batchLimit: Int?
    ) {
        self.library = library
        self.holder = holder ?? "\(Self.thisHost):\(ProcessInfo.processInfo.processIdentifier)"
        var unique: [IndexKind] = []
        for kind in kinds where !unique.contains(kind) { unique.append(kind) }
        self.kinds = unique
        self.analyzers = unique.map { kind -> any AssetAnalyzer in
            switch kind {
            case .metadata: PlacesAndWords()
            case .text: TextInPhotos(languages: textLanguages)
            case .similarity: SimilarityHashes()
            case .faces: FacesInPhotos()
            }
        }
        self.now = now
        self.batchLimit = batchLimit.map { max(1, $0) }
    }

    /// Why `languages` cannot name the languages text is read in (a name
    /// that is not one of Tesseract's, such as `../x`), or nil when they
    /// can; a language whose model is not installed is not refused here:
    /// the text kind reports it as unavailable. Cost: none.
    public static func problem(withTextLanguages languages: [String]) -> String? {
        guard case .invalidLanguage(let name)? = TextRecognizer.problem(with: languages) else { return nil }
        return VisionError.invalidLanguage(name).description
    }

    /// Indexes what is not indexed yet until nothing is left or
    /// `shouldStop` says so between batches. Each round gives every kind one
    /// batch, so a slow kind's long pass (text) never holds back a fast
    /// one's (a new photo's place). A kind whose lease another process
    /// holds is left to it, and one whose model is not installed is left
    /// out; the result names both. Cost: for places and words, tens of
    /// microseconds an asset; for text, Tesseract's time on each photo.
    @discardableResult
    public func catchUp(shouldStop: () -> Bool = { false }) throws -> IndexRun {
        let store = try requireStore()
        var run = IndexRun()
        var claims: [Claim] = []
        defer {
            for claim in claims { try? store.releaseIndexer(claim.analyzer.kind.rawValue, holder: holder) }
        }
        for analyzer in analyzers {
            if let reason = analyzer.unavailability {
                run.unavailable[analyzer.kind] = reason
                continue
            }
            guard let position = try claim(analyzer.kind, store: store) else {
                run.heldElsewhere.append(analyzer.kind)
                continue
            }
            claims.append(Claim(analyzer: analyzer, position: position, batchSize: min(analyzer.batchSize, batchLimit ?? .max), renewAfter: renewal()))
        }
        var working = true
        while working {
            working = false
            var index = 0
            while index < claims.count {
                if shouldStop() { return run }
                if now() >= claims[index].renewAfter {
                    guard try claim(claims[index].analyzer.kind, store: store) != nil else {
                        run.heldElsewhere.append(claims[index].analyzer.kind)
                        claims.remove(at: index)
                        continue
                    }
                    claims[index].renewAfter = renewal()
                }
                do {
                    if try step(&claims[index], run: &run, store: store) { working = true }
                } catch let error as VisionError {
                    run.unavailable[claims[index].analyzer.kind] = error.description
                    try? store.releaseIndexer(claims[index].analyzer.kind.rawValue, holder: holder)
                    claims.remove(at: index)
                    continue
                }
                index += 1
            }
        }
        return run
    }

    /// Has every kind index the whole library again, from its next run;
    /// what is indexed stays searchable meanwhile.
    public func reindex() throws {
        let store = try requireStore()
        for analyzer in analyzers {
            try Self.mapped { () throws(StoreError) in try store.resetIndexer(analyzer.kind.rawValue, now: now()) }
        }
    }

    /// Where each kind stands, and how much of the library is searchable.
    /// Cost: counting the assets and the index's rows, and reading the
    /// change blocks each kind has yet to index, up to
    /// ``IndexStatus/pendingChangesCounted`` of them.
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
            let state = states.first { $0.name == analyzer.kind.rawValue }
            var kind = IndexStatus.Kind(name: analyzer.kind.rawValue, phase: .notStarted, pendingChanges: 0, indexed: Int(state?.indexed ?? 0))
            kind.holder = state?.leaseUntil.map { $0 > now() } == true ? state?.holder : nil
            kind.updatedAt = state?.updatedAt
            switch state?.position ?? .unstarted {
            case .unstarted:
                break
            case .pass:
                kind.phase = .wholePass
            case .following(let token, _):
                kind.phase = .following
                guard countsPending else { break }
                kind.pendingChanges =
                    (try? library.fetchPersistentChanges(since: try Self.token(token), limit: IndexStatus.pendingChangesCounted).reduce(0) { count, _ in
                        count + 1
                    }) ?? 0
            }
            if let reason = analyzer.unavailability {
                kind.phase = .unavailable
                kind.unavailableReason = reason
            }
            kinds.append(kind)
        }
        return IndexStatus(kinds: kinds, assets: Int(coverage.assets), searchable: Int(coverage.searchable), located: Int(coverage.located))
    }

    // MARK: - One kind

    /// A kind whose lease this run holds, and where it stands.
    private struct Claim {
        let analyzer: any AssetAnalyzer
        var position: IndexPosition
        let batchSize: Int
        /// When its lease is taken again, halfway through it.
        var renewAfter: Date
        /// The change block being read over several batches, read once.
        var openChange: OpenChange?
    }

    /// A change block of more assets than a batch: the token before it, the
    /// assets it inserted or updated by UUID, those it deleted, and the token after it.
    private struct OpenChange {
        var from: Data
        var touched: [String]
        var removed: [String]
        var to: Data
    }

    /// What the next batch of history holds: the assets to read, those
    /// deleted, and where the kind stands once they are written.
    private struct FollowingStep {
        var touched: [String] = []
        var removed: [String] = []
        var next: IndexPosition?
    }

    private func claim(_ kind: IndexKind, store: any PhotoStore) throws -> IndexPosition? {
        let gone = try Self.mapped { () throws(StoreError) in try store.indexerState(kind.rawValue) }?.holder.flatMap(Self.goneHolder)
        return try Self.mapped { () throws(StoreError) in
            try store.claimIndexer(kind.rawValue, holder: holder, replacing: gone, now: now(), lease: Self.lease)
        }?.position
    }

    private func renewal() -> Date {
        now().addingTimeInterval(Self.lease / 2)
    }

    /// Indexes one batch of the kind's work; false when it had none.
    private func step(_ claim: inout Claim, run: inout IndexRun, store: any PhotoStore) throws -> Bool {
        if case .unstarted = claim.position {
            // The pass starts from the state before it reads anything: what changes while it runs is followed after.
            claim.position = .pass(token: try Self.data(library.currentChangeToken), after: nil)
        }
        switch claim.position {
        case .unstarted:
            return true
        case .pass(let token, let after):
            let rows = try Self.mapped { () throws(StoreError) in try store.passAssets(after: after, limit: claim.batchSize) }
            let ends = rows.count < claim.batchSize
            let next: IndexPosition = ends ? .following(token: token, after: nil) : .pass(token: token, after: rows.last?.rowID)
            let found = try claim.analyzer.analyze(assets(rows.map(\.uuid)))
            try write(claim.analyzer, found, removed: [], position: next, endsPass: ends, store: store)
            claim.renewAfter = renewal()
            run.indexed += found.count
            claim.position = next
            return true
        case .following(let token, let after):
            guard let step = try followingStep(&claim, from: token, after: after) else {
                // The history it needs is gone (pruned, or kept without details): everything again.
                claim.position = .unstarted
                return true
            }
            guard let next = step.next else { return false }
            let found = try claim.analyzer.analyze(assets(step.touched))
            try write(claim.analyzer, found, removed: step.removed, position: next, endsPass: false, store: store)
            claim.renewAfter = renewal()
            run.indexed += found.count
            run.removed += step.removed.count
            claim.position = next
            return true
        }
    }

    /// The assets the next change blocks after `token` inserted or updated
    /// (at most a batch of them, but always a whole block unless that block
    /// alone holds more, which is then read by UUID from `after`), those
    /// they deleted, and where that leaves the kind; nil when the history
    /// from `token` cannot be read (expired, or kept without details).
    private func followingStep(_ claim: inout Claim, from token: Data, after: String?) throws -> FollowingStep? {
        if let open = claim.openChange, open.from == token {
            return Self.batch(of: open, after: after, limit: claim.batchSize)
        }
        claim.openChange = nil
        var step = FollowingStep()
        var seen = Set<String>()
        var removed = Set<String>()
        do {
            for change in try library.fetchPersistentChanges(since: try Self.token(token), limit: Self.changesPerBatch) {
                let details = try change.changeDetails(for: .asset)
                let touched = Set(details.insertedLocalIdentifiers.union(details.updatedLocalIdentifiers).map(LocalIdentifier.uuid)).sorted()
                let deleted = details.deletedLocalIdentifiers.map(LocalIdentifier.uuid).sorted()
                let to = try Self.data(change.changeToken)
                if step.next == nil && touched.count > claim.batchSize {
                    let open = OpenChange(from: token, touched: touched, removed: deleted, to: to)
                    claim.openChange = open
                    return Self.batch(of: open, after: after, limit: claim.batchSize)
                }
                // Whole blocks only: the next would not fit in this batch.
                if step.next != nil && seen.count + touched.count > claim.batchSize { break }
                for uuid in touched {
                    removed.remove(uuid)
                    if seen.insert(uuid).inserted { step.touched.append(uuid) }
                }
                removed.formUnion(deleted)
                step.next = .following(token: to, after: nil)
            }
        } catch let error as PHPhotosError where error.code == .persistentChangeTokenExpired || error.code == .persistentChangeDetailsUnavailable {
            return nil
        }
        step.touched.removeAll { removed.contains($0) }
        step.removed = removed.sorted()
        return step
    }

    /// The next batch of a block read over several: the assets after
    /// `after`, and with the last batch, the block's deletions.
    private static func batch(of open: OpenChange, after: String?, limit: Int) -> FollowingStep {
        let remaining = after.map { mark in open.touched.drop { $0 <= mark } } ?? open.touched[...]
        let touched = Array(remaining.prefix(limit))
        guard remaining.count > limit, let last = touched.last else {
            return FollowingStep(touched: touched, removed: open.removed, next: .following(token: open.to, after: nil))
        }
        return FollowingStep(touched: touched, removed: [], next: .following(token: open.from, after: last))
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
            indexer: analyzer.kind.rawValue, holder: holder, assets: found, removed: removed, position: position, endsPass: endsPass, now: now(),
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

    private static func data(_ token: PHPersistentChangeToken) throws -> Data {
        try JSONEncoder().encode(token)
    }

    private static func token(_ data: Data) throws -> PHPersistentChangeToken {
        try JSONDecoder().decode(PHPersistentChangeToken.self, from: data)
    }
}
