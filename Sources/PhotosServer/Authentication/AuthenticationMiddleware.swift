import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// Where a request is authorised: every route behind this middleware needs
/// a bearer token (`Authorization: Bearer …`) or a browser session cookie;
/// a cookie-borne request that changes state must also carry the session's
/// CSRF token; a read-only token may only read. The principal it proves is
/// put in the context, and the engine applies its client's grant to
/// everything the route does with the library.
///
/// Failed proofs are counted by peer (``SignInThrottle``): a peer past the
/// limit gets 429 for a token that fails, and its valid tokens still work.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let libraries: LibraryPool
    let sessions: BrowserSessions
    let throttle: SignInThrottle
    let provenTokens: ProvenTokens
    let tokenLookups: FreshLookups<PHPhotoLibrary.AccessToken?>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let (principal, bearer) = try await authenticate(request, context: context)
        if principal.isReadOnly, !request.method.isSafe, !Self.isSignOut(request) {
            throw Problem(.forbidden, "this token may only read", code: .accessRestricted)
        }
        context.principal = principal
        context.bearer = bearer
        // The request's blocking work is the token's, sharing the token's turns.
        guard let work = BlockingWork.attribution?.work else { return try await next(request, context) }
        return try await BlockingWork.$attribution.withValue(.init(work: work, key: "token " + principal.tokenID, client: context.client)) {
            try await next(request, context)
        }
    }

    private func authenticate(_ request: Request, context: Context) async throws -> (Principal, String) {
        if let authorization = request.headers[.authorization] {
            guard let bearer = Self.bearer(inAuthorization: authorization) else {
                throw failure("the Authorization header must be \"Bearer <token>\"", context: context)
            }
            return (try await prove(String(bearer), context: context), String(bearer))
        }
        if let sessionID = request.cookies[BrowserSessions.cookieName]?.value {
            guard let session = sessions.session(sessionID) else { throw unauthorized("the session has ended; sign in again") }
            if !request.method.isSafe {
                guard let presented = request.headers[HTTPField.Name(BrowserSessions.csrfHeader)!],
                      constantTimeEqual(presented, session.csrfToken) else {
                    throw Problem(.forbidden, "a browser request that changes something must carry the session's \(BrowserSessions.csrfHeader) header")
                }
            }
            do {
                return (try await prove(session.bearer, context: context, signedIn: true), session.bearer)
            } catch {
                sessions.end(sessionID)
                throw error
            }
        }
        throw unauthorized("sign in with a bearer token")
    }

    /// The principal of a safe (reading) request whose token or session
    /// was proven within the last second, found without I/O from its
    /// `Authorization` header or its `Cookie` headers; nil when the request
    /// must go the whole way through ``handle(_:context:next:)`` (which also
    /// answers every failure). Used on the event loop by
    /// ``CachedRenditionHandler``, which keeps its connection's last proof
    /// in `lastProof`, so that a connection using one token looks it up
    /// once a second rather than once a request; a revocation in this
    /// process outdates that proof at once.
    func recentlyProvenPrincipal(authorization: String?, cookies: @autoclosure () -> [String], lastProof: inout ProvenTokens.Proof?) -> Principal? {
        if let authorization {
            guard let bearer = Self.bearer(inAuthorization: authorization) else { return nil }
            if let proof = lastProof, proof.bearer == bearer, provenTokens.isCurrent(proof) { return proof.principal }
            lastProof = provenTokens.proof(for: String(bearer))
            guard let principal = lastProof?.principal, !principal.needsSignIn else { return nil }
            return principal
        }
        let cookies = cookies()
        guard !cookies.isEmpty, let sessionID = Cookies(from: cookies)[BrowserSessions.cookieName]?.value,
              let session = sessions.session(sessionID) else { return nil }
        return provenTokens.principal(for: session.bearer)
    }

    /// The token of an `Authorization: Bearer TOKEN` header (the scheme in
    /// any case), read by bytes, since every request asks.
    private static func bearer(inAuthorization header: String) -> Substring? {
        let space = header.utf8.firstIndex(of: UInt8(ascii: " ")) ?? header.utf8.endIndex
        guard header.utf8[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let token = Substring(header.utf8[space...]).trimmingOptionalWhitespace()
        return token.isEmpty ? nil : token
    }

    /// The principal a bearer token proves, or 401 (429 for a peer past its
    /// failures), counted against the peer. `signedIn`: the token comes from
    /// a browser session, whose sign-in checked what the token alone does
    /// not prove (a share link's password).
    func prove(_ bearer: String, context: Context, signedIn: Bool = false) async throws -> Principal {
        let principal: Principal
        if let proven = provenTokens.principal(for: bearer) {
            principal = proven
        } else {
            let revocations = provenTokens.revocationCount
            guard let token = try await lookUp(bearer) else {
                throw failure("the token is unknown, revoked or expired", context: context)
            }
            principal = Principal(token)
            provenTokens.remember(bearer, as: principal, expires: token.expirationDate, lookedUpAfter: revocations)
        }
        if principal.needsSignIn, !signedIn {
            throw unauthorized("this share link has a password: sign in with it (POST /v1/session) and use the session")
        }
        return principal
    }

    /// Whether `bearer` still proves a token (not revoked, not expired), for
    /// what outlives its request's authentication. Not counted as a
    /// failure when it does not. Cost: a lookup at most once a second, or
    /// every time when `fresh` (before an event stream sends changes, so
    /// that none goes out after the token is revoked, by any process).
    func stillValid(_ bearer: String, fresh: Bool = false) async -> Bool {
        if !fresh, provenTokens.principal(for: bearer) != nil { return true }
        let revocations = provenTokens.revocationCount
        guard let token = try? await lookUp(bearer) else { return false }
        provenTokens.remember(bearer, as: Principal(token), expires: token.expirationDate, lookedUpAfter: revocations)
        return true
    }

    /// The token `bearer` proves now, looked up once for every request
    /// that asks meanwhile (``FreshLookups``).
    private func lookUp(_ bearer: String) async throws -> PHPhotoLibrary.AccessToken? {
        let owner = libraries.owner
        return try await tokenLookups.value(of: bearer) {
            try await blocking(maximumWaiting: BlockingWork.maximumWaitingLookups) { try owner.accessToken(authenticating: bearer) }
        }
    }

    /// A failed proof: counted against the peer, and 429 once the peer is
    /// past its limit (its first failures are 401).
    func failure(_ detail: String, context: Context) -> Problem {
        let throttled = throttle.retryAfter(context.remoteAddress)
        throttle.recordFailure(context.remoteAddress)
        if let seconds = throttled {
            return Problem(.tooManyRequests, "too many failed sign-ins from this address; try again in \(seconds) s",
                           headers: [.retryAfter: "\(seconds)"])
        }
        return unauthorized(detail)
    }

    private func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, detail, headers: [.wwwAuthenticate: "Bearer realm=\"photos\""])
    }

    private static func isSignOut(_ request: Request) -> Bool {
        request.method == .delete && request.uri.path == "/v1/session"
    }
}

/// Equal strings compared without an early exit on the first difference.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let (x, y) = (Array(a.utf8), Array(b.utf8))
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}

extension HTTPRequest.Method {
    /// GET, HEAD and OPTIONS change nothing.
    var isSafe: Bool { self == .get || self == .head || self == .options }
}
