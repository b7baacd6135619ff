import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// `/v1/session`: a browser exchanges a bearer token for an HttpOnly,
/// SameSite=Strict session cookie, reads its session back (a reloaded page
/// needs the CSRF token again), and signs out.
struct SessionRoutes {
    let authentication: TokenAuthority
    let sessions: BrowserSessions

    private struct SignIn: Decodable {
        let token: String
        /// A share link's password, when it has one.
        let password: String?
    }

    private struct Signed: Encodable {
        let csrfToken: String
        let expires: Date
        let client: String?
        let readOnly: Bool
        /// The token's label; a share link's names the album it shares.
        let label: String

        init(_ session: BrowserSessions.Session, _ principal: Principal) {
            csrfToken = session.csrfToken
            expires = session.expires
            client = principal.client
            readOnly = principal.isReadOnly
            label = principal.label
        }
    }

    /// Sign-in needs no authentication: it is where authentication starts.
    func addPublic(to group: RouterGroup<ServerContext>) {
        group.post("session") { request, context -> Response in
            let body = try await StrictJSONRequestDecoder(limit: 4096).decode(SignIn.self, from: request, context: context)
            let principal = try await authentication.prove(body.token, context: context, signedIn: true)
            if principal.needsSignIn {
                // Both refusals say that a password is what is needed (`"password": "required"`).
                guard let password = body.password else {
                    var problem = Problem(
                        .unauthorized, "this share link has a password: send it as \"password\"",
                        headers: [.wwwAuthenticate: "Bearer realm=\"photos\""])
                    problem.extensions = ["password": "required"]
                    throw problem
                }
                let owner = authentication.libraries.owner
                let bearer = body.token
                let now = authentication.provenTokens.clock
                let matches = try await blocking {
                    try owner.accessToken(authenticating: bearer, at: now()).map { try owner.checkPassword(password, of: $0) } ?? false
                }
                guard matches else {
                    var problem = authentication.failure("that is not the share link's password", context: context)
                    problem.extensions = ["password": "required"]
                    throw problem
                }
            }
            let (id, session) = sessions.start(bearer: body.token, tokenID: principal.tokenID)
            var response = try context.json(Signed(session, principal), from: request)
            response.setCookie(
                Cookie(
                    name: BrowserSessions.cookieName, value: id, expires: session.expires,
                    path: "/", secure: false, httpOnly: true, sameSite: .strict))
            return response
        }
    }

    func addAuthenticated(to group: RouterGroup<ServerContext>) {
        group.get("session") { request, context -> Response in
            guard let id = request.cookies[BrowserSessions.cookieName]?.value, let session = sessions.session(id) else {
                throw Problem.notFound("this request carries no browser session: a bearer token needs none")
            }
            return try context.json(Signed(session, try context.requirePrincipal()), from: request, headers: [.cacheControl: "no-store"])
        }
        group.delete("session") { request, _ -> Response in
            if let id = request.cookies[BrowserSessions.cookieName]?.value { sessions.end(id) }
            var response = Response(status: .noContent)
            response.setCookie(
                Cookie(
                    name: BrowserSessions.cookieName, value: "", expires: Date(timeIntervalSince1970: 0),
                    path: "/", secure: false, httpOnly: true, sameSite: .strict))
            return response
        }
    }
}
