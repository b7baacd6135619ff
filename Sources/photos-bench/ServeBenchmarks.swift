import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Photos
import PhotosMedia
import PhotosServer

/// `photos serve` under load, the server in a child process of its own
/// (`serve-child`), so that its memory is its own:
/// - cached thumbnails with authentication against nginx serving the same
///   files, both loaded by wrk at 64 connections;
/// - the timeline of a large library: bucket summary and a 2,000-asset page;
/// - a commit in another process reaching an event stream;
/// - 1,000 idle event streams, and a reader that stalls;
/// - a 1 GiB upload's memory, and 200 photos over HTTP against `importFiles`.
struct ServeBenchmarks {
    let workdir: URL
    let assetCount: Int
    let quick: Bool

    func run() async throws {
        try await BenchLibrary.withScratch(in: workdir) {
            try await thumbnails()
            try await timeline()
            try await eventLatency()
            try await idleStreams()
            try await uploads()
            try await photosOverHTTP()
        }
    }

    // MARK: - Thumbnails against nginx

    private func thumbnails() async throws {
        let library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir))
        let photos = try Self.photos(quick ? 20 : 200, in: workdir.appendingPathComponent("scratch/thumbnail-photos"), width: 1600, height: 1200)
        _ = try library.importFiles(photos)
        let assets = library.withCurrentLibrary { PHAsset.fetchAssets(with: nil) }
        let root = workdir.appendingPathComponent("scratch/nginx/root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var ourPaths: [String] = []
        var staticPaths: [String] = []
        for index in 0..<assets.count {
            let asset = assets[index]
            guard let file = try PHImageManager.default().rendition(.thumbnail, of: asset).file else { continue }
            let id = String(asset.localIdentifier.prefix { $0 != "/" })
            try FileManager.default.copyItem(at: file, to: root.appendingPathComponent("\(id).jpg"))
            ourPaths.append("/v1/assets/\(id)/thumbnail?v=\(asset.contentVersion)")
            staticPaths.append("/\(id).jpg")
        }
        let token = try library.createAccessToken(forClient: nil).bearer
        let server = try ServerChild.start(library: library.url)
        defer { server.stop() }
        let nginx = try Nginx.start(root: root, in: workdir.appendingPathComponent("scratch/nginx"))
        defer { nginx.stop() }
        let seconds = quick ? 1 : 5
        var ours: [Wrk.Result] = []
        var baseline: [Wrk.Result] = []
        _ = try Wrk.run(port: server.port, paths: ourPaths, token: token, seconds: 1)  // warm-up, not measured
        _ = try Wrk.run(port: nginx.port, paths: staticPaths, token: nil, seconds: 1)
        for _ in 0..<(quick ? 1 : 5) {
            ours.append(try Wrk.run(port: server.port, paths: ourPaths, token: token, seconds: seconds))
            baseline.append(try Wrk.run(port: nginx.port, paths: staticPaths, token: nil, seconds: seconds))
        }
        let oursRate = Self.median(ours.map(\.requestsPerSecond))
        let nginxRate = Self.median(baseline.map(\.requestsPerSecond))
        // Time per request, so that the ratio reads as everywhere else: ours over the baseline, lower is better.
        Measure.report(
            "thumbnail serving at 64 connections, ms per 1,000 requests (ours \(Int(oursRate)) req/s, nginx \(Int(nginxRate)) req/s)",
            ours: 1_000_000 / oursRate, baseline: 1_000_000 / nginxRate, target: 2)
        Measure.reportAbsolute(
            "thumbnail serving p99 at 64 connections (nginx \(String(format: "%.2f", Self.median(baseline.map(\.p99Milliseconds)))) ms)",
            ours: Self.median(ours.map(\.p99Milliseconds)), target: 10)
    }

    // MARK: - Timeline

    private func timeline() async throws {
        // A copy, since this creates a token and commits albums to it.
        let url = try BenchLibrary.workingCopy(of: BenchLibrary.prepare(assetCount: assetCount, in: workdir), in: workdir)
        let token = try PHPhotoLibrary(url: url).createAccessToken(forClient: nil, label: "bench").bearer
        let server = try ServerChild.start(library: url)
        defer { server.stop() }
        let client = HTTPClient.shared
        let base = "http://127.0.0.1:\(server.port)"
        _ = try await Self.get(client, base + "/v1/timeline", token: token)  // warm-up
        var summary: [Double] = []
        var buckets: [[String: Any]] = []
        for _ in 0..<(quick ? 10 : 100) {
            let (milliseconds, body) = try await Self.timedGet(client, base + "/v1/timeline", token: token)
            summary.append(milliseconds)
            buckets = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["buckets"] as? [[String: Any]] ?? []
        }
        Measure.reportAbsolute(
            "timeline bucket summary p95 on \(assetCount) assets (\(buckets.count) months)",
            ours: Measure.percentile(summary, 0.95), target: 50)
        let largest = buckets.max { ($0["count"] as? Int ?? 0) < ($1["count"] as? Int ?? 0) }
        guard let bucket = largest?["id"] as? String, let count = largest?["count"] as? Int else { throw BenchError("the timeline has no buckets") }
        // Every page of the biggest month in turn: a later page costs more
        // than the first if the server sorts the month to find it.
        let pageCount = (count + 1999) / 2000
        var pages: [Double] = []
        for index in 0..<(quick ? 10 : 100) {
            pages.append(try await Self.timedGet(client, base + "/v1/timeline/\(bucket)?page=\(index % pageCount)", token: token).milliseconds)
        }
        Measure.reportAbsolute(
            "timeline bucket page p95 (pages of 2,000 of the \(count) assets of \(bucket), in turn)",
            ours: Measure.percentile(pages, 0.95), target: 30)

        // The summary as a client meets it after each commit: uncached.
        var afterCommit: [Double] = []
        for _ in 0..<(quick ? 3 : 20) {
            _ = try ChildProcess.start(["commit-child", "--library", url.path, "--count", "1"]).finish()
            try await Task.sleep(for: .milliseconds(50))
            afterCommit.append(try await Self.timedGet(client, base + "/v1/timeline", token: token).milliseconds)
        }
        Measure.reportAbsolute(
            "timeline bucket summary p95 right after a commit, on \(assetCount) assets",
            ours: Measure.percentile(afterCommit, 0.95), target: 50)
    }

    // MARK: - Events

    private func eventLatency() async throws {
        let (library, token, server) = try scratchServer()
        defer { server.stop() }
        let events = try await ChangeEventArrivals(port: server.port, token: token)
        let count = quick ? 10 : 100
        let committer = try ChildProcess.start(["commit-child", "--library", library.url.path, "--count", "\(count)"])
        var received: [UInt64] = []
        for _ in 0..<count { received.append(try await events.next()) }
        let committed = try committer.finish().split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { UInt64($0) } }
        let latencies = zip(committed, received).map { Double(Int64($1) - Int64($0)) / 1_000_000 }
        Measure.reportAbsolute(
            "change in another process to an event stream, p95 over \(latencies.count) commits",
            ours: Measure.percentile(latencies, 0.95), target: 50)
    }

    private func idleStreams() async throws {
        let (library, token, server) = try scratchServer()
        defer { server.stop() }
        let streams = quick ? 100 : 1000
        // A token may hold only a few streams (a browser's tabs), so the
        // streams are spread over tokens of ten each, as many tabs would be.
        let streamsPerToken = 10
        let tokens = try (0..<streams / streamsPerToken).map { _ in try library.createAccessToken(forClient: nil).bearer }
        let before = server.residentMegabytes
        var sockets: [RawStream] = []
        for index in 0..<streams { sockets.append(try RawStream.open(port: server.port, token: tokens[index / streamsPerToken])) }
        for socket in sockets { try socket.awaitHeaders() }
        let open = server.residentMegabytes
        Measure.reportAbsolute(
            "memory of \(streams) idle event streams, MB (server \(String(format: "%.0f", before)) MB before)",
            ours: open - before, target: quick ? 6.4 : 64, unit: "MB")
        sockets.forEach { $0.close() }

        // A reader that never reads while 2,000 changes stream to it; the
        // same changes first, without it, so that what the server holds for
        // any commit (SQLite's page caches, the log) is not counted.
        let changes = quick ? "200" : "2000"
        _ = try ChildProcess.start(["commit-child", "--library", library.url.path, "--count", changes]).finish()
        try await Task.sleep(for: .seconds(1))
        let stalled = try RawStream.open(port: server.port, token: token)
        try stalled.awaitHeaders()
        let quiet = server.residentMegabytes
        _ = try ChildProcess.start(["commit-child", "--library", library.url.path, "--count", changes]).finish()
        try await Task.sleep(for: .seconds(1))
        Measure.reportAbsolute(
            "memory held for a stalled event-stream reader through \(quick ? 200 : 2000) changes, MB",
            ours: max(0, server.residentMegabytes - quiet), target: 1, unit: "MB")
        stalled.close()
    }

    // MARK: - Uploads

    private func uploads() async throws {
        let (_, token, server) = try scratchServer()
        defer { server.stop() }
        let client = HTTPClient.shared
        let base = "http://127.0.0.1:\(server.port)"

        let bigSize = quick ? 64 << 20 : 1 << 30
        let big = workdir.appendingPathComponent("scratch/big.mov")
        guard FileManager.default.createFile(atPath: big.path, contents: nil) else { throw BenchError("cannot create \(big.path)") }
        try FileHandle(forWritingTo: big).truncate(atOffset: UInt64(bigSize))
        let before = server.peakMegabytes
        _ = try await Self.upload(big, client: client, base: base, token: token)
        Measure.reportAbsolute(
            "server memory growth uploading \(bigSize >> 20) MiB, MB", ours: server.peakMegabytes - before,
            target: 64, unit: "MB")
    }

    /// 200 photos uploaded and made assets in change blocks of 50, against
    /// `importFiles` of the same files; each run on fresh libraries (the
    /// server's in its own process), the two sides alternating, medians
    /// compared.
    private func photosOverHTTP() async throws {
        let photos = try Self.photos(quick ? 20 : 200, in: workdir.appendingPathComponent("scratch/upload-photos"), width: 2048, height: 1536)
        var overHTTP: [Double] = []
        var importing: [Double] = []
        for _ in 0..<(quick ? 1 : 5) {
            let baselineLibrary = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir))
            importing.append(Measure.best(runs: 1) { _ = try? baselineLibrary.importFiles(photos) })
            let (_, token, server) = try scratchServer()
            defer { server.stop() }
            let base = "http://127.0.0.1:\(server.port)"
            overHTTP.append(
                try await Self.elapsed {
                    for batch in stride(from: 0, to: photos.count, by: 50).map({ Array(photos[$0..<min(photos.count, $0 + 50)]) }) {
                        var requests: [[String: Any]] = []
                        for photo in batch {
                            let upload = try await Self.upload(photo, client: HTTPClient.shared, base: base, token: token)
                            requests.append(["op": "createAsset", "upload": upload])
                        }
                        let body = try JSONSerialization.data(withJSONObject: ["requests": requests])
                        let status = try await Self.send(
                            HTTPClient.shared, .POST, base + "/v1/changes", token: token,
                            headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(bytes: body)))
                        guard status == 200 else { throw BenchError("a change block of uploads failed with \(status)") }
                    }
                })
        }
        Measure.report(
            "\(photos.count) photos uploaded over HTTP and made assets, against importFiles (median of \(overHTTP.count) runs each)",
            ours: Self.median(overHTTP), baseline: Self.median(importing), target: 1.3)
    }

    /// Uploads a file by tus in 1 MiB chunks of one PATCH; returns the upload's id.
    private static func upload(_ file: URL, client: HTTPClient, base: String, token: String) async throws -> String {
        let size = Int(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0)
        var create = HTTPClientRequest(url: base + "/v1/uploads")
        create.method = .POST
        create.headers.add(name: "Authorization", value: "Bearer \(token)")
        create.headers.add(name: "Tus-Resumable", value: "1.0.0")
        create.headers.add(name: "Upload-Length", value: "\(size)")
        create.headers.add(
            name: "Upload-Metadata",
            value: "filename \(Data(file.lastPathComponent.utf8).base64EncodedString()),duplicates \(Data("keep".utf8).base64EncodedString())")
        let created = try await client.execute(create, timeout: .seconds(60))
        guard let location = created.headers.first(name: "Location") else { throw BenchError("no upload was created (\(created.status))") }
        let handle = try FileHandle(forReadingFrom: file)
        let chunks = AsyncStream<ByteBuffer> { continuation in
            while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty { continuation.yield(ByteBuffer(bytes: data)) }
            try? handle.close()
            continuation.finish()
        }
        let status = try await send(
            client, .PATCH, base + location, token: token,
            headers: [("Tus-Resumable", "1.0.0"), ("Upload-Offset", "0"), ("Content-Type", "application/offset+octet-stream")],
            body: .stream(chunks, length: .known(Int64(size))))
        guard status == 204 else { throw BenchError("an upload's PATCH failed with \(status)") }
        return String(location.split(separator: "/").last!)
    }

    // MARK: - Helpers

    /// A new scratch library, an owner token for it, and its server.
    private func scratchServer() throws -> (PHPhotoLibrary, String, ServerChild) {
        let library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir))
        let token = try library.createAccessToken(forClient: nil).bearer
        return (library, token, try ServerChild.start(library: library.url))
    }

    private static func photos(_ count: Int, in folder: URL, width: Int, height: Int) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let url = folder.appendingPathComponent(String(format: "IMG_%04d.JPG", index))
            try SampleImage.jpeg(width: width, height: height, from: (Double(index % 200), 40, 60), to: (220, Double(index % 180), 90))
                .write(to: url)
            return url
        }
    }

    private static func send(
        _ client: HTTPClient, _ method: HTTPMethod, _ url: String, token: String, headers: [(String, String)],
        body: HTTPClientRequest.Body
    ) async throws -> UInt {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = body
        let response = try await client.execute(request, timeout: .seconds(600))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }

    private static func get(_ client: HTTPClient, _ url: String, token: String) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 26)
        guard response.status == .ok else { throw BenchError("GET \(url): \(response.status)") }
        return Data(buffer: body)
    }

    private static func timedGet(_ client: HTTPClient, _ url: String, token: String) async throws -> (milliseconds: Double, body: Data) {
        let start = DispatchTime.now().uptimeNanoseconds
        let body = try await get(client, url, token: token)
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000, body)
    }

    private static func elapsed(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    static func median(_ values: [Double]) -> Double { Measure.percentile(values, 0.5) }

    /// `serve-child`: the server alone in this process, until SIGTERM.
    static func serveChild(library: URL) async throws {
        let library = try PHPhotoLibrary(url: library)
        var logger = Logger(label: "photos-bench.serve")
        logger.logLevel = .error
        let server = try PhotoServer(library: library, configuration: .init(port: 0, signInFailuresPerMinute: 1_000_000), logger: logger)
        try await server.run { port in
            print("listening \(port)")
            fflush(nil)
        }
    }
}
