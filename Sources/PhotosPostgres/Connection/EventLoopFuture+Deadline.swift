import Foundation
import NIOCore
import PhotosStore

extension EventLoopFuture {
    /// Waits on the calling thread (never an event loop's) for the value,
    /// at most `timeout`: then it fails as `unreachable` with `what` went
    /// unanswered, after `onTimeout` (which closes what would otherwise
    /// answer late). A connection the server dropped without a word (a
    /// restart, a lost network) can leave a future unanswered forever.
    ///
    /// Cost: one hop to the event loop to hear the answer; the deadline is
    /// the waiting thread's own, so no timer is scheduled on the loop.
    func wait(
        atMost timeout: Duration, location: PostgresLocation, what: String,
        onTimeout: @escaping @Sendable () -> Void = {}
    ) throws -> Value where Value: Sendable {
        let answer = Answer<Value>()
        whenComplete(answer.arrive)
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard let result = answer.wait(until: Date(timeIntervalSinceNow: seconds)) else {
            onTimeout()
            throw StoreError.unreachable(
                location: location.url.absoluteString,
                reason: "no answer to \(what) within \(timeout.components.seconds) s")
        }
        return try result.get()
    }
}

/// The outcome of a future, handed from the event loop to a waiting thread.
private final class Answer<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var result: Result<Value, any Error>?

    func arrive(_ result: Result<Value, any Error>) {
        condition.lock()
        self.result = result
        condition.signal()
        condition.unlock()
    }

    /// The outcome, or nil when none came by `deadline`.
    func wait(until deadline: Date) -> Result<Value, any Error>? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if !condition.wait(until: deadline) { break }
        }
        return result
    }
}
