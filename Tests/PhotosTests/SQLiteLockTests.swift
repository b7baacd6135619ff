import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// SQLite coordinates processes with POSIX advisory locks on the database
/// and its `-shm` file, and the kernel drops every such lock a process
/// holds on a file when the process closes any descriptor of that file.
/// So nothing in the engine may open and close those files beside SQLite:
/// once this process's locks are gone, another process believes it is
/// alone, resets the shared index under this one's mapping (a SIGBUS) or
/// checkpoints and deletes the write-ahead log it is writing to. These
/// tests read the kernel's table of locks (`/proc/locks`) to check that
/// this process still holds its locks after the engine has done what used
/// to open those files.
@Suite(.enabled(if: TestBackend.selected.isSQLite, "inspects SQLite's own files"))
struct SQLiteLockTests {
    /// The byte of `-shm` every connection holds a shared lock on while it
    /// has the index mapped (SQLite's "dead man switch", after the 8 locks
    /// that start at byte 120).
    static let deadManSwitch = 128
    /// The first byte of the range a connection in WAL mode holds a shared
    /// lock on in the database file for as long as it is open.
    static let sharedLockFirst = 0x4000_0002

    @Test func anObserverKeepsThisProcesssLocksWhenAnotherProcessCommits() throws {
        let test = try TestLibrary()
        _ = try test.importDays(1)
        let observer = RecordingObserver()
        test.library.register(observer)
        defer { test.library.unregisterChangeObserver(observer) }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 1)
        let database = test.libraryDirectory.appendingPathComponent("database/Photos.sqlite")
        #expect(try Self.locksHere(on: database.path + "-shm").contains(Self.deadManSwitch), "no lock to begin with")

        for round in 0..<3 {
            let (writer, output) = try MultiProcessTests.start(["albums", test.library.locationDescription, "1", "elsewhere-\(round)"])
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0, "\(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            #expect(observer.wait(seconds: 10), "the observer heard of the other process's commit")
            #expect(
                try Self.locksHere(on: database.path + "-shm").contains(Self.deadManSwitch),
                "this process still holds its lock on the log's index after noticing commit \(round)")
            #expect(
                try Self.locksHere(on: database.path).contains(Self.sharedLockFirst),
                "this process still holds its shared lock on the database after noticing commit \(round)")
        }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 3)
    }

    @Test func openingTheLibraryAgainKeepsTheFirstOpeningsLocks() throws {
        let test = try TestLibrary()
        _ = try test.importDays(1)
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 1)
        let database = test.libraryDirectory.appendingPathComponent("database/Photos.sqlite")
        #expect(try Self.locksHere(on: database.path).contains(Self.sharedLockFirst), "no lock to begin with")
        let again = try PHPhotoLibrary(url: test.library.url)
        #expect(again.withCurrentLibrary { PHAsset.fetchAssets(with: nil) }.count == 1)
        #expect(
            try Self.locksHere(on: database.path).contains(Self.sharedLockFirst),
            "the first opening still holds its shared lock on the database")
        #expect(
            try Self.locksHere(on: database.path + "-shm").contains(Self.deadManSwitch),
            "the first opening still holds its lock on the log's index")
    }

    /// The first bytes of the ranges this process holds POSIX locks on in the file at `path`.
    static func locksHere(on path: String) throws -> Set<Int> {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        // Read to its end: Foundation returns only the first 4 KiB of a /proc file, and with the
        // whole suite's libraries open the table is longer than that.
        guard let contents = KernelFiles.contents(atPath: "/proc/locks") else { throw CocoaError(.fileReadUnknown) }
        let table = String(decoding: contents, as: UTF8.self)
        let pid = String(getpid())
        var starts = Set<Int>()
        // "1: POSIX  ADVISORY  READ 4242 fe:01:1234567 128 128"; a waiting lock's line has "->" after its number.
        for line in table.split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[1] == "POSIX", fields[4] == pid else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[2]) == UInt64(status.st_ino), let start = Int(fields[6]) else { continue }
            starts.insert(start)
        }
        return starts
    }
}
