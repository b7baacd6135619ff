import NIOCore
import NIOHTTP1

/// When a connection closes on its own, and when its client has gone: after `idleTimeout` with no
/// request in progress (counted from the connection's start or the end of
/// the last response, so a client trickling a request's head byte by byte
/// is closed too; checked by one timer, so a connection may stay up to
/// twice that), and, on graceful shutdown, as soon as the response in
/// progress has ended. It sees every request and response that NIO's
/// HTTP codec carries; ``CachedRenditionHandler``, which answers ahead of
/// the codec, asks it whether any is in progress and tells it of each
/// answer it writes. Time is the event loop's (`EventLoop.now`), which a
/// test's embedded loop moves on at will.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let idleTimeout: TimeAmount
    private var requestsInProgress = 0
    private var closeWhenIdle = false
    /// When the connection last became idle. One timer checks it, rather
    /// than a timer per response. Set when the handler is added.
    private var idleSince = NIODeadline.uptimeNanoseconds(0)
    private var idleTimer: Scheduled<Void>?
    /// Completed when the client closes its side of the connection (the
    /// server keeps its own side open, as HTTP/1.1 lets it, to answer) or
    /// the connection closes: a long response (an event stream) then ends
    /// at once rather than at its next write.
    private(set) var clientGone: EventLoopPromise<Void>?
    /// The same, for readers off the event loop (``ClientPresence``).
    private var presence: (connection: ObjectIdentifier, client: ClientPresence.Client)?

    init(idleTimeout: TimeAmount) {
        self.idleTimeout = idleTimeout
    }

    /// Whether a request read by NIO's decoder has not had its response's end written yet.
    var hasRequestsInProgress: Bool { requestsInProgress > 0 }

    /// A request answered ahead of the codec: the connection was busy until `now`.
    func answeredAhead(at now: NIODeadline) {
        idleSince = now
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        let connection = ObjectIdentifier(context.channel)
        let client = ClientPresence.shared.register(connection)
        presence = (connection, client)
        promise.futureResult.whenComplete { _ in client.leave() }
        clientGone = promise
        idleSince = context.eventLoop.now
        if context.channel.isActive { startIdleTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startIdleTimer(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopIdleTimer()
        clientGone?.succeed()
        if let presence { ClientPresence.shared.unregister(presence.connection) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopIdleTimer()
        clientGone?.succeed()
        if let presence { ClientPresence.shared.unregister(presence.connection) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { requestsInProgress += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        requestsInProgress = max(0, requestsInProgress - 1)  // a parse error is answered without a head
        guard requestsInProgress == 0 else {
            context.write(data, promise: promise)
            return
        }
        if closeWhenIdle {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        } else {
            idleSince = context.eventLoop.now
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { clientGone?.succeed() }
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if requestsInProgress == 0 {
            context.close(promise: nil)
        } else {
            closeWhenIdle = true
        }
    }

    private func startIdleTimer(_ context: ChannelHandlerContext) {
        idleSince = context.eventLoop.now
        scheduleIdleCheck(context, at: idleSince + idleTimeout)
    }

    private func scheduleIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        idleTimer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            let due = idleSince + idleTimeout
            let now = context.eventLoop.now
            if requestsInProgress > 0 {
                scheduleIdleCheck(context, at: now + idleTimeout)  // a long response (a stream): look again later
            } else if due > now {
                scheduleIdleCheck(context, at: due)
            } else {
                idleTimer = nil
                context.close(promise: nil)
            }
        }
    }

    private func stopIdleTimer() {
        idleTimer?.cancel()
        idleTimer = nil
    }
}
