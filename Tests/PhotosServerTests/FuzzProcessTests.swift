import Foundation
import NIOCore
import NIOHTTP1
import Photos
import PhotosTestSupport
import Testing

/// `photos serve` as a process, sent random and boundary values for every
/// integer a request carries and random bytes for every header and
/// parameter the server parses, on every documented route, with every kind
/// of token, for `PHOTOS_FUZZ_SECONDS` (5 by default; `script/test` gives
/// it a minute). The server must answer each with a status below 500 (or
/// close a connection whose bytes are not HTTP), and stay up.
/// `PHOTOS_FUZZ_SEED` replays a run.
@Suite(.serialized, .tags(.slow)) struct FuzzProcessTests {
    static let seconds = ProcessInfo.processInfo.environment["PHOTOS_FUZZ_SECONDS"].flatMap(Double.init) ?? 5

    @Test func randomRequestsNeverTakeTheServerDown() async throws {
        let (server, identifiers, directory) = try ServerProcess.newLibrary(photos: 3, named: "Fuzzed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let assets = identifiers.map { String($0.prefix { $0 != "/" }) }
        try server.photos("album", "create", "Shared")
        try server.photos("album", "add", "Shared", assets[0])
        let tokens = [
            try server.photos("token", "create", "--owner", "--quiet"),
            try server.photos("token", "create", "--client", "org.example.limited", "--limited", assets[1], "--quiet"),
            try server.photos("token", "create", "--client", "org.example.adder", "--add-only", "--quiet"),
            try server.photos("token", "create", "--client", "org.example.reader", "--full", "--read-only", "--quiet"),
            try server.photos("token", "share", "Shared", "--quiet"),
            "opk_aaaaaaaaaaaa_" + String(repeating: "A", count: 43), "garbage",
        ]
        try server.start()
        defer { server.stop() }
        let document = try await ServerProcess.request(.GET, "\(server.url)/v1/openapi.json", token: tokens[0])
        let paths = try #require((try JSONSerialization.jsonObject(with: document.body) as? [String: Any])?["paths"] as? [String: Any]).keys.sorted()
        var random = SeededRandom.fromEnvironment("PHOTOS_FUZZ_SEED")
        var fuzz = Fuzz(assets: assets, tokens: tokens, paths: paths + ["/", "/gallery/main.js", "/metrics", "/v1/nothing"])
        let deadline = ContinuousClock.now + .milliseconds(Int64(Self.seconds * 1000))
        var sent = 0
        var statuses: [Int: Int] = [:]
        while ContinuousClock.now < deadline {
            let request = fuzz.request(using: &random)
            let status = try await Self.exchange(request, port: server.port)
            sent += 1
            if let status { statuses[status, default: 0] += 1 }
            #expect(
                status.map { $0 < 500 || ($0 == 507 && Self.isUpload(request)) } ?? true,
                "\(status ?? 0) for \(String(decoding: request.prefix(600), as: UTF8.self).debugDescription)")
            if sent % 50 == 0 || status.map({ $0 >= 500 }) == true {
                try #require(
                    server.process?.isRunning == true, "the server died after \(String(decoding: request.prefix(600), as: UTF8.self).debugDescription)")
            }
        }
        print("FuzzProcessTests: \(sent) requests, statuses \(statuses.sorted { $0.key < $1.key })")
        #expect(sent > 0 && server.process?.isRunning == true)
        #expect(try await ServerProcess.request(.GET, "\(server.url)/v1/library", token: tokens[0]).status == 200)
    }

    /// Whether the request is to the uploads, whose documented 507 says the
    /// server's disk has no room for what the uploads declared (the fuzzer's
    /// own, up to each token's quota, fill a small disk's margin): a refusal,
    /// not a failure.
    private static func isUpload(_ request: Data) -> Bool {
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first?.hasPrefix("/v1/uploads") == true
    }

    /// Sends one raw request on a connection of its own and reads the
    /// status of its answer; nil when the server closed the connection
    /// without one (bytes that are not HTTP at all).
    private static func exchange(_ request: Data, port: Int) async throws -> Int? {
        let connection = try RawConnection(port: port, readTimeout: .seconds(15))
        try connection.send(request)
        let head = try await connection.text(until: "\r\n", longest: .seconds(30))
        guard head.hasPrefix("HTTP/1.1 "), let code = Int(head.dropFirst(9).prefix(3)) else { return nil }
        return code
    }
}

/// What the fuzz sends: requests of documented shapes, with their values
/// random, boundary or hostile.
private struct Fuzz {
    let assets: [String]
    let tokens: [String]
    let paths: [String]

