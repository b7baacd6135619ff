import Hummingbird
import HummingbirdAuth

/// Proves the bearer token of a request's `Authorization` header (the
/// scheme `Bearer` in any case). A request without the header is left to
/// the next authenticator; one whose header is not a bearer token, or whose
/// token proves nothing (unknown, revoked, expired, or a share link with a
/// password used without signing in), is refused with 401, counted against
/// its peer (429 past the peer's limit).
struct BearerAuthenticator: AuthenticatorMiddleware {
    typealias Context = ServerContext
    let authority: TokenAuthority

    func authenticate(request: Request, context: Context) async throws -> TokenIdentity? {
        guard let authorization = request.headers[.authorization] else { return nil }
        guard let bearer = TokenAuthority.bearer(inAuthorization: authorization) else {
            throw authority.failure("the Authorization header must be \"Bearer <token>\"", context: context)
        }
        let token = String(bearer)
        return TokenIdentity(principal: try await authority.prove(token, context: context), bearer: token)
    }
}
