import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A connection's HTTP/1.1 pipeline: NIO's HTTP/1 codec; a
/// ``ConnectionLifecycleHandler`` (idle timeout, graceful close); a
/// ``CachedRenditionHandler`` answering what it already knows on the
/// event loop; then, for everything else, HTTP types and Hummingbird's
/// router in a task per connection. The first two work on NIO's own HTTP/1
/// types, so that the requests answered on the event loop cost no
/// conversion either way.
struct PhotoHTTPChannel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let idleTimeout: Duration
    let makeRenditionHandler: @Sendable () -> CachedRenditionHandler

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                     withOutboundHeaderValidation: false)
            try pipeline.addHandler(ConnectionLifecycleHandler(idleTimeout: TimeAmount(idleTimeout)))
            try pipeline.addHandler(makeRenditionHandler())
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
    static func photos(idleTimeout: Duration, makeRenditionHandler: @escaping @Sendable () -> CachedRenditionHandler) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            PhotoHTTPChannel(responder: responder, idleTimeout: idleTimeout, makeRenditionHandler: makeRenditionHandler)
        }
    }
}
