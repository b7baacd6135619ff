import Foundation
import PhotosStore

/// Bounds on what reading the library may cost: an OpenPhotoKit addition
/// for servers, whose clients send predicates of their own.
extension PHPhotoLibrary {
    /// What the reads of one piece of work may cost.
    public struct QueryLimits: Sendable {
        /// The longest one statement may run (on PostgreSQL, one read
        /// transaction: its `statement_timeout`).
        public var statementDuration: Duration
        /// Asked as statements run (every few milliseconds): true stops them,
        /// for work nobody waits for any more (a client that hung up).
        /// PostgreSQL's statements run on the server and are not asked.
        public var isAbandoned: @Sendable () -> Bool

        /// Limits of `statementDuration` a statement, abandoned when `isAbandoned` says so.
        public init(statementDuration: Duration, isAbandoned: @escaping @Sendable () -> Bool = { false }) {
            self.statementDuration = statementDuration
            self.isAbandoned = isAbandoned
        }
    }

    /// Runs `body`, in which every read of any library on this thread is
    /// bounded by `limits`; a read past them is stopped. PhotoKit's fetches
    /// do not throw, so a stopped one comes back empty inside `body`; this
    /// method then throws, whatever `body` returned: `limitExceeded` for a
    /// statement past its duration, `userCancelled` for abandoned work.
    /// Change blocks, which commit on the library's own queue, are not
    /// bounded. Cost: a clock reading every thousand SQLite steps.
    public static func withQueryLimits<Result>(_ limits: QueryLimits, _ body: () throws -> Result) throws -> Result {
        let budget = StatementBudget(limit: limits.statementDuration, isAbandoned: limits.isAbandoned)
        let result: Result
        do {
            result = try budget.run(body)
        } catch {
            if budget.stop != nil { throw PHPhotosError(storeError: StoreError.stopped(budget)) }
            throw error
        }
        if budget.stop != nil { throw PHPhotosError(storeError: StoreError.stopped(budget)) }
        return result
    }
}
