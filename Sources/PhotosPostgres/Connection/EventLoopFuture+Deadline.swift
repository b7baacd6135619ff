import NIOCore
import PhotosStore

extension EventLoopFuture {
    /// Waits on the calling thread (never an event loop's) for the value,
    /// at most `timeout`: then it fails as `unreachable` with `what` went
    /// unanswered, after `onTimeout` (which closes what would otherwise
    /// answer late). A connection the server dropped without a word (a
    /// restart, a lost network) can leave a future unanswered forever.
    func wait(atMost timeout: Duration, location: PostgresLocation, what: String,
              onTimeout: @escaping @Sendable () -> Void = {}) throws -> Value where Value: Sendable {
        let answer = eventLoop.makePromise(of: Value.self)
        cascade(to: answer)
        let deadline = eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)) {
            onTimeout()
            answer.fail(StoreError.unreachable(location: location.url.absoluteString,
                                               reason: "no answer to \(what) within \(timeout.components.seconds) s"))
        }
        defer { deadline.cancel() }
        return try answer.futureResult.wait()
    }
}
