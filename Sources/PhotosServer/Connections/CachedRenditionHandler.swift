import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Photos

/// Answers `GET /v1/assets/{id}/{rendition}` on the event loop when the
/// answer is already known: the token or session was proven within the
/// last second and the rendition is in the commit cache for that client.
/// A grid scrolling through thousands of thumbnails is mostly such
/// requests, and answering them here skips the hop into a Swift task, the
/// router and the middleware, which cost more than the answer itself.
///
/// Everything else, and any doubt (a failure to report, a request behind
/// another still being answered on a pipelined connection), passes on
/// unchanged to the router, which gives the same answer the slow way.
/// The answer, its headers and its log line and metrics come from the
/// same code the route uses (``ImageRoutes/answer(_:to:)``,
/// ``AuthenticationMiddleware/recentlyProvenPrincipal(authorization:cookies:lastProof:)``,
/// ``RequestObservation/record(path:since:logger:series:)``).
final class CachedRenditionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request answered here, and when it arrived.
    private struct Answered {
        let request: HTTPRequestHead
        let rendition: PHImageManager.Rendition
        let answer: (status: HTTPResponse.Status, headers: PreparedHeaders, body: ByteBuffer?)
        let start: ContinuousClock.Instant
    }

    private enum State {
        /// Between requests.
        case idle
        /// Reading the rest of a request this handler will answer.
        case answering(Answered)
        /// Passing a request on to the router.
        case passing
    }

    private let renditions: CommitCache<CachedRendition.Key, CachedRendition>
    private let authentication: AuthenticationMiddleware
    private let metrics: ServerMetrics
    private let logger: Logger
    private let serverName: String
    private var state = State.idle
    /// Requests passed on whose responses have not ended: answering one
    /// here before them would put its response ahead of theirs.
    private var responsesOwed = 0
    private var date = HTTPDate()
    /// This connection's last token proof and request series, so that a
    /// connection asking again and again costs no shared lookups.
    private var lastProof: ProvenTokens.Proof?
    private var seriesAnswered: [(rendition: PHImageManager.Rendition, series: ServerMetrics.RequestSeries)] = []

    init(renditions: CommitCache<CachedRendition.Key, CachedRendition>, authentication: AuthenticationMiddleware,
         metrics: ServerMetrics, logger: Logger, serverName: String) {
        self.renditions = renditions
        self.authentication = authentication
        self.metrics = metrics
        self.logger = logger
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let request), .idle):
            if responsesOwed == 0, let answered = answer(request) {
                state = .answering(answered)
            } else {
                state = .passing
                responsesOwed += 1
                context.fireChannelRead(data)
            }
        case (.end, .answering(let answered)):
            state = .idle
            respond(answered, context: context)
        case (.body, .answering):
            break
        case (.end, .passing):
            state = .idle
            context.fireChannelRead(data)
        default:
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responsesOwed -= 1 }
        context.write(data, promise: promise)
    }

    private func respond(_ answered: Answered, context: ChannelHandlerContext) {
        let answer = answered.answer
        var headers = answer.headers.http1
        headers.add(name: "Date", value: date.now())
        headers.add(name: "Server", value: serverName)
        let status = HTTPResponseStatus(statusCode: answer.status.code)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: answered.request.version, status: status, headers: headers))), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let uri = answered.request.uri
        RequestObservation.record(path: String(Substring(uri.utf8.prefix { $0 != UInt8(ascii: "?") })), since: answered.start,
                                  logger: logger, series: series(answered.rendition, status: answer.status.code))
    }

    /// The metrics series of this rendition's route and status, found by
    /// value in this connection's list; the route's text is only made for
    /// a series not yet in it.
    private func series(_ rendition: PHImageManager.Rendition, status: Int) -> ServerMetrics.RequestSeries {
        if let known = seriesAnswered.first(where: { $0.rendition == rendition && $0.series.key.status == status }) { return known.series }
        let series = metrics.requestSeries(method: "GET", route: "/v1/assets/{id}/\(rendition.rawValue)", status: status)
        seriesAnswered.append((rendition, series))
        return series
    }

    /// The answer when it is known without I/O; nil to pass the request on.
    private func answer(_ request: HTTPRequestHead) -> Answered? {
        let start = ContinuousClock.now
        guard request.method == .GET, request.version == .http1_1, request.isKeepAlive,
              let (assetID, rendition, query) = Self.renditionPath(request.uri),
              let principal = authentication.recentlyProvenPrincipal(authorization: request.headers.first(name: "authorization"),
                                                                     cookies: request.headers["cookie"], lastProof: &lastProof),
              let entry = renditions.lookup(CachedRendition.Key(client: principal.client, assetID: assetID, rendition: rendition)).value
        else { return nil }
        var conditions = HTTPFields()
        let ifNoneMatch = request.headers["if-none-match"]
        if !ifNoneMatch.isEmpty { conditions[.ifNoneMatch] = ifNoneMatch.joined(separator: ", ") }
        guard let answer = try? ImageRoutes.answer(entry, to: Query(text: query, headers: conditions)) else { return nil }
        return Answered(request: request, rendition: rendition, answer: answer, start: start)
    }

    /// The asset, rendition and query of `/v1/assets/{id}/{rendition}[?query]`,
    /// read from the path's bytes: this runs for every request, and
    /// splitting by characters would cost more than the rest of the answer.
    private static func renditionPath(_ uri: String) -> (assetID: String, rendition: PHImageManager.Rendition, query: Substring?)? {
        var path = uri.utf8[...]
        var query: Substring?
        if let mark = path.firstIndex(of: UInt8(ascii: "?")) {
            query = Substring(path[path.index(after: mark)...])
            path = path[..<mark]
        }
        guard path.starts(with: prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash != rest.startIndex else { return nil }
        let name = rest[rest.index(after: slash)...]
        guard let rendition = PHImageManager.Rendition.allCases.first(where: { $0.rawValue.utf8.elementsEqual(name) }),
              let assetID = String(rest[..<slash]) else { return nil }
        return (assetID, rendition, query)
    }

    private static let prefix = "/v1/assets/".utf8
}

/// The `Date` header's text (RFC 9110 IMF-fixdate), made once a second.
private struct HTTPDate {
    private var second = 0
    private var text = ""

    mutating func now() -> String {
        var clock = time(nil)
        if clock != second || text.isEmpty {
            second = clock
            var parts = tm()
            gmtime_r(&clock, &parts)
            var buffer = [CChar](repeating: 0, count: 40)
            let length = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }
}
