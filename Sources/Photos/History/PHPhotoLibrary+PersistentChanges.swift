import Foundation
import PhotosStore

/// Persistent change history: what changed since a token, across launches
/// and processes, and how long the library keeps it.
extension PHPhotoLibrary {
    /// The state of the library now. Take it before working through the
    /// library, so that changes made meanwhile are fetched next time.
    /// Cost: one indexed query. For an unavailable library, a token that
    /// fetching refuses.
    public var currentChangeToken: PHPersistentChangeToken {
        guard let store else { return PHPersistentChangeToken(libraryUUID: "", point: HistoryPoint(changeBlock: -1, stamp: 0)) }
        do {
            return PHPersistentChangeToken(libraryUUID: store.libraryUUID, point: try store.currentHistoryPoint())
        } catch {
            Diagnostics.report(error, while: "reading the current change token")
            return PHPersistentChangeToken(libraryUUID: store.libraryUUID, point: HistoryPoint(changeBlock: -1, stamp: 0))
        }
    }

    /// The change blocks committed since `token`, by any process, oldest
    /// first; empty when nothing changed. Each change has its own token:
    /// after processing, store the last one's.
    ///
    /// Throws, as `PHPhotosError`:
    /// - `persistentChangeTokenExpired` when the token is older than the
    ///   history the library keeps (see ``PersistentChangeRetention``), or
    ///   names a state the library no longer has because it was restored
    ///   from a copy; refetch what you track.
    /// - `identifierNotFound` for a token of another library, or one
    ///   damaged in storage.
    /// - `accessUserDenied` for a client without read access.
    ///
    /// Cost: one query over the change blocks since the token (about a
    /// microsecond each); details are read as the result is iterated.
    ///
    /// Catching up on the assets changed since a stored token:
    ///
    /// ```swift
    /// var token = storedToken
    /// do {
    ///     for change in try library.fetchPersistentChanges(since: token) {
    ///         let assets = try change.changeDetails(for: .asset)
    ///         print(assets.insertedLocalIdentifiers, assets.updatedLocalIdentifiers, assets.deletedLocalIdentifiers)
    ///         token = change.changeToken
    ///     }
    /// } catch PHPhotosError.persistentChangeTokenExpired, PHPhotosError.persistentChangeDetailsUnavailable {
    ///     // The kept history does not cover the gap: refetch what you track.
    ///     token = library.currentChangeToken
    /// }
    /// ```
    public func fetchPersistentChanges(since token: PHPersistentChangeToken) throws -> PHPersistentChangeFetchResult {
        try fetchPersistentChanges(since: token, limit: nil)
    }

    /// The first `limit` change blocks committed since `token`, oldest
    /// first: a page of ``fetchPersistentChanges(since:)``, whose last
    /// change's token is where the next page starts. An OpenPhotoKit
    /// addition, for servers that page history. Throws as
    /// ``fetchPersistentChanges(since:)`` does. Cost: the blocks read up to
    /// the page's last, not the whole history since the token.
    public func fetchPersistentChanges(since token: PHPersistentChangeToken, limit: Int) throws -> PHPersistentChangeFetchResult {
        try fetchPersistentChanges(since: token, limit: Optional(max(0, limit)))
    }

