import Foundation
import Synchronization

/// Counts failed sign-ins by peer address: past `limit` failures within
/// `window`, that peer is refused until the oldest failure ages out. The
/// table is bounded: the oldest peers are forgotten first.
final class SignInThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    private let failures = Mutex<[String: [Date]]>([:])
    private static let maximumPeers = 10_000

    init(limit: Int = 10, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds until `peer` may try again; nil when it may now.
    func retryAfter(_ peer: String?, now: Date = Date()) -> Int? {
        failures.withLock { table in
            guard let peer, var times = table[peer] else { return nil }
            times.removeAll { now.timeIntervalSince($0) >= window }
            table[peer] = times.isEmpty ? nil : times
            guard times.count >= limit, let oldest = times.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func recordFailure(_ peer: String?, now: Date = Date()) {
        guard let peer else { return }
        failures.withLock { table in
            if table[peer] == nil, table.count >= Self.maximumPeers,
               let stalest = table.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })?.key {
                table[stalest] = nil
            }
            table[peer, default: []].append(now)
            if table[peer]!.count > limit { table[peer]!.removeFirst(table[peer]!.count - limit) }
        }
    }
}