    private static let integers = [
        "0", "1", "-1", "2", "1000", "1001", "2147483647", "2147483648", "4294967296", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "99999999999999999999", "1e3", "0x10", " 1", "1 ", "",
        "+1", "01", "1.5", "NaN", "inf", "\u{0663}", "18446744073709551616",
    ]
    private static let parameters = ["limit", "cursor", "page", "hidden", "v", "since", "predicate", "sort"]
    private static let headers = [
        "Range", "If-Range", "If-None-Match", "If-Match", "Last-Event-ID", "Cookie", "Upload-Length",
        "Upload-Offset", "Upload-Metadata", "Content-Type", "Tus-Resumable", "Accept", "X-CSRF-Token",
        "Content-Length", "Transfer-Encoding", "Connection", "Expect", "Upgrade", "Authorization",
    ]
    private static let methods = ["GET", "GET", "GET", "HEAD", "POST", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"]
    private static let jsonKeys = [
        "requests", "op", "ref", "upload", "asset", "assets", "album", "albums", "folder", "folders", "title",
        "favorite", "hidden", "creationDate", "location", "latitude", "longitude", "altitude", "addAssets",
        "removeAssets", "moveAssets", "toIndex", "addCollections", "removeCollections", "token", "password",
        "expires",
    ]
    private static let ops = [
        "createAsset", "updateAsset", "deleteAssets", "restoreAssets", "createAlbum", "updateAlbum", "deleteAlbums",
        "createFolder", "updateFolder", "deleteFolders", "nothing",
    ]

    mutating func request(using random: inout SeededRandom) -> Data {
        let method = Self.methods.randomElement(using: &random)!
        var path = paths.randomElement(using: &random)!
        for placeholder in ["{id}", "{bucket}"] where path.contains(placeholder) {
            path = path.replacingOccurrences(of: placeholder, with: identifier(using: &random))
        }
        var query: [String] = []
        for name in Self.parameters where Int.random(in: 0..<4, using: &random) == 0 {
            query.append(name + "=" + percentEncoded(value(using: &random), using: &random))
        }
        if !query.isEmpty { path += "?" + query.joined(separator: "&") }
        var lines = ["\(method) \(path) HTTP/1.1", "Host: fuzz", "Connection: close"]
        if Int.random(in: 0..<5, using: &random) != 0 { lines.append("Authorization: Bearer \(tokens.randomElement(using: &random)!)") }
        for name in Self.headers where Int.random(in: 0..<6, using: &random) == 0 {
            var value =
                name == "Range"
                ? "bytes=\(Self.integers.randomElement(using: &random)!)-\(Self.integers.randomElement(using: &random)!)"
                : self.value(using: &random)
            // Event streams answer forever; they are fuzzed by their own tests.
            if name == "Accept" { value = value.replacingOccurrences(of: "event-stream", with: "") }
            if ["Content-Length", "Transfer-Encoding", "Connection"].contains(name), Bool.random(using: &random) { continue }
            lines.append("\(name): \(value)")
        }
        var body = Data()
        if ["POST", "PATCH", "PUT"].contains(method) {
            body = Int.random(in: 0..<4, using: &random) == 0 ? Data(bytes(using: &random)) : Data(json(depth: 0, using: &random).utf8)
            lines.append(
                "Content-Type: " + ["application/json", "application/offset+octet-stream", "text/plain", "application/json; charset=utf-8"]
                    .randomElement(using: &random)!)
            lines.append("Content-Length: \(body.count)")
            if path.hasPrefix("/v1/uploads") {
                lines.append("Tus-Resumable: 1.0.0")
                lines.append("Upload-Length: \(Self.integers.randomElement(using: &random)!)")
                lines.append("Upload-Offset: \(Self.integers.randomElement(using: &random)!)")
            }
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    private func identifier(using random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: assets.randomElement(using: &random)!
        case 2: UUID().uuidString
        case 3: "2024-05" + (Bool.random(using: &random) ? "-17" : "")
        case 4:
            ["..%2F..%2Fdatabase", "undated", "0123456789abcdef0123456789abcdef", "%00", String(repeating: "A", count: 5000)]
                .randomElement(using: &random)!
        default: percentEncoded(value(using: &random), using: &random)
        }
    }

    private func value(using random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: Self.integers.randomElement(using: &random)!
        case 2: String(Int64.random(in: .min ... .max, using: &random))
        case 3:
            [
                "pixelWidth > 3", "title LIKE[cd] '*a?b*'", "creationDate:desc", "favorite == YES", "\"token\"", "*", "W/\"x\"",
                "bytes=0-", "filename YWJj,contentHash MDA=", "application/json", "opk_session=abc", "1.0.0",
            ].randomElement(using: &random)!
        default: String(decoding: bytes(using: &random).filter { $0 >= 0x20 && $0 != 0x7F }, as: UTF8.self)
        }
    }

    /// Random bytes, often short, sometimes long.
    private func bytes(using random: inout SeededRandom) -> [UInt8] {
        let count = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 0...5000, using: &random) : Int.random(in: 0...40, using: &random)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    private func percentEncoded(_ text: String, using random: inout SeededRandom) -> String {
        Bool.random(using: &random)
            ? text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            : String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F && !"#? %".unicodeScalars.contains($0) }.map(Character.init))
    }

    /// A JSON value built from the API's keys, with boundary numbers.
    private func json(depth: Int, using random: inout SeededRandom) -> String {
        switch depth > 3 ? Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<6, using: &random) {
        case 0: return Self.integers.filter { Double($0) != nil }.randomElement(using: &random)!
        case 1: return "\"" + (Bool.random(using: &random) ? (Self.ops + assets).randomElement(using: &random)! : "\\u0000x") + "\""
        case 2: return ["true", "null", "1e308", "-0", "\"2024-05-17T10:00:00Z\"", "\"$a\""].randomElement(using: &random)!
        case 3: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in json(depth: depth + 1, using: &random) }.joined(separator: ",") + "]"
        default:
            let keys = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.jsonKeys.randomElement(using: &random)! }
            return "{" + keys.map { "\"\($0)\": " + json(depth: depth + 1, using: &random) }.joined(separator: ", ") + "}"
        }
    }
}
