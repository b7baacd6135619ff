import Foundation
import Synchronization

/// Counts failed sign-ins by peer address: past `limit` failures within
/// `window`, a request from that peer whose token fails is answered 429
/// rather than 401. Only what is unproven is throttled: a peer's valid
/// token always works, so that failures from one address (behind a NAT or
/// a reverse proxy, everyone's) never lock its owner out. The table is
/// bounded (``RecentTable``): the peers heard from least lately are
/// forgotten first, without a scan.
final class SignInThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    private let failures: Mutex<RecentTable<String, [Date]>>
    static let maximumPeers = 10_000

    init(limit: Int = 10, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
        failures = Mutex(RecentTable(capacity: Self.maximumPeers))
    }

    /// Seconds until `peer`'s failures no longer throttle it; nil when they do not now.
    func retryAfter(_ peer: String?, now: Date = Date()) -> Int? {
        guard let peer else { return nil }
        return failures.withLock { table in
            guard let times = table.peek(peer)?.filter({ now.timeIntervalSince($0) < window }), times.count >= limit,
                let oldest = times.first
            else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    /// Records a failed sign-in; keeps the last `limit` of a peer's.
    func recordFailure(_ peer: String?, now: Date = Date()) {
        guard let peer else { return }
        failures.withLock { table in
            var times = (table.value(peer) ?? []).filter { now.timeIntervalSince($0) < window }
            times.append(now)
            table[peer] = Array(times.suffix(limit))
        }
    }
}
