import Foundation
import Photos
import PhotosMedia
import PhotosTestSupport
import Testing

/// Backing up one library to another machine's server, as people run it:
/// `photos serve` for the backup's library, `photos upload-jobs run`
/// performing the source library's jobs, and `photos backup` (written on
/// Apple's documented API only) following the source's history: every
/// photo arrives once, a second run sends only what was added, and
/// sending a file again stores nothing twice.
@Suite(.tags(.slow)) struct BackupProcessTests {
    @Test func aLibraryIsBackedUpIncrementallyToAnotherServer() async throws {
        let (source, _, sourceFolder) = try ServerProcess.newLibrary(photos: 3, named: "Source")
        let (destination, _, destinationFolder) = try ServerProcess.newLibrary(photos: 0, named: "Backup")
        defer {
            destination.stop()
            try? FileManager.default.removeItem(at: sourceFolder)
            try? FileManager.default.removeItem(at: destinationFolder)
        }
        try destination.start()
        let token = try destination.photos("token", "create", "--client", "org.example.backup", "--add-only", "--quiet")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let state = sourceFolder.appendingPathComponent("backup.state").path

        let performer = Process()
        performer.executableURL = ServerProcess.executable
        performer.arguments = ["upload-jobs", "run", "--library", source.library.path, "--interval", "0.05", "--quiet"]
        performer.environment = ProcessInfo.processInfo.environment.filter { $0.key != "PHOTOS_CLIENT_ID" }
        try performer.run()
        defer {
            kill(performer.processIdentifier, SIGKILL)
            performer.waitUntilExit()
        }

        let first = try source.photos("backup", "--to", destination.url, "--token", token, "--state", state, "--json")
        let report = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Int]
        #expect(report == ["queued": 3, "succeeded": 3, "failed": 0])
        func backedUp() throws -> Int {
            ((try JSONSerialization.jsonObject(with: Data(try destination.photos("ls", "--json").utf8))) as? [Any])?.count ?? -1
        }
        #expect(try backedUp() == 3)

        // Incremental: only what was added since.
        let card = sourceFolder.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        try SampleImage.jpeg(width: 80, height: 60, from: (200, 10, 10), to: (10, 10, 200)).write(to: card.appendingPathComponent("IMG_NEW.jpg"))
        try source.photos("import", card.path)
        let second = try source.photos("backup", "--to", destination.url, "--token", token, "--state", state, "--json")
        #expect((try JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Int]) == ["queued": 1, "succeeded": 1, "failed": 0])
        #expect(try backedUp() == 4)

        // Sent again from scratch (the state lost): every file is answered as held already.
        try FileManager.default.removeItem(atPath: state)
        let again = try source.photos("backup", "--to", destination.url, "--token", token, "--state", state, "--json")
        #expect((try JSONSerialization.jsonObject(with: Data(again.utf8)) as? [String: Int])?["succeeded"] == 4)
        #expect(try backedUp() == 4, "nothing stored twice")

        #expect(try destination.photos("ls", "--json").contains("IMG_NEW.jpg"), "kept under its name")
    }

    @Test func theBackupEndpointChecksWhatItIsSent() async throws {
        let (destination, _, folder) = try ServerProcess.newLibrary(photos: 0, named: "Backup")
        defer {
            destination.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        try destination.start()
        let token = try destination.photos("token", "create", "--client", "org.example.backup", "--add-only", "--quiet")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let reader = try destination.photos("token", "create", "--client", "org.example.reader", "--full", "--read-only", "--quiet")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let url = destination.url + "/v1/backup/resources"
        let photo = try SampleImage.jpeg(width: 64, height: 48, from: (10, 20, 30), to: (200, 100, 50))
        let headers = [
            ("X-Photos-Filename", "..%2F..%2Fetc%2Fpasswd.jpg"), ("X-Photos-Source-Asset", "ABC/L0/001"), ("Content-Type", "application/octet-stream"),
        ]
        let stored = try await ServerProcess.request(.POST, url, token: token, headers: headers, body: photo)
        #expect(stored.status == 201, "\(String(decoding: stored.body, as: UTF8.self))")
        let asset = stored.headers.first { $0.0.lowercased() == "x-photos-asset" }?.1
        #expect(asset?.hasSuffix("/L0/001") == true)
        #expect(stored.headers.contains { $0.0.lowercased() == "x-photos-source-asset" && $0.1 == "ABC/L0/001" })
        // An add-only caller learns nothing of what the library holds: the same answer again.
        let again = try await ServerProcess.request(.POST, url, token: token, headers: headers, body: photo)
        #expect(again.status == 201 && again.headers.first { $0.0.lowercased() == "x-photos-asset" }?.1 == asset)
        // A caller that may read is told it was there.
        let full = try destination.photos("token", "create", "--client", "org.example.full", "--full", "--quiet")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let known = try await ServerProcess.request(.POST, url, token: full, headers: headers, body: photo)
        #expect(known.status == 200, "\(known.status) \(String(decoding: known.body, as: UTF8.self))")
        #expect(known.headers.contains { $0.0.lowercased() == "x-photos-duplicate" && $0.1 == "true" })
        #expect(known.headers.first { $0.0.lowercased() == "x-photos-asset" }?.1 == asset)
        let listed = try destination.photos("ls", "--json")
        #expect(listed.contains("passwd.jpg") && !listed.contains("../"), "a name is data, never a path")

        #expect(try await ServerProcess.request(.POST, url, token: token, headers: headers, body: Data("not a photo".utf8)).status == 422)
        #expect(try await ServerProcess.request(.POST, url, token: reader, headers: headers, body: photo).status == 403)
        #expect(try await ServerProcess.request(.POST, url, token: "nope", headers: headers, body: photo).status == 401)
        let longSource = [("X-Photos-Source-Asset", String(repeating: "a", count: 300))]
        #expect(try await ServerProcess.request(.POST, url, token: token, headers: longSource, body: photo).status == 400)
    }
}
