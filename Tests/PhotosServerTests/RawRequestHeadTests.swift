import NIOCore
import NIOEmbedded
import NIOHTTP1
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// The request heads read straight from bytes, ahead of NIO's decoder:
/// whatever is read there, NIO's decoder reads the same way, as one whole
/// request with no body and nothing after it; anything else is left alone.
@Suite struct RawRequestHeadTests {
    @Test func aPlainHeadIsRead() throws {
        let head = try #require(
            Self.head(
                "GET /v1/assets/A/thumbnail?v=0 HTTP/1.1\r\nHost: x\r\nauthorization:  Bearer t \r\n"
                    + "Cookie: a=b\r\nCOOKIE: c=d\r\nIf-None-Match: \"e\"\r\n\r\n"))
        #expect(head.method == "GET" && head.target == "/v1/assets/A/thumbnail?v=0" && head.version == .http1_1 && head.keepAlive)
        #expect(head.authorization == ["Bearer t"] && head.cookies == ["a=b", "c=d"] && head.ifNoneMatch == ["\"e\""])
        #expect(Self.head("GET / HTTP/1.1\r\nConnection: Keep-Alive, close\r\n\r\n")?.keepAlive == false)
        #expect(Self.head("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(Self.head("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.keepAlive == true)
    }

    @Test func anythingButOneWholeHeadWithoutABodyIsLeftToTheDecoder() {
        let refused = [
            "GET / HTTP/1.1\r\nHost: x\r\n",  // not whole yet
            "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n",  // pipelined
            "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n",  // a body follows
            "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nab",
            "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET / HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n",
            "GET / HTTP/1.1\r\nConnection: upgrade\r\n\r\n",
            "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",  // obsolete line folding
            "GET / HTTP/1.1\nHost: x\r\n\r\n",  // a bare LF
            "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n",  // a bare CR
            "GET / HTTP/1.1\r\nHost: a\u{0}b\r\n\r\n",  // a control character
            "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
            "GET /é HTTP/1.1\r\n\r\n",
            "GET  / HTTP/1.1\r\n\r\n",
            "GET / HTTP/2.0\r\n\r\n",
            "\r\nGET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n\r\n",
        ]
        for text in refused { #expect(Self.head(text) == nil, "\(text.debugDescription)") }
        let oversized = "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: RawRequestHead.maximumSize))\r\n\r\n"
        #expect(Self.head(oversized) == nil)
    }

    /// Random heads, well and badly formed: each one read here is read by
    /// NIO's decoder as that one request, ended, with the same method,
    /// target, version, keep-alive and fields.
    @Test func whatIsReadHereNIOReadsTheSameWay() throws {
        var random = SeededRandom.fromEnvironment()
        let methods = ["GET", "GET", "HEAD", "POST", "get", "G(T", ""]
        let targets = ["/v1/assets/A/thumbnail?v=0", "/", "/a%20b?c=d&e", "*", "/a b", ""]
        let versions = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/1.2", "http/1.1", "HTTP/1.1 "]
        let fields = [
            "Host: a", "Authorization: Bearer x", "authorization:Bearer y \t", "Cookie: a=b; c=d", "If-None-Match: \"t\", W/\"u\"",
            "Connection: close", "Connection: keep-alive", "Connection: Upgrade", "Upgrade: h2c", "Content-Length: 0",
            "Content-Length: 5", "Transfer-Encoding: chunked", "Expect: 100-continue", " folded", "X: a\u{7}b", "Bad Name: x",
            "X-Empty:", "X:\tt\t", "X: caf\u{E9}", ": nameless", "X-Dup: 1",
        ]
        let endings = ["\r\n", "\r\n", "\r\n", "\r\n", "\r\n", "\r\n", "\n", "\r"]
        let tails = ["", "", "", "", "GET / HTTP/1.1\r\n\r\n", "hello", "\r\n"]
        var read = 0
        for _ in 0..<10_000 {
            func ending() -> String { endings.randomElement(using: &random)! }
            var text =
                "\(methods.randomElement(using: &random)!) \(targets.randomElement(using: &random)!) \(versions.randomElement(using: &random)!)\(ending())"
            for _ in 0..<Int.random(in: 0...5, using: &random) { text += fields.randomElement(using: &random)! + ending() }
            text += ending() + tails.randomElement(using: &random)!
            guard let head = Self.head(text) else { continue }
            read += 1
            let parts = try #require(Self.decodedByNIO(text), "NIO's decoder refused \(text.debugDescription)")
            guard parts.count == 2, case .head(let nio) = parts[0], case .end(nil) = parts[1] else {
                Issue.record("NIO's decoder read \(parts) from \(text.debugDescription)")
                continue
            }
            #expect(nio.method.rawValue == head.method && nio.uri == head.target, "\(text.debugDescription)")
            #expect(nio.version == (head.version == .http1_1 ? .http1_1 : .http1_0) && nio.isKeepAlive == head.keepAlive, "\(text.debugDescription)")
            #expect(nio.headers["authorization"].map { $0.trimmingOptionalWhitespace() } == head.authorization.map { $0[...] }, "\(text.debugDescription)")
            #expect(nio.headers["cookie"] == head.cookies && nio.headers["if-none-match"] == head.ifNoneMatch, "\(text.debugDescription)")
        }
        #expect(read > 100, "the generator makes enough heads that are read")
    }

    private static func head(_ text: String) -> RawRequestHead? {
        RawRequestHead(ByteBuffer(string: text))
    }

    /// What NIO's HTTP/1 decoder reads from the bytes; nil when it refuses them.
    private static func decodedByNIO(_ text: String) -> [HTTPServerRequestPart]? {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
            try channel.writeInbound(ByteBuffer(string: text))
            var parts: [HTTPServerRequestPart] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            return parts
        } catch {
            return nil
        }
    }
}
