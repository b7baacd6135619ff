import Foundation
import Synchronization

/// What the reads of one piece of work may cost: each statement (each read
/// transaction on PostgreSQL) at most `limit` long, and none at all once
/// `isAbandoned` says nobody waits for the answer any more (a server's
/// client hung up). Set for the calling thread (``run(_:_:)``): the engine's
/// reads on that thread honour it, SQLite's through a progress handler that
/// interrupts the statement, PostgreSQL's through `statement_timeout`
/// (which cannot see abandonment). Change blocks, which commit on the
/// library's own queue, are never bounded by it.
package final class StatementBudget: Sendable {
    /// Why a statement was stopped.
    package enum Stop: Sendable, Equatable {
        case deadline
        case abandoned
    }

    package let limit: Duration
    package let isAbandoned: @Sendable () -> Bool
    private let stopped = Mutex<Stop?>(nil)

    package init(limit: Duration, isAbandoned: @escaping @Sendable () -> Bool = { false }) {
        self.limit = limit
        self.isAbandoned = isAbandoned
    }

    /// Why a statement of the work was stopped; nil when none was.
    package var stop: Stop? { stopped.withLock { $0 } }

    package func record(_ stop: Stop) {
        stopped.withLock { if $0 == nil { $0 = stop } }
    }

    /// Runs `body` with this budget for the thread's reads, restoring what
    /// was there before.
    @discardableResult
    package func run<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.key, previous) }
        return try body()
    }

    /// The budget of the calling thread's work; nil when it has none.
    package static var current: StatementBudget? {
        pthread_getspecific(key).map { Unmanaged<StatementBudget>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A monotonic reading in nanoseconds, as the progress handler compares them.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The limit in nanoseconds, saturated.
    package var limitNanoseconds: UInt64 {
        let (seconds, attoseconds) = limit.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
