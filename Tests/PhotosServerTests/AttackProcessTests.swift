import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Photos
import PhotosTestSupport
import Testing

/// `photos serve` as a process, attacked as issue 42 found it could be: a
/// request that killed it, requests that froze it for everyone, share links
/// that held its descriptors. Each is the process's own behaviour: it stays
/// up, answers others, and holds what it holds within bounds.
@Suite(.serialized, .tags(.slow)) struct AttackProcessTests {
    /// A library of `photos` photos made by the `photos` command, an album
    /// "Shared" holding the first, and the server over it (not started).
    private static func library(photos: Int) throws -> (server: ServerProcess, assets: [String], directory: URL) {
        let made = try ServerProcess.newLibrary(photos: photos, named: "Attacked")
        try made.server.photos("album", "create", "Shared")
        try made.server.photos("album", "add", "Shared", made.assets[0])
        return made
    }

    private static func get(_ url: String, token: String, headers: [(String, String)] = []) async throws -> (status: Int, body: Data) {
        let response = try await ServerProcess.request(.GET, url, token: token, headers: headers)
        return (response.status, response.body)
    }

    /// Ranges of any size, from a share link's token: answered by RFC 9110,
    /// and the process lives on.
    @Test func noRangeKillsTheServer() async throws {
        let (server, assets, directory) = try Self.library(photos: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = try server.photos("token", "share", "Shared", "--quiet")
        try server.start()
        defer { server.stop() }
        let original = "\(server.url)/v1/assets/\(urlID(assets[0]))/original"
        let whole = try await Self.get(original, token: link)
        #expect(whole.status == 200)
        let size = whole.body.count
        let cases: [(String, Int)] = [
            ("bytes=0-9223372036854775807", 206), ("bytes=0-99999999999999999999", 206), ("bytes=-9223372036854775808", 206),
            ("bytes=9223372036854775807-", 416), ("bytes=9223372036854775806-9223372036854775807", 416), ("items=0-5", 200),
            ("bytes=5-2", 200), ("bytes=\(size - 1)-\(Int.max)", 206), ("bytes=-0", 416), ("bytes=0-0,-1", 206),
        ]
        for (range, status) in cases {
            let answer = try await Self.get(original, token: link, headers: [("Range", range)])
            #expect(answer.status == status, "\(range)")
        }
        #expect(server.process?.isRunning == true)
        #expect(try await Self.get("\(server.url)/v1/library", token: link).status == 200)
    }

    /// A client sending expensive queries, many at once, holds two threads
    /// for a deadline at most: the owner's requests go on being answered,
    /// and the expensive ones are stopped (503), never the server.
    @Test func expensiveQueriesFreezeNobody() async throws {
        let (server, _, directory) = try Self.library(photos: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        try DatabaseSurgery.addCopiesOfTheFirstAsset(30_000, in: server.library)
        let owner = try server.photos("token", "create", "--owner", "--quiet")
        let attacker = try server.photos("token", "create", "--client", "org.example.attacker", "--full", "--quiet")
        let serving = ServerProcess(location: server.location, arguments: ["--query-deadline", "0.5"])
        try serving.start()
        defer { serving.stop() }
        // About 4 KB of predicate, each of its hundred terms folding every row's identifier.
        let terms = (0..<100).map { "localIdentifier CONTAINS[cd] \"zq\($0)x\"" }.joined(separator: " OR ")
        let expensive = "\(serving.url)/v1/assets?limit=1&predicate=" + terms.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let attack = Task {
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        var statuses: [Int] = []
                        for _ in 0..<3 { statuses.append(try await Self.get(expensive, token: attacker).status) }
                        return statuses
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        var slowest = Duration.zero
        for _ in 0..<10 {
            let started = ContinuousClock.now
            #expect(try await Self.get("\(serving.url)/v1/library", token: owner).status == 200)
            slowest = max(slowest, ContinuousClock.now - started)
            try await Task.sleep(for: .milliseconds(100))
        }
        let statuses = try await attack.value
        #expect(slowest < .seconds(5), "the owner waited \(slowest) behind another client's queries")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(Set(statuses))")
        #expect(statuses.contains(503), "the expensive queries were stopped at their deadline")
        #expect(serving.process?.isRunning == true)
    }

    /// Hundreds of share links, each reading once, leave the server holding
    /// a bounded number of library instances, and so of descriptors.
    @Test func shareLinksDoNotExhaustDescriptors() async throws {
        let (server, _, directory) = try Self.library(photos: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        let owner = try server.photos("token", "create", "--owner", "--quiet")
        try server.start()
        defer { server.stop() }
        let album = try #require(
            try JSONSerialization.jsonObject(with: try await Self.get("\(server.url)/v1/albums", token: owner).body)
                as? [String: Any]
        ).flatMap { ($0["items"] as? [[String: Any]])?.first?["id"] as? String }
        let pid = try #require(server.process?.processIdentifier)
        func descriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count }
        var counts: [Int: Int] = [:]
        for index in 1...300 {
            let made = try await ServerProcess.request(
                .POST, "\(server.url)/v1/shares", token: owner, headers: [("Content-Type", "application/json")],
                body: try JSONSerialization.data(withJSONObject: ["album": album]))
            let link = try #require((try JSONSerialization.jsonObject(with: made.body) as? [String: Any])?["token"] as? String)
            #expect(try await Self.get("\(server.url)/v1/albums", token: link).status == 200)
            if [100, 300].contains(index) { counts[index] = try descriptors() }
        }
        let (at100, at300) = (try #require(counts[100]), try #require(counts[300]))
        #expect(at300 - at100 < 40, "descriptors grew from \(at100) to \(at300) over 200 more share links")
        #expect(try await Self.get("\(server.url)/v1/library", token: owner).status == 200)
    }
}
