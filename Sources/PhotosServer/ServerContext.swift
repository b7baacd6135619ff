import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore

/// What a request carries through the router: who made it, once the
/// authentication middleware has decided, and from where.
struct ServerContext: AuthRequestContext {
    var coreContext: CoreRequestContextStorage
    /// Who the request acts for, and the token that proved it; nil until an
    /// authenticator has proved it.
    var identity: TokenIdentity?
    /// The peer's address, for throttling failed sign-ins.
    let remoteAddress: String?
    /// The connection, which a long response (an event stream) watches for
    /// its client going away, and blocking work asks whether its client is
    /// still there.
    let channel: any Channel
    /// The connection's client, which blocking work asks whether it is still there.
    let client: ClientPresence.Client?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
        channel = source.channel
        client = ClientPresence.shared.client(of: ObjectIdentifier(source.channel))
        identity = nil
    }

    /// JSON bodies are small; uploads stream and are not collated.
    var maxUploadSize: Int { 1 << 20 }

    /// How routes read JSON bodies (`request.decode(as:context:)`): strictly, at most 1 MiB.
    var requestDecoder: StrictJSONRequestDecoder { StrictJSONRequestDecoder() }

    /// How routes write JSON (``json(_:from:status:headers:)``).
    var responseEncoder: JSONResponseEncoder { JSONResponseEncoder() }

    /// The principal of an authenticated request; ``TokenPolicy`` runs
    /// before every route that reads it.
    func requirePrincipal() throws -> Principal {
        guard let principal = identity?.principal else { throw Problem(.unauthorized, "sign in with a bearer token") }
        return principal
    }
}
