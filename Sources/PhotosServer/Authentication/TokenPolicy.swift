import Hummingbird

/// After the authenticators: every route behind it needs a proven token
/// (401 otherwise), a read-only token may only read (and sign out), and the
/// request's blocking work is counted as the token's, sharing the token's
/// turns. The engine then applies the token's client's grant to everything
/// the route does with the library.
struct TokenPolicy: RouterMiddleware {
    typealias Context = ServerContext
    let authority: TokenAuthority

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let principal = context.identity?.principal else { throw authority.unauthorized("sign in with a bearer token") }
        if principal.isReadOnly, !request.method.isSafe, !Self.isSignOut(request) {
            throw Problem(.forbidden, "this token may only read", code: .accessRestricted)
        }
        guard let work = BlockingWork.attribution?.work else { return try await next(request, context) }
        return try await BlockingWork.$attribution.withValue(.init(work: work, key: "token " + principal.tokenID, client: context.client)) {
            try await next(request, context)
        }
    }

    private static func isSignOut(_ request: Request) -> Bool {
        request.method == .delete && request.uri.path == "/v1/session"
    }
}

extension RouterGroup<ServerContext> {
    /// This group with the authenticators and the token policy in front of
    /// its routes, in that order.
    @discardableResult
    func authenticated(by authority: TokenAuthority) -> Self {
        add(middleware: BearerAuthenticator(authority: authority))
            .add(middleware: SessionAuthenticator(authority: authority))
            .add(middleware: TokenPolicy(authority: authority))
    }
}