    private func fetchPersistentChanges(since token: PHPersistentChangeToken, limit: Int?) throws -> PHPersistentChangeFetchResult {
        let store = try requireStore()
        try checkBelongs(token, to: store)
        do {
            return PHPersistentChangeFetchResult(library: self, records: try store.persistentChanges(since: token.point, limit: limit))
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// Refuses a token damaged in storage or of another library. The owner
    /// is told which; a client gets the one answer every failure of its
    /// tokens gets, as the engine gives for the rest.
    func checkBelongs(_ token: PHPersistentChangeToken, to store: any PhotoStore) throws(PHPhotosError) {
        let problem: String
        if let damage = token.damage {
            problem = damage
        } else if token.libraryUUID != store.libraryUUID {
            problem = "the change token belongs to library \(token.libraryUUID), not to this one (\(store.libraryUUID)) at \(url.path)"
        } else {
            return
        }
        guard store.client == nil else { throw PHPhotosError(storeError: StoreError.unusableOpaqueToken) }
        throw PHPhotosError(.identifierNotFound, problem)
    }

    // MARK: - Retention

    /// How much change history a library keeps. The library's owner sets it
    /// (``setPersistentChangeRetention(_:)``); it is stored in the library
    /// and applies to every process.
    public struct PersistentChangeRetention: Sendable, Equatable {
        /// Change blocks older than this many seconds are forgotten; nil
        /// keeps them whatever their age. Default: 30 days.
        public var maximumAge: TimeInterval?
        /// At most this many of the latest change blocks are kept; nil sets
        /// no limit (the default).
        public var maximumChangeCount: Int?
        /// A change block that touches more objects keeps only its count,
        /// and its details are reported as unavailable; nil keeps details
        /// of any size. Default: 100,000.
        public var maximumObjectsPerChange: Int?

        /// A retention setting; the defaults are the library's own.
        public init(
            maximumAge: TimeInterval? = 30 * 86_400, maximumChangeCount: Int? = nil,
            maximumObjectsPerChange: Int? = 100_000
        ) {
            self.maximumAge = maximumAge
            self.maximumChangeCount = maximumChangeCount
            self.maximumObjectsPerChange = maximumObjectsPerChange
        }

        init(_ retention: HistoryRetention) {
            self.init(
                maximumAge: retention.maximumAge, maximumChangeCount: retention.maximumChangeCount,
                maximumObjectsPerChange: retention.maximumObjectsPerChange)
        }

        var stored: HistoryRetention {
            HistoryRetention(
                maximumAge: maximumAge.map { max(0, $0) }, maximumChangeCount: maximumChangeCount.map { max(0, $0) },
                maximumObjectsPerChange: maximumObjectsPerChange.map { max(0, $0) })
        }
    }

    /// What the change history holds: an OpenPhotoKit addition.
    public struct PersistentChangeHistory: Sendable, Equatable {
        /// The change blocks whose details are kept.
        public var changeCount: Int
        /// When the oldest kept change block was committed; nil when none is kept.
        public var oldestChangeDate: Date?
        /// When the newest change block was committed; nil when none is kept.
        public var newestChangeDate: Date?
    }

    /// The range of change blocks the history keeps that this process may
    /// see something of: all of them for the owner and read-write clients,
    /// those that concern its selection for a limited client. Tokens from
    /// before the oldest kept block expire. A client that may not read gets
    /// `accessUserDenied`. Cost: one query over the kept change blocks.
    public func persistentChangeHistory() throws -> PersistentChangeHistory {
        try withStore { store throws(StoreError) in
            let kept = try store.keptHistory()
            return PersistentChangeHistory(changeCount: kept.changeBlocks, oldestChangeDate: kept.oldest, newestChangeDate: kept.newest)
        }
    }

    /// The library's history retention. Cost: one query.
    public func persistentChangeRetention() throws -> PersistentChangeRetention {
        try withStore { store throws(StoreError) in PersistentChangeRetention(try store.historyRetention()) }
    }

    /// Changes the library's history retention and prunes by it at once.
    /// Only the owner may; a client gets `accessRestricted`.
    public func setPersistentChangeRetention(_ retention: PersistentChangeRetention) throws {
        try withStore { store throws(StoreError) in
            try store.setHistoryRetention(retention.stored)
            try store.pruneHistory(through: nil, now: Date())
        }
    }

    /// Forgets every change block committed before `date`, whatever the
    /// retention says; tokens from before then expire. Returns whether any
    /// token expired. Only the owner may; a client gets `accessRestricted`.
    /// Cost: short transactions of a few thousand rows each, so other
    /// processes' change blocks are never held up long.
    @discardableResult
    public func purgePersistentChanges(before date: Date) throws -> Bool {
        try withStore { store throws(StoreError) in
            try store.pruneHistory(through: try store.lastChangeBlock(before: date), now: Date())
        }
    }

    /// Applies the retention setting in the background, at most every ten
    /// minutes per library object: on opening, and after change blocks. The
    /// check runs on the change queue, in order with change blocks; the
    /// pruning, when there is any, on a utility queue, so change blocks
    /// never wait for it.
    func pruneHistoryInBackground() {
        guard store?.readOnlyReason == nil, historyMaintenance.claim(interval: 600) else { return }
        changeQueue.async { [weak self] in
            guard let store = self?.store else { return }
            do {
                guard try store.historyNeedsPruning(now: Date()) else { return }
            } catch {
                return Diagnostics.report(error, while: "checking the change history's retention")
            }
            // Weakly again: a utility queue can wait long behind other work,
            // and a library released meanwhile should close its files, not
            // stay open to prune.
            DispatchQueue.global(qos: .utility).async { [weak self] in
                guard let store = self?.store else { return }
                do {
                    try store.pruneHistory(through: nil, now: Date())
                } catch {
                    Diagnostics.report(error, while: "pruning the change history")
                }
            }
        }
    }

    /// Runs `body` with the store, mapping its errors to `PHPhotosError`.
    func withStore<Result>(_ body: (any PhotoStore) throws(StoreError) -> Result) throws(PHPhotosError) -> Result {
        let store = try requireStore()
        do {
            return try body(store)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}
