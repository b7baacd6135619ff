import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A connection's HTTP/1.1 pipeline: first a ``CachedRenditionHandler``,
/// answering from the connection's bytes what it already knows; then
/// NIO's HTTP/1 codec; a ``ConnectionLifecycleHandler`` (idle timeout,
/// graceful close), which the first consults; then HTTP types and
/// Hummingbird's router in a task per connection.
struct PhotoHTTPChannel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let idleTimeout: Duration
    let makeRenditionHandler: @Sendable (ConnectionLifecycleHandler) -> CachedRenditionHandler

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false,
                withOutboundHeaderValidation: false)
            let lifecycle = ConnectionLifecycleHandler(idleTimeout: TimeAmount(idleTimeout))
            try pipeline.addHandler(lifecycle)
            try pipeline.addHandler(makeRenditionHandler(lifecycle), position: .first)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 through ``PhotoHTTPChannel``.
    static func photos(
        idleTimeout: Duration,
        makeRenditionHandler: @escaping @Sendable (ConnectionLifecycleHandler) -> CachedRenditionHandler
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            PhotoHTTPChannel(responder: responder, idleTimeout: idleTimeout, makeRenditionHandler: makeRenditionHandler)
        }
    }
}
