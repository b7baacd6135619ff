import Foundation
import HTTPTypes
import Logging
import NIOCore
import Photos

/// Answers `GET /v1/assets/{id}/{rendition}` straight from the connection's
/// bytes when the answer is already known: the token or session is proven
/// (``ProvenTokens``) and the rendition is in the commit cache for that
/// client. A grid scrolling through thousands of thumbnails is mostly such
/// requests. Answered here, first in the pipeline, they skip NIO's HTTP
/// decoder and encoder, the hop into a Swift task, the router and the
/// middleware, which together cost several times the answer itself: the
/// head is read by ``RawRequestHead``, and the answer is the entry's
/// encoded header lines, the `Date` and `Server` lines, and its JPEG.
///
/// Everything else passes on unchanged to NIO's decoder and the router,
/// which give the same answer the slow way; so does any doubt. The bytes
/// of one read are taken only when they are one whole request head without
/// a body; and only while everything passed on before ended with its
/// request (so the decoder holds nothing), every answer owed has been
/// written (so answers keep their order), and the connection is writable
/// (so a client that does not read is held back by the router's
/// back-pressure). Once a read passes on that was not one whole head, the
/// connection stays on the slow path. The answer, its headers, its log
/// line and metrics come from the same code the route uses
/// (``ImageRoutes/answer(_:to:)``,
/// ``TokenAuthority/recentlyProvenPrincipal(authorization:cookies:lastProof:)``,
/// ``RequestObservation/record(path:since:logger:series:)``).
final class CachedRenditionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = IOData

    private let renditions: CommitCache<CachedRendition.Key, CachedRendition>
    private let authentication: TokenAuthority
    private let metrics: ServerMetrics
    private let logger: Logger
    private let serverName: String
    /// The connection's requests in progress on the slow path, and its idle clock.
    private let lifecycle: ConnectionLifecycleHandler
    /// Whether NIO's decoder has been given only whole request heads
    /// without bodies, so that it holds nothing between them.
    private var decoderAtRequestBoundary = true
    private var dateAndServer = DateAndServerLines()
    /// This connection's last token proof and request series, so that a
    /// connection asking again and again costs no shared lookups.
    private var lastProof: ProvenTokens.Proof?
    private var seriesAnswered: [(rendition: PHImageManager.Rendition, series: ServerMetrics.RequestSeries)] = []

    init(
        renditions: CommitCache<CachedRendition.Key, CachedRendition>, authentication: TokenAuthority,
        metrics: ServerMetrics, logger: Logger, serverName: String, lifecycle: ConnectionLifecycleHandler
    ) {
        self.renditions = renditions
        self.authentication = authentication
        self.metrics = metrics
        self.logger = logger
        self.serverName = serverName
        self.lifecycle = lifecycle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard decoderAtRequestBoundary else {
            context.fireChannelRead(data)
            return
        }
        guard let head = RawRequestHead(unwrapInboundIn(data)) else {
            decoderAtRequestBoundary = false
            context.fireChannelRead(data)
            return
        }
        let start = ContinuousClock.now
        if !lifecycle.hasRequestsInProgress, context.channel.isWritable, let answer = answer(head) {
            respond(answer, to: head, since: start, context: context)
        } else {
            context.fireChannelRead(data)
        }
    }

    /// The answer when it is known without I/O; nil to pass the request on.
    private func answer(_ head: RawRequestHead) -> Answer? {
        guard head.method == "GET", head.version == .http1_1, head.keepAlive, head.authorization.count <= 1,
            let (assetID, rendition, query) = Self.renditionPath(head.target),
            let principal = authentication.recentlyProvenPrincipal(
                authorization: head.authorization.first,
                cookies: head.cookies, lastProof: &lastProof),
            let entry = renditions.lookup(CachedRendition.Key(client: principal.client, assetID: assetID, rendition: rendition)).value
        else { return nil }
        var conditions = HTTPFields()
        if !head.ifNoneMatch.isEmpty { conditions[.ifNoneMatch] = head.ifNoneMatch.joined(separator: ", ") }
        guard let (status, headers, body) = try? ImageRoutes.answer(entry, to: Query(text: query, headers: conditions)) else { return nil }
        return Answer(rendition: rendition, status: status, headers: headers, body: body)
    }

    /// What ``ImageRoutes/answer(_:to:)`` gave, and for which rendition.
    private struct Answer {
        let rendition: PHImageManager.Rendition
        let status: HTTPResponse.Status
        let headers: PreparedHeaders
        let body: ByteBuffer?
    }

    /// Writes the answer as NIO's encoder would: the status line, the
    /// fields, `Date` and `Server`, then the body; one `writev` at the flush.
    private func respond(_ answer: Answer, to head: RawRequestHead, since start: ContinuousClock.Instant, context: ChannelHandlerContext) {
        let statusLine =
            answer.status == .ok
            ? Self.okStatusLine
            : ByteBuffer(string: "HTTP/1.1 \(answer.status.code) \(answer.status.reasonPhrase)\r\n")
        context.write(wrapOutboundOut(.byteBuffer(statusLine)), promise: nil)
        context.write(wrapOutboundOut(.byteBuffer(answer.headers.http1Lines)), promise: nil)
        context.write(wrapOutboundOut(.byteBuffer(dateAndServer.lines(serverName: serverName))), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil) }
        context.flush()
        lifecycle.answeredAhead(at: context.eventLoop.now)
        RequestObservation.record(
            path: String(Substring(head.target.utf8.prefix { $0 != UInt8(ascii: "?") })), since: start,
            logger: logger, series: series(answer.rendition, status: answer.status.code))
    }

    private static let okStatusLine = ByteBuffer(string: "HTTP/1.1 200 OK\r\n")

    /// The metrics series of this rendition's route and status, found by
    /// value in this connection's list; the route's text is only made for
    /// a series not yet in it.
    private func series(_ rendition: PHImageManager.Rendition, status: Int) -> ServerMetrics.RequestSeries {
        if let known = seriesAnswered.first(where: { $0.rendition == rendition && $0.series.key.status == status }) { return known.series }
        let series = metrics.requestSeries(method: "GET", route: "/v1/assets/{id}/\(rendition.rawValue)", status: status)
        seriesAnswered.append((rendition, series))
        return series
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
            let assetID = String(rest[..<slash])
        else { return nil }
        return (assetID, rendition, query)
    }

    private static let prefix = "/v1/assets/".utf8
}

/// The `Date` (RFC 9110 IMF-fixdate) and `Server` field lines that end a
/// head, and the blank line after them; made once a second.
private struct DateAndServerLines {
    private var second = 0
    private var encoded = ByteBuffer()

    mutating func lines(serverName: String) -> ByteBuffer {
        var clock = time(nil)
        if clock != second || encoded.readableBytes == 0 {
            second = clock
            var parts = tm()
            gmtime_r(&clock, &parts)
            var date = [CChar](repeating: 0, count: 40)
            let length = strftime(&date, date.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            var lines = ByteBuffer()
            lines.writeStaticString("Date: ")
            lines.writeBytes(date[..<length].map { UInt8(bitPattern: $0) })
            lines.writeStaticString("\r\nServer: ")
            lines.writeString(serverName)
            lines.writeStaticString("\r\n\r\n")
            encoded = lines
        }
        return encoded
    }
}
