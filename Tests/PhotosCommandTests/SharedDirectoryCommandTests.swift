import Foundation
import PhotosTestSupport
import Testing

/// A PostgreSQL library whose originals are in a directory several
/// machines mount: each machine stages its change blocks in a folder of its
/// own and recovers only its own, since the lock that marks a staging area
/// live is seen only on the machine holding it.
@Suite(.enabled(if: TestPostgresServer.current != nil, "needs the PostgreSQL server script/services starts (script/test starts it)"))
struct SharedDirectoryCommandTests {
    @Test func recoveryOnOneMachineLeavesAnotherMachinesChangeBlockAlone() throws {
        let server = try #require(TestPostgresServer.current)
        let tool = try CommandLineTool()
        let shared = tool.directory.appendingPathComponent("shared", isDirectory: true)
        let library = server.newLibraryURL().absoluteString
        let machineA = ["PHOTOS_LIBRARY": library, "PHOTOS_CACHE_DIR": tool.directory.appendingPathComponent("cache-a").path]
        let created = try tool.run(["init", "--originals", "file://" + shared.path], environment: machineA)
        try #require(created.status == 0, "\(created.errors)")
        let identity = try String(contentsOf: tool.directory.appendingPathComponent("cache-a/machine-id"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let staging = shared.appendingPathComponent("staging")
        #expect(FileManager.default.fileExists(atPath: staging.appendingPathComponent(identity).path), "machine A's own staging folder")

        // A change block in flight on machine B: its file placed, journalled, not yet committed.
        // B's lock is on B; here nobody holds it.
        let inFlight = try Self.stagedBlock(
            in: staging.appendingPathComponent(UUID().uuidString), placing: "originals/B/B0000000-0000-4000-8000-000000000001.jpg", under: shared)
        // One that a process on machine A left when it died: recovered on A.
        let abandoned = try Self.stagedBlock(
            in: staging.appendingPathComponent(identity), placing: "originals/A/A0000000-0000-4000-8000-000000000002.jpg", under: shared)

        let opened = try tool.run(["info"], environment: machineA)
        #expect(opened.status == 0, "\(opened.errors)")
        #expect(FileManager.default.fileExists(atPath: inFlight.path), "machine B's file stays for its commit")
        #expect(!FileManager.default.fileExists(atPath: abandoned.path), "machine A's abandoned file is removed")
    }

    /// A staging area with a journal naming `path`, and the file placed at
    /// `path` under `root`, as a change block leaves them just before its
    /// database commit; returns the placed file.
    private static func stagedBlock(in machineFolder: URL, placing path: String, under root: URL) throws -> URL {
        let area = machineFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: area, withIntermediateDirectories: true)
        try Data().write(to: area.appendingPathComponent("lock"))
        try Data(path.utf8).write(to: area.appendingPathComponent("journal"))
        let placed = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: placed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: placed)
        return placed
    }
}
