import Foundation
import Synchronization

/// The event streams open now, by token: at most ``maximumPerToken`` for
/// one token (a browser's tabs and then some) and ``maximumTotal`` in all,
/// so that no token can hold the server's memory and timers with streams.
/// Streams of a token this process revokes, and all streams at shutdown,
/// end at once.
final class EventStreams: Sendable {
    static let maximumPerToken = 16
    static let maximumTotal = 1024
    private let open = Mutex<[String: [UUID: @Sendable () -> Void]]>([:])

    /// Registers a stream of `tokenID` that `end` stops; nil when the token
    /// or the server has as many as it may.
    func register(tokenID: String, end: @escaping @Sendable () -> Void) -> UUID? {
        open.withLock { open in
            guard open[tokenID, default: [:]].count < Self.maximumPerToken,
                open.values.reduce(0, { $0 + $1.count }) < Self.maximumTotal
            else { return nil }
            let id = UUID()
            open[tokenID, default: [:]][id] = end
            return id
        }
    }

    func unregister(_ id: UUID, tokenID: String) {
        open.withLock { open in
            open[tokenID]?[id] = nil
            if open[tokenID]?.isEmpty == true { open[tokenID] = nil }
        }
    }

    /// Ends every stream of a token this process has just revoked.
    func end(tokenID: String) {
        for end in open.withLock({ Array(($0[tokenID] ?? [:]).values) }) { end() }
    }

    /// Ends every stream, for shutdown.
    func endAll() {
        for end in open.withLock({ $0.values.flatMap(\.values) }) { end() }
    }

    func count(tokenID: String? = nil) -> Int {
        open.withLock { open in tokenID.map { open[$0]?.count ?? 0 } ?? open.values.reduce(0) { $0 + $1.count } }
    }
}
