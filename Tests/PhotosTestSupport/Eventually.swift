import Foundation

/// Waits until `condition` holds, for what another thread, process or
/// server makes true in its own time: asked again every `interval` (10 ms),
/// for at most `timeout` (10 s), a bound on a failing test rather than a
/// time any test waits out. Returns whether it held; a test expects that.
/// The one place tests poll, so that none loops unbounded or sleeps for a
/// fixed time instead. This form blocks its thread, for synchronous tests;
/// async code awaits ``eventually(within:every:_:)``, which holds no thread
/// of the concurrency pool while it waits.
@available(*, noasync, message: "await eventually, which holds no thread of the pool while it waits")
package func eventuallyBlocking(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(10),
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: timeout)
    while try !condition() {
        guard clock.now < end else { return false }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
    return true
}

/// ``eventuallyBlocking(within:every:_:)`` for async code: the condition may
/// await, and the wait holds no thread.
package func eventually(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: timeout)
    while try await !condition() {
        guard clock.now < end else { return false }
        try await Task.sleep(for: interval)
    }
    return true
}
