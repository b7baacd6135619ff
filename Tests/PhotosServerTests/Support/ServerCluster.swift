import Foundation
import NIOCore
import NIOHTTP1
import PhotosObjectStorage
import PhotosTestSupport
import Testing

/// A new PostgreSQL library with its originals in a new bucket, its
/// owner's token, and three `photos serve` started on it, each with a cache
/// directory of its own, as on three machines.
struct ServerCluster {
    let servers: [ServerProcess]
    let token: String
    let directory: URL

    init() throws {
        let postgres = try #require(TestPostgresServer.current)
        let storage = try #require(TestObjectStorageServer.current)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
        self.directory = directory
        let library = postgres.newLibraryURL().absoluteString
        let credentials = [
            "PHOTOS_S3_ACCESS_KEY_ID": storage.credentials.accessKeyID,
            "PHOTOS_S3_SECRET_ACCESS_KEY": storage.credentials.secretAccessKey,
        ]
        servers = (0..<3).map { machine in
            ServerProcess(
                location: library,
                variables: credentials.merging(
                    ["PHOTOS_CACHE_DIR": directory.appendingPathComponent("machine-\(machine)").path]) { $1 })
        }
        try servers[0].photos("init", "--originals", try storage.newBucket().absoluteString)
        token = try servers[0].photos("token", "create", "--owner", "--quiet")
        for server in servers { try server.start() }
    }

    func stop() {
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A finished upload of `photo` through `server`: its id.
    func upload(_ photo: Data, through server: ServerProcess) async throws -> String {
        let tus = [("Tus-Resumable", "1.0.0")]
        let created = try await ServerProcess.request(
            .POST, "\(server.url)/v1/uploads", token: token,
            headers: tus + [("Upload-Length", "\(photo.count)")])
        let location = try #require(created.headers.first { $0.0.lowercased() == "location" }?.1)
        let sent = try await ServerProcess.request(
            .PATCH, server.url + location, token: token,
            headers: tus + [("Upload-Offset", "0"), ("Content-Type", "application/offset+octet-stream")],
            body: photo)
        try #require(sent.status == 204)
        return String(location.split(separator: "/").last!)
    }

    /// Commits one change block through `server`; what it created, by ref.
    @discardableResult
    func commit(_ requests: [[String: Any]], through server: ServerProcess) async throws -> [String: String] {
        let committed = try await send(requests, through: server)
        try #require(committed.status == 200, "\(String(decoding: committed.body, as: UTF8.self))")
        return (try JSONSerialization.jsonObject(with: committed.body) as? [String: Any])?["created"] as? [String: String] ?? [:]
    }

    /// Sends one change block through `server`; the answer, whatever it is.
    func send(
        _ requests: [[String: Any]], through server: ServerProcess, timeout: TimeAmount = .seconds(30)
    ) async throws -> (status: Int, body: Data) {
        let body = try JSONSerialization.data(withJSONObject: ["requests": requests])
        let answer = try await ServerProcess.request(
            .POST, "\(server.url)/v1/changes", token: token,
            headers: [("Content-Type", "application/json")], body: body, timeout: timeout)
        return (answer.status, answer.body)
    }

    /// The titles of the albums `server` shows.
    func albumTitles(through server: ServerProcess) async throws -> [String] {
        let page = try await ServerProcess.request(.GET, "\(server.url)/v1/albums?limit=500", token: token)
        try #require(page.status == 200)
        let items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }
    }

    /// The identifiers `token` may see through `server`.
    func assets(through server: ServerProcess, token: String) async throws -> Set<String> {
        let page = try await ServerProcess.request(.GET, "\(server.url)/v1/assets?limit=100", token: token)
        try #require(page.status == 200)
        let items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        return Set(items.compactMap { $0["localIdentifier"] as? String })
    }
}
