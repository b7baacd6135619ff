import Foundation
import NIOHTTP1
import PhotosMedia
import PhotosTestSupport
import Testing

/// Three `photos serve` processes on one PostgreSQL library whose
/// originals are in one bucket, as three machines behind a load balancer
/// run them (each with its own cache directory): what one does, the
/// others' change streams and fetches show, in order and once, whatever
/// happens to one of them.
@Suite(
    .serialized, .tags(.slow),
    .enabled(
        if: TestPostgresServer.current != nil && TestObjectStorageServer.current != nil,
        "needs the PostgreSQL and S3 servers script/services starts (script/test starts them)"))
struct SharedLibraryProcessTests {
    private static func photo(_ index: Int) throws -> Data {
        try SampleImage.jpeg(width: 96, height: 64, from: (Double(index * 40 % 255), 30, 200), to: (20, Double(index * 70 % 255), 90))
    }

    /// The ids of the next `count` events of `stream`.
    static func ids(_ count: Int, of stream: EventStream) async throws -> [String] {
        var ids: [String] = []
        while ids.count < count, let event = try await stream.nextEvent(timeout: .seconds(30)) {
            if let id = event.id { ids.append(id) }
        }
        return ids
    }

    @Test func whatOneServerCommitsEveryServerStreamsInOrderOnceAndAGrantHoldsOnEach() async throws {
        let cluster = try ServerCluster()
        defer { cluster.stop() }
        var streams: [EventStream] = []
        for server in cluster.servers { streams.append(try await EventStream.open("\(server.url)/v1/changes", token: cluster.token)) }

        // An upload and an album through each server in turn: six blocks.
        var created: [String] = []
        for (index, server) in cluster.servers.enumerated() {
            let upload = try await cluster.upload(try Self.photo(index), through: server)
            created.append(try #require(try await cluster.commit([["op": "createAsset", "upload": upload, "ref": "photo"]], through: server)["photo"]))
            try await cluster.commit([["op": "createAlbum", "title": "Trip \(index)"]], through: server)
        }
        var heard: [[String]] = []
        for stream in streams { heard.append(try await Self.ids(6, of: stream)) }
        #expect(heard[0].count == 6 && Set(heard[0]).count == 6, "every block once: \(heard[0])")
        #expect(heard[1] == heard[0] && heard[2] == heard[0], "the same blocks in the same order on every server")
        for server in cluster.servers {
            #expect(try await cluster.assets(through: server, token: cluster.token) == Set(created))
        }

        // A stream resumes by its last id on another server, missing nothing.
        try await streams[2].close()
        try await cluster.commit([["op": "updateAsset", "asset": String(created[1].prefix { $0 != "/" }), "favorite": true]], through: cluster.servers[0])
        let resumed = try await EventStream.open("\(cluster.servers[1].url)/v1/changes", token: cluster.token, lastEventID: heard[2].last)
        let missed = try #require(try await resumed.nextEvent(timeout: .seconds(30)))
        #expect(missed.data.contains(created[1]))
        try await resumed.close()

        // A limited token sees its selection only, through every server.
        try cluster.servers[0].photos("access", "grant", "com.example.viewer", "--limited", created[0])
        let limited = try cluster.servers[0].photos("token", "create", "--client", "com.example.viewer", "--quiet")
        for server in cluster.servers {
            #expect(try await cluster.assets(through: server, token: limited) == [created[0]])
        }
        for stream in streams.prefix(2) { try await stream.close() }
    }

    @Test func aServerKilledMidUploadOrMidBlockLeavesTheSharedLibraryWhole() async throws {
        let cluster = try ServerCluster()
        defer { cluster.stop() }
        let (a, b, c) = (cluster.servers[0], cluster.servers[1], cluster.servers[2])
        let watcher = try await EventStream.open("\(c.url)/v1/changes", token: cluster.token)

        // Killed mid-upload: after a restart on the same machine, the upload resumes and commits.
        let photo = try Self.photo(1)
        let tus = [("Tus-Resumable", "1.0.0")]
        let started = try await ServerProcess.request(
            .POST, "\(a.url)/v1/uploads", token: cluster.token,
            headers: tus + [("Upload-Length", "\(photo.count)")])
        let location = try #require(started.headers.first { $0.0.lowercased() == "location" }?.1)
        let half = photo.count / 2
        _ = try await ServerProcess.request(
            .PATCH, a.url + location, token: cluster.token,
            headers: tus + [("Upload-Offset", "0"), ("Content-Type", "application/offset+octet-stream")],
            body: photo.prefix(half))
        a.stop(signal: SIGKILL)
        try a.start()
        let rest = try await ServerProcess.request(
            .PATCH, a.url + location, token: cluster.token,
            headers: tus + [("Upload-Offset", "\(half)"), ("Content-Type", "application/offset+octet-stream")],
            body: photo.suffix(from: half))
        #expect(rest.status == 204)
        try await cluster.commit([["op": "createAsset", "upload": String(location.split(separator: "/").last!)]], through: a)
        let first = try await Self.ids(1, of: watcher)
        #expect(first.count == 1, "the other servers hear the block")

        // Killed mid-block, at four moments of it (from staging the files to after the commit):
        // three new photos commit whole or not at all, and the other servers hear the block iff it committed.
        var count = 1
        for (round, delay) in [20, 60, 90, 400].enumerated() {
            var uploads: [String] = []
            for index in 0..<3 { uploads.append(try await cluster.upload(try Self.photo(10 + round * 3 + index), through: b)) }
            let block = Task { try? await cluster.commit(uploads.map { ["op": "createAsset", "upload": $0] }, through: b) }
            try await Task.sleep(for: .milliseconds(delay))
            b.stop(signal: SIGKILL)
            _ = await block.value
            try b.start()
            let now = try await cluster.assets(through: c, token: cluster.token).count
            #expect(now == count || now == count + 3, "the block is whole or absent: \(now) assets after \(count)")
            if now > count {
                #expect(try await Self.ids(1, of: watcher).count == 1, "a block that committed is heard")
            }
            count = now
            // Whole: every row has its file in the bucket, and no file is left that no row names.
            let checked = try a.photos("check", "--json")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.utf8)) as? [String: Any])
            #expect(report["whole"] as? Bool == true, "\(checked)")
        }
        // The library still takes changes through the restarted server.
        let after = try await cluster.upload(try Self.photo(5), through: b)
        try await cluster.commit([["op": "createAsset", "upload": after]], through: b)
        #expect(try await cluster.assets(through: a, token: cluster.token).count == count + 1)
        try await watcher.close()
    }
}
