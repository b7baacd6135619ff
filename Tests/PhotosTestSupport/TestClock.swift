import Foundation

/// A clock a test moves by hand, for code that asks `() -> Date` what time
/// it is (a server's ``PhotoServer/Configuration/clock``): time passes only
/// when the test says, so that no test waits out a lifetime or a timeout.
package final class TestClock: Sendable {
    private let current: LockedValue<Date>

    package init(_ start: Date = Date()) {
        current = LockedValue(start)
    }

    /// What the clock says now.
    package var now: Date { current.get() }

    /// Moves the clock on by `seconds`.
    package func advance(by seconds: TimeInterval) {
        current.update { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the function code under test reads it.
    package var read: @Sendable () -> Date { { [current] in current.get() } }
}
