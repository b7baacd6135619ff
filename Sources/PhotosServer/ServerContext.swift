import Hummingbird
import Logging
import NIOCore

/// What a request carries through the router: who made it, once the
/// authentication middleware has decided, and from where.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Who the request acts for; nil until authenticated.
    var principal: Principal?
    /// The bearer token that proved it (from the header or the session),
    /// for what outlives the request's authentication (an event stream
    /// proves it again as it goes).
    var bearer: String?
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
        principal = nil
    }

    /// JSON bodies are small; uploads stream and are not collated.
    var maxUploadSize: Int { 1 << 20 }

    /// How routes read JSON bodies (`request.decode(as:context:)`): strictly, at most 1 MiB.
    var requestDecoder: StrictJSONRequestDecoder { StrictJSONRequestDecoder() }

    /// How routes write JSON (``json(_:from:status:headers:)``).
    var responseEncoder: JSONResponseEncoder { JSONResponseEncoder() }

    /// The principal of an authenticated request; the authentication
    /// middleware runs before every route that reads it.
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw Problem(.unauthorized, "sign in with a bearer token") }
        return principal
    }
}
