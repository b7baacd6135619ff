import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Photos
import PhotosMedia
import PhotosTestSupport
import Testing

/// `photos serve` as people run it: a process on a loopback port, with
/// other `photos` processes changing the library beside it.
@Suite(.serialized, .tags(.slow)) struct ServeProcessTests {
    private static func library(photos: Int) throws -> (ServerProcess, [String], URL) {
        try ServerProcess.newLibrary(photos: photos, named: "Serve")
    }

    @Test func anotherProcessesChangeStreamsLiveAndAResumeAfterARestartLosesNothing() async throws {
        let (server, assets, directory) = try Self.library(photos: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = try server.photos("token", "create", "--owner", "--quiet")
        try server.start()
        let stream = try await EventStream.open("\(server.url)/v1/changes", token: token)
        try server.photos("favorite", assets[0])
        // Generous waits: they end as soon as the event comes, and the whole
        // suite running beside this test on two cores can delay a process.
        let live = try #require(try await stream.nextEvent(timeout: .seconds(20)), "the change reaches the stream")
        #expect(live.data.contains(assets[0]))

        // SIGTERM: the stream ends cleanly and the server exits 0.
        #expect(server.stop() == 0)
        #expect(try await stream.nextEvent(timeout: .seconds(20)) == nil, "the stream ended")
        try await stream.close()

        // A change while the server is down is not lost: resuming by the last id replays it.
        try server.photos("hide", assets[1])
        try server.start()
        defer { server.stop() }
        let resumed = try await EventStream.open("\(server.url)/v1/changes", token: token, lastEventID: live.id)
        let missed = try #require(try await resumed.nextEvent(timeout: .seconds(20)))
        #expect(missed.data.contains(assets[1]) && missed.id != live.id)
        try await resumed.close()
    }

    @Test func aServerKilledMidUploadLeavesTheLibraryWholeAndTheUploadResumable() async throws {
        let (server, _, directory) = try Self.library(photos: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = try server.photos("token", "create", "--owner", "--quiet")
        try server.start()
        let photo = try SampleImage.jpeg(width: 300, height: 200, from: (10, 200, 30), to: (250, 20, 90))
        let tus = [("Tus-Resumable", "1.0.0")]
        let created = try await ServerProcess.request(
            .POST, "\(server.url)/v1/uploads", token: token,
            headers: tus + [("Upload-Length", "\(photo.count)")])
        let location = try #require(created.headers.first { $0.0.lowercased() == "location" }?.1)
        let half = photo.count / 2
        let first = try await ServerProcess.request(
            .PATCH, server.url + location, token: token,
            headers: tus + [("Upload-Offset", "0"), ("Content-Type", "application/offset+octet-stream")],
            body: photo.prefix(half))
        #expect(first.status == 204)
        server.stop(signal: SIGKILL)

        try server.start()
        defer { server.stop() }
        let head = try await ServerProcess.request(.HEAD, server.url + location, token: token, headers: tus)
        #expect(head.headers.first { $0.0.lowercased() == "upload-offset" }?.1 == "\(half)")
        let rest = try await ServerProcess.request(
            .PATCH, server.url + location, token: token,
            headers: tus + [("Upload-Offset", "\(half)"), ("Content-Type", "application/offset+octet-stream")],
            body: photo.suffix(from: half))
        #expect(rest.status == 204)
        let block = try JSONSerialization.data(withJSONObject: ["requests": [["op": "createAsset", "upload": String(location.split(separator: "/").last!)]]])
        let committed = try await ServerProcess.request(
            .POST, "\(server.url)/v1/changes", token: token,
            headers: [("Content-Type", "application/json")], body: block)
        #expect(committed.status == 200, "\(String(decoding: committed.body, as: UTF8.self))")
        let made = (try JSONSerialization.jsonObject(with: committed.body) as? [String: Any])?["created"] as? [String: String]
        #expect(made?["#0"]?.hasSuffix("/L0/001") == true, "a request without a ref is reported by its position")
        try server.photos("check")  // throws unless the check finds the library whole
        let listing = try server.photos("ls", "--json")
        #expect(((try JSONSerialization.jsonObject(with: Data(listing.utf8))) as? [Any])?.count == 2)
    }
}
