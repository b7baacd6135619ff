import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// What proves a bearer token in this server, for the authenticators that
/// sit in front of the routes (``BearerAuthenticator``,
/// ``SessionAuthenticator``, then ``TokenPolicy``: together, **where a
/// request is authorised**), for sign-in, for event streams that prove
/// their token again as they go, and for the cached-rendition fast path.
///
/// A token is looked up once for everyone who asks at the same time
/// (``FreshLookups``) and its proof kept (``ProvenTokens``) until the token
/// expires or a revocation is heard. Failed proofs are counted by peer
/// (``SignInThrottle``): a peer past the limit gets 429 for a token that
/// fails, and its valid tokens still work.
struct TokenAuthority: Sendable {
    let libraries: LibraryPool
    let sessions: BrowserSessions
    let throttle: SignInThrottle
    let provenTokens: ProvenTokens
    let tokenLookups: FreshLookups<PHPhotoLibrary.AccessToken?>

    /// The principal of a safe (reading) request whose token or session
    /// is proven (``ProvenTokens``), found without I/O from its
    /// `Authorization` header or its `Cookie` headers; nil when the request
    /// must go the whole way through the authenticators (which also
    /// answer every failure). Used on the event loop by
    /// ``CachedRenditionHandler``, which keeps its connection's last proof
    /// in `lastProof`, so that a connection using one token looks it up
    /// once rather than once a request; a revocation, heard from any
    /// process, outdates that proof at once.
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
            let session = sessions.session(sessionID)
        else { return nil }
        return provenTokens.principal(for: session.bearer)
    }

    /// The token of an `Authorization: Bearer TOKEN` header (the scheme in
    /// any case), read by bytes, since every request asks.
    static func bearer(inAuthorization header: String) -> Substring? {
        let space = header.utf8.firstIndex(of: UInt8(ascii: " ")) ?? header.utf8.endIndex
        guard header.utf8[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let token = Substring(header.utf8[space...]).trimmingOptionalWhitespace()
        return token.isEmpty ? nil : token
    }

    /// The principal a bearer token proves, or 401 (429 for a peer past its
    /// failures), counted against the peer. `signedIn`: the token comes from
    /// a browser session, whose sign-in checked what the token alone does
    /// not prove (a share link's password).
    func prove(_ bearer: String, context: ServerContext, signedIn: Bool = false) async throws -> Principal {
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
    /// failure when it does not. Cost: a lookup once per proof, or
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
        let now = provenTokens.clock
        return try await tokenLookups.value(of: bearer) {
            try await blocking(maximumWaiting: BlockingWork.maximumWaitingLookups) { try owner.accessToken(authenticating: bearer, at: now()) }
        }
    }

    /// A failed proof: counted against the peer, and 429 once the peer is
    /// past its limit (its first failures are 401).
    func failure(_ detail: String, context: ServerContext) -> Problem {
        let throttled = throttle.retryAfter(context.remoteAddress)
        throttle.recordFailure(context.remoteAddress)
        if let seconds = throttled {
            return Problem(
                .tooManyRequests, "too many failed sign-ins from this address; try again in \(seconds) s",
                headers: [.retryAfter: "\(seconds)"])
        }
        return unauthorized(detail)
    }

    /// 401, with the challenge that says a bearer token is what is needed.
    func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, detail, headers: [.wwwAuthenticate: "Bearer realm=\"photos\""])
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
