import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// A connection's life on the wire: renditions answered from the
/// connection's bytes give the same answers as the router, in order behind
/// pipelined requests, around requests in pieces or with bodies, for as
/// long as the token holds; quiet connections close, busy ones do not.
@Suite(.tags(.slow)) struct ConnectionTests {
    @Test func aCachedThumbnailIsAnsweredLikeTheFirstTime() async throws {
        let fixture = try ServerFixture(photos: 1)
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let id = urlID(fixture.assets[0])
        let connection = try RawConnection(port: port.number)
        let request = "GET /v1/assets/\(id)/thumbnail?v=0 HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\n\r\n"
        try connection.send(request)
        let first = try #require(try await connection.response())
        try connection.send(request)
        let again = try #require(try await connection.response())
        #expect(first.statusLine == "HTTP/1.1 200 OK" && again.statusLine == first.statusLine)
        #expect(again.body == first.body && Array(again.body.prefix(2)) == [0xFF, 0xD8])
        for name in ["etag", "cache-control", "content-type", "content-length", "server"] {
            #expect(again.headers[name] == first.headers[name], "\(name)")
        }
        #expect(again.headers["date"] != nil)

        let tag = try #require(first.headers["etag"])
        try connection.send(
            "GET /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\nIf-None-Match: \(tag)\r\n\r\n")
        let unchanged = try #require(try await connection.response())
        #expect(unchanged.statusLine == "HTTP/1.1 304 Not Modified" && unchanged.body.isEmpty)
        #expect(unchanged.headers["cache-control"] == "private, no-cache")
        try connection.send("GET /v1/assets/\(id)/thumbnail?v=9 HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\n\r\n")
        let otherVersion = try #require(try await connection.response())
        #expect(otherVersion.statusLine.hasPrefix("HTTP/1.1 404"), "the router's problem, not the cached image")
        #expect(otherVersion.headers["content-type"] == "application/problem+json")
    }

    @Test func pipelinedRequestsAreAnsweredInTheirOrder() async throws {
        let fixture = try ServerFixture(photos: 2)
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let ids = fixture.assets.map(urlID)
        let connection = try RawConnection(port: port.number)
        let authorization = "Authorization: Bearer \(fixture.ownerToken)\r\n"
        for id in ids {
            try connection.send("GET /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: test\r\n\(authorization)\r\n")
            #expect(try await connection.response()?.statusLine == "HTTP/1.1 200 OK")
        }
        // A request the router answers, then cached ones that could be answered at once.
        try connection.send(
            "GET /v1/library HTTP/1.1\r\nHost: test\r\n\(authorization)\r\n"
                + "GET /v1/assets/\(ids[0])/thumbnail HTTP/1.1\r\nHost: test\r\n\(authorization)\r\n"
                + "GET /v1/assets/\(ids[1])/thumbnail HTTP/1.1\r\nHost: test\r\n\(authorization)\r\n")
        let library = try #require(try await connection.response())
        #expect(library.headers["content-type"]?.hasPrefix("application/json") == true)
        let first = try #require(try await connection.response())
        let second = try #require(try await connection.response())
        #expect(first.headers["etag"]?.contains(ids[0].lowercased()) == true)
        #expect(second.headers["etag"]?.contains(ids[1].lowercased()) == true)
    }

    @Test func requestsTheDecoderMustReadStillGetTheirAnswersAndThoseAfterThem() async throws {
        let fixture = try ServerFixture(photos: 1)
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let id = urlID(fixture.assets[0])
        let thumbnail = "GET /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\n\r\n"
        let cached = try RawConnection(port: port.number)
        try cached.send(thumbnail)
        let reference = try #require(try await cached.response())
        #expect(reference.statusLine == "HTTP/1.1 200 OK")

        // A head in two pieces, then a body the decoder must skip; the thumbnail after each is the same.
        let pieces = try RawConnection(port: port.number)
        try pieces.send(String(thumbnail.prefix(20)))
        try await Task.sleep(for: .milliseconds(50))
        try pieces.send(String(thumbnail.dropFirst(20)))
        #expect(try await pieces.response()?.body == reference.body)
        try pieces.send(thumbnail)
        #expect(try await pieces.response()?.body == reference.body)
        let body = try RawConnection(port: port.number)
        try body.send(
            "POST /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\n"
                + "Content-Length: 17\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        #expect(try await body.response()?.statusLine.hasPrefix("HTTP/1.1 405") == true, "the body is the request's, not another request")
        try body.send(thumbnail)
        #expect(try await body.response()?.body == reference.body)

        // After a bodyless request the router answered, a cached one is answered again.
        try cached.send("GET /v1/library HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(fixture.ownerToken)\r\n\r\n")
        #expect(try await cached.response()?.headers["content-type"]?.hasPrefix("application/json") == true)
        try cached.send(thumbnail)
        let again = try #require(try await cached.response())
        #expect(again.body == reference.body && again.headers["etag"] == reference.headers["etag"])

        // Asked to close, the connection closes after the answer.
        try cached.send(thumbnail.replacingOccurrences(of: "Host: test\r\n", with: "Host: test\r\nConnection: close\r\n"))
        #expect(try await cached.response()?.body == reference.body)
        #expect(try await cached.closesSoon())
    }

    /// The connection's own proof is outdated by a revocation made by
    /// another instance of the library (as by another process), heard
    /// through the commit watcher; the server's clock stands still.
    @Test func aTokenRevokedElsewhereStopsGettingCachedThumbnails() async throws {
        let clock = TestClock()
        let fixture = try ServerFixture(photos: 1, configuration: .init(port: 0, clock: clock.read))
        let token = try fixture.library.createAccessToken(forClient: nil, label: "to revoke")
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let connection = try RawConnection(port: port.number)
        let request = "GET /v1/assets/\(urlID(fixture.assets[0]))/thumbnail HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(token.bearer)\r\n\r\n"
        for _ in 0..<2 {
            try connection.send(request)
            #expect(try await connection.response()?.statusLine == "HTTP/1.1 200 OK")
        }
        try PHPhotoLibrary(url: fixture.library.url).revokeAccessToken(id: token.token.id)
        #expect(
            try await eventually {
                try connection.send(request)
                return try await connection.response()?.statusLine.hasPrefix("HTTP/1.1 401") == true
            })
    }

    /// The idle timeout on the event loop's own clock, which the embedded
    /// loop moves on: no test waits it out. A head that never ends is cut
    /// off; a request in progress (a long stream) keeps the connection
    /// open however long it takes; after its response, or an answer given
    /// ahead of the codec, the timeout runs again.
    @Test func aQuietConnectionClosesAndABusyOneStaysOpen() throws {
        func connection() throws -> EmbeddedChannel {
            let channel = EmbeddedChannel(handler: ConnectionLifecycleHandler(idleTimeout: .seconds(10)))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
            return channel
        }
        let trickling = try connection()
        trickling.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(trickling.isActive)
        trickling.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!trickling.isActive, "a head that never ends is cut off")

        let busy = try connection()
        busy.embeddedEventLoop.advanceTime(by: .seconds(1))
        try busy.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/changes/stream")))
        busy.embeddedEventLoop.advanceTime(by: .seconds(25))
        #expect(busy.isActive, "a response in progress keeps it open")
        try busy.writeOutbound(HTTPServerResponsePart.end(nil))
        busy.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(busy.isActive)
        busy.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!busy.isActive, "after the last response, the idle timeout runs")

        let handler = ConnectionLifecycleHandler(idleTimeout: .seconds(10))
        let answered = EmbeddedChannel(handler: handler)
        try answered.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        answered.embeddedEventLoop.advanceTime(by: .seconds(8))
        handler.answeredAhead(at: answered.embeddedEventLoop.now)
        answered.embeddedEventLoop.advanceTime(by: .seconds(8))
        #expect(answered.isActive, "an answer ahead of the codec counts as activity")
        answered.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!answered.isActive)
    }
}
