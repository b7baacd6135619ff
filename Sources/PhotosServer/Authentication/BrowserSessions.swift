import Foundation
import Synchronization

/// Browsers' sign-ins: a session cookie stands for the bearer token it was
/// exchanged for, and carries a CSRF token that state-changing requests
/// must echo in `X-CSRF-Token`. Sessions live in this process's memory
/// (a restart signs browsers out) and end with their token: each request
/// proves the token again, so a revoked or expired one ends the session.
final class BrowserSessions: Sendable {
    struct Session: Sendable {
        let bearer: String
        let csrfToken: String
        let expires: Date
    }

    static let cookieName = "opk_session"
    static let csrfHeader = "X-CSRF-Token"
    let lifetime: TimeInterval
    private let sessions = Mutex<[String: Session]>([:])
    private static let maximumSessions = 100_000

    init(lifetime: TimeInterval = 30 * 86_400) {
        self.lifetime = lifetime
    }

    /// Starts a session for a proven bearer token; returns its id and CSRF token.
    func start(bearer: String, now: Date = Date()) -> (id: String, session: Session) {
        let id = Self.randomText()
        let session = Session(bearer: bearer, csrfToken: Self.randomText(), expires: now.addingTimeInterval(lifetime))
        sessions.withLock { table in
            if table.count >= Self.maximumSessions {
                table = table.filter { $0.value.expires > now }
                if table.count >= Self.maximumSessions, let oldest = table.min(by: { $0.value.expires < $1.value.expires })?.key {
                    table[oldest] = nil
                }
            }
            table[id] = session
        }
        return (id, session)
    }

    func session(_ id: String, now: Date = Date()) -> Session? {
        sessions.withLock { table in
            guard let session = table[id] else { return nil }
            guard session.expires > now else {
                table[id] = nil
                return nil
            }
            return session
        }
    }

    func end(_ id: String) {
        sessions.withLock { $0[id] = nil }
    }

    private static func randomText() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
