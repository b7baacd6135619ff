import Foundation
import Synchronization

/// Browsers' sign-ins: a session cookie stands for the bearer token it was
/// exchanged for, and carries a CSRF token that state-changing requests
/// must echo in `X-CSRF-Token`. Sessions live in this process's memory
/// (a restart signs browsers out) and end with their token: each request
/// proves the token again, so a revoked or expired one ends the session.
///
/// Bounded per token: a token's sessions beyond ``maximumPerToken`` push
/// out its own oldest, never another token's, so signing in again and
/// again with a share link signs nobody else out. Beyond ``maximumSessions``
/// in all (very many tokens), the oldest session of any token goes. Every
/// operation is O(1), amortised: nothing scans the table under its lock.
final class BrowserSessions: Sendable {
    struct Session: Sendable {
        let bearer: String
        /// The token's public id, which bounds and ends its sessions.
        let tokenID: String
        let csrfToken: String
        let expires: Date
    }

    static let cookieName = "opk_session"
    static let csrfHeader = "X-CSRF-Token"
    /// The most sessions one token keeps: a household's browsers and then some.
    static let maximumPerToken = 64
    static let maximumSessions = 100_000
    let lifetime: TimeInterval
    private let table = Mutex(Table())

    private struct Table {
        var sessions: [String: Session] = [:]
        /// Each token's session ids, oldest first.
        var byToken: [String: [String]] = [:]
        /// Every session id in the order it started, oldest from `head`;
        /// ids of sessions ended since are skipped when reached, and
        /// dropped when they make up most of it.
        var order: [String] = []
        var head = 0

        mutating func remove(_ id: String) {
            guard let session = sessions.removeValue(forKey: id) else { return }
            byToken[session.tokenID]?.removeAll { $0 == id }
            if byToken[session.tokenID]?.isEmpty == true { byToken[session.tokenID] = nil }
        }

        mutating func add(_ id: String, _ session: Session) {
            sessions[id] = session
            byToken[session.tokenID, default: []].append(id)
            order.append(id)
            // Dead ids are dropped once they outnumber the live: amortised O(1).
            if order.count - head > 2 * sessions.count + 64 {
                order = order[head...].filter { sessions[$0] != nil }
                head = 0
            }
        }

        mutating func removeOldest() {
            while head < order.count {
                let id = order[head]
                head += 1
                if sessions[id] != nil {
                    remove(id)
                    return
                }
            }
        }
    }

    init(lifetime: TimeInterval = 30 * 86_400) {
        self.lifetime = lifetime
    }

    /// Starts a session for a proven bearer token; returns its id and CSRF
    /// token. Cost: O(``maximumPerToken``) at most.
    func start(bearer: String, tokenID: String, now: Date = Date()) -> (id: String, session: Session) {
        let id = Self.randomText()
        let session = Session(bearer: bearer, tokenID: tokenID, csrfToken: Self.randomText(), expires: now.addingTimeInterval(lifetime))
        table.withLock { table in
            let own = table.byToken[tokenID] ?? []
            for expired in own where (table.sessions[expired]?.expires ?? now) <= now { table.remove(expired) }
            if let oldest = table.byToken[tokenID]?.first, (table.byToken[tokenID]?.count ?? 0) >= Self.maximumPerToken {
                table.remove(oldest)
            }
            if table.sessions.count >= Self.maximumSessions { table.removeOldest() }
            table.add(id, session)
        }
        return (id, session)
    }

    func session(_ id: String, now: Date = Date()) -> Session? {
        table.withLock { table in
            guard let session = table.sessions[id] else { return nil }
            guard session.expires > now else {
                table.remove(id)
                return nil
            }
            return session
        }
    }

    func end(_ id: String) {
        table.withLock { $0.remove(id) }
    }

    /// Ends every session of a token this process has just revoked.
    func end(tokenID: String) {
        table.withLock { table in
            for id in table.byToken[tokenID] ?? [] { table.remove(id) }
        }
    }

    /// How many sessions a token has, and how many there are in all.
    func count(tokenID: String? = nil) -> Int {
        table.withLock { table in tokenID.map { table.byToken[$0]?.count ?? 0 } ?? table.sessions.count }
    }

    private static func randomText() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
