import Foundation
import NIOHTTP1
import PhotosTestSupport
import Testing

/// PostgreSQL restarted while three servers take change blocks: every block
/// a server acknowledged is kept, none is torn or heard twice, the servers
/// take changes again once the database is back, and their streams carry
/// on. Restarting the database ends every session of every test beside
/// it, so this runs alone: `script/test` sets `PHOTOS_TEST_POSTGRES_RESTARTS=1`
/// for a run of its own.
@Suite(
    .serialized, .tags(.slow),
    .enabled(
        if: TestPostgresServer.current != nil && TestObjectStorageServer.current != nil
            && ProcessInfo.processInfo.environment["PHOTOS_TEST_POSTGRES_RESTARTS"] == "1",
        "restarts the PostgreSQL server script/services started: script/test runs it alone"))
struct PostgresRestartTests {
    /// `script/services restart-postgres` on the services' directory.
    private static func restartPostgres(_ server: TestPostgresServer) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("script/services")
        // The socket is in DIR/pg. Spawned and reaped directly: Foundation's
        // Process misses this child's exit when the server it starts lives on.
        let arguments = [script.path, "restart-postgres", (server.socketDirectory as NSString).deletingLastPathComponent]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, script.path, nil, nil, &argv, environ) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        try #require(status == 0, "script/services restart-postgres failed (\(status))")
    }

    @Test func aRestartUnderLoadLosesNoAcknowledgedBlockAndStreamsCarryOn() async throws {
        let postgres = try #require(TestPostgresServer.current)
        let cluster = try ServerCluster()
        defer { cluster.stop() }
        let changes = "\(cluster.servers[2].url)/v1/changes"
        var watcher = try await EventStream.open(changes, token: cluster.token)
        // One block first, so that the stream has an id to resume from.
        try await cluster.commit([["op": "createAlbum", "title": "before"]], through: cluster.servers[0])
        var heard = try await SharedLibraryProcessTests.ids(1, of: watcher)
        try #require(heard.count == 1)

        // Two writers, through two servers, an album per block, while the database restarts.
        let writes = 40
        let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<2 {
                group.addTask {
                    var titles: [String] = []
                    for index in 0..<writes {
                        let title = "w\(writer)-\(index)"
                        // A block the restart met fails with 503 (or its connection drops); that is all it may do.
                        // One caught waiting for a connection to the restarting database may wait out the
                        // server's 30 s timeout: the writer gives up on it after 5 s (unacknowledged, it
                        // may still be kept, which the checks below allow).
                        let status = try? await cluster.send(
                            [["op": "createAlbum", "title": title]], through: cluster.servers[writer], timeout: .seconds(5)
                        ).status
                        if status == 200 {
                            titles.append(title)
                        }
                        try await Task.sleep(for: .milliseconds(25))
                    }
                    return titles
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            try Self.restartPostgres(postgres)
            return try await group.reduce(into: []) { $0 += $1 }
        }

        // Back: every server takes a block again.
        for (index, server) in cluster.servers.enumerated() {
            try await cluster.commit([["op": "createAlbum", "title": "after-\(index)"]], through: server)
        }
        let stored = try await cluster.albumTitles(through: cluster.servers[2])
        #expect(Set(stored).count == stored.count, "no block applied twice")
        #expect(Set(acknowledged).isSubset(of: stored), "every acknowledged block kept: \(Set(acknowledged).subtracting(stored).sorted())")
        // The stream across the restart: each stored block heard once. The
        // server may end it, cleanly or not, while the database is away; the
        // client resumes by its last id, as a browser's EventSource does.
        let deadline = ContinuousClock.now + .seconds(60)
        while heard.count < stored.count, ContinuousClock.now < deadline {
            if let event = try? await watcher.nextEvent(timeout: .seconds(20)) {
                if let id = event.id { heard.append(id) }
                continue
            }
            if let reopened = try? await EventStream.open(changes, token: cluster.token, lastEventID: heard.last) {
                watcher = reopened
            } else {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(heard.count == stored.count && Set(heard).count == heard.count, "\(heard.count) events for \(stored.count) blocks")
        try? await watcher.close()
        let checked = try cluster.servers[0].photos("check", "--json")
        #expect((try JSONSerialization.jsonObject(with: Data(checked.utf8)) as? [String: Any])?["whole"] as? Bool == true, "\(checked)")
    }
}
