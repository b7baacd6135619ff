import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// Proves a browser session's token, for a request that no `Authorization`
/// header has authenticated and that carries the session cookie. A request
/// that changes state must also carry the session's CSRF token. A session
/// that has ended is refused with 401, and one whose token no longer
/// proves anything ends.
struct SessionAuthenticator: AuthenticatorMiddleware {
    typealias Context = ServerContext
    let authority: TokenAuthority

    func authenticate(request: Request, context: Context) async throws -> TokenIdentity? {
        guard context.identity == nil, let sessionID = request.cookies[BrowserSessions.cookieName]?.value else { return nil }
        let sessions = authority.sessions
        guard let session = sessions.session(sessionID) else { throw authority.unauthorized("the session has ended; sign in again") }
        if !request.method.isSafe {
            guard let presented = request.headers[HTTPField.Name(BrowserSessions.csrfHeader)!],
                constantTimeEqual(presented, session.csrfToken)
            else {
                throw Problem(.forbidden, "a browser request that changes something must carry the session's \(BrowserSessions.csrfHeader) header")
            }
        }
        do {
            return TokenIdentity(principal: try await authority.prove(session.bearer, context: context, signedIn: true), bearer: session.bearer)
        } catch {
            sessions.end(sessionID)
            throw error
        }
    }
}
