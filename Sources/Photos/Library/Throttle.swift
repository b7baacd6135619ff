import Foundation

/// Lets something happen at most once per interval: background maintenance,
/// a repeated diagnostic.
final class Throttle: @unchecked Sendable {
    private let lock = NSLock()
    private var lastRun: Date?

    /// True, and the run recorded, when the last run is older than `interval` seconds.
    func claim(interval: TimeInterval) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if let lastRun, now.timeIntervalSince(lastRun) < interval { return false }
        lastRun = now
        return true
    }
}
