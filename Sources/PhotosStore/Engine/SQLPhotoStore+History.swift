import Foundation
import GRDB

/// Persistent history: tokens, the change blocks since one, their object
/// changes as this process may see them, and the retention that prunes them.
extension SQLPhotoStore {
    /// The state of the library now, as this process's change token names
    /// it: opaque for a client without read-write access, whose tokens do
    /// not reveal how many change blocks the library has seen.
    package func currentHistoryPoint() throws(StoreError) -> HistoryPoint {
        try read { db in
            let scope = try AccessScope.resolve(db, client: client)
            return tokenPoint(try HistoryLog.currentPoint(db, scope: scope, client: client), scope: scope)
        }
    }

    /// The kept change blocks this process may see something of: all of
    /// them for the owner and read-write clients, those that concern its
    /// selection for a limited client; `accessDenied` for one that may not read.
    package func keptHistory() throws(StoreError) -> KeptHistory {
        try readObjects { db, scope in try HistoryLog.kept(db, scope: scope, client: client) }
    }

    /// The change blocks after `point` (plain or opaque) that this process
    /// may see something of, in commit order, each with the point its token
    /// names. Throws `historyExpired` when the point is older than the kept
    /// history or from another history of this library, and `accessDenied`
    /// for a client that may not read.
    package func persistentChanges(since point: HistoryPoint, limit: Int?) throws(StoreError) -> [PersistentChangeRecord] {
        try readObjects { db, scope in
            let point = try plainPoint(point, scope: scope)
            let last = try HistoryLog.validate(point, db, revealsNumbers: scope == .full)
            var changes = try HistoryLog.changes(db, after: point.changeBlock, through: last, scope: scope, client: client, limit: limit)
            // In place: a long history's list is megabytes, which a copy would fault in again.
            if scope != .full {
                for index in changes.indices { changes[index].tokenPoint = tokenPoint(changes[index].point, scope: scope) }
            }
            return changes
        }
    }

    /// The plain point a token of `scope` names. A reader without
    /// read-write access resumes only from the opaque tokens it was given,
    /// whose tags prove the library made them; anything else it presents
    /// gets the one answer every failure of its tokens gets
    /// (``StoreError/unusableOpaqueToken``).
    func plainPoint(_ point: HistoryPoint, scope: AccessScope) throws(StoreError) -> HistoryPoint {
        guard point.isOpaque else {
            guard scope == .full else { throw StoreError.unusableOpaqueToken }
            return point
        }
        // A client given read-write access since it took the token still resumes from it.
        guard let plain = tokenCipher.unmasking(point) else {
            throw scope == .full
                ? .historyPointUnknown("the change token is altered or from another library: its tag is not this library's")
                : StoreError.unusableOpaqueToken
        }
        return plain
    }

    /// A point as a change token of `scope` names it: plain for read-write
    /// access, opaque otherwise.
    private func tokenPoint(_ point: HistoryPoint, scope: AccessScope) -> HistoryPoint {
        scope == .full ? point : tokenCipher.masking(point)
    }

    /// The object changes of the change blocks after `after`, up to
    /// `through`, that this process may see, and how far pruning had gone
    /// when they were read (it may have overtaken a reader).
    package func persistentChangeEntries(after: Int64, through: Int64) throws(StoreError) -> HistoryPage {
        try readObjects { db, scope in
            let prunedThrough = try HistoryLog.prunedThrough(db)
            return HistoryPage(
                entries: try HistoryLog.entries(db, after: after, through: through, scope: scope, client: client),
                prunedThrough: prunedThrough)
        }
    }

    /// The last change block committed before `date`; 0 when none was.
    package func lastChangeBlock(before date: Date) throws(StoreError) -> Int64 {
        try read { db in
            try db.fetchOne(
                Int64.self, sql: "SELECT MAX(id) FROM change_transaction WHERE committed_at < ?",
                arguments: [date.timeIntervalSince1970]) ?? 0
        }
    }

    package func historyRetention() throws(StoreError) -> HistoryRetention {
        try read { db in try HistoryRetention.load(db) }
    }

    /// Stores the retention setting; it applies from the next pruning.
    package func setHistoryRetention(_ retention: HistoryRetention) throws(StoreError) {
        try write { db in
            try requireOwner("change the history retention")
            try retention.save(db)
        }
    }

    /// Forgets the change blocks the retention setting no longer keeps,
    /// or, with `target`, every block up to and including it (owner only).
    /// Returns whether tokens expired. The horizon moves in one short
    /// transaction; the rows go afterwards, a thousand per transaction, with
    /// a pause after each as long as it took, so other writers wait a few
    /// milliseconds at most and pruning takes at most half the write time.
    @discardableResult
    package func pruneHistory(through target: Int64? = nil, now: Date = Date()) throws(StoreError) -> Bool {
        if target != nil { try requireOwner("purge the change history") }
        // Decided in a read, so that a library with nothing to prune takes no write lock.
        let (horizon, pruned) = try read { db in try Self.horizons(db, target: target, now: now) }
        let moved = horizon > pruned ? try write { db in try HistoryLog.advanceHorizon(db, to: horizon) } : false
        while try read({ db in try HistoryLog.hasForgottenRows(db) }) {
            let started = Date()
            let deleted = try write { db in try HistoryLog.deleteForgottenRows(db, limit: 1_000) }
            guard deleted > 0 else { break }
            Thread.sleep(forTimeInterval: max(0.001, Date().timeIntervalSince(started)))
        }
        return moved
    }

    /// Whether the retention setting leaves anything to prune now. Cost: a few reads.
    package func historyNeedsPruning(now: Date = Date()) throws(StoreError) -> Bool {
        try read { db in
            let (horizon, pruned) = try Self.horizons(db, target: nil, now: now)
            return try horizon > pruned || HistoryLog.hasForgottenRows(db)
        }
    }

    /// Where the horizon should be, and where it is.
    private static func horizons(_ db: any SQLConnection, target: Int64?, now: Date) throws -> (wanted: Int64, current: Int64) {
        (try target ?? HistoryRetention.load(db).pruneTarget(db, now: now), try HistoryLog.prunedThrough(db))
    }
}
