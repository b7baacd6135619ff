import Foundation
import PhotosSQLite
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// A change block that returned lasts, and a damaged library is refused,
/// never replaced or written into.
@Suite(.tags(.slow), .enabled(if: TestBackend.selected.isSQLite, "damages or inspects SQLite's own files")) struct DurabilityTests {
    @Test func theWriterSyncsEveryCommit() throws {
        let test = try TestLibrary()
        let store = try #require(test.library.store as? SQLitePhotoStore)
        // Read from the writer connection itself: GRDB turns WAL on after
        // connections are prepared, and sets its own level as it does.
        #expect(try store.writerSynchronousLevel() == 2, "PRAGMA synchronous = FULL on the writer")
        try test.importDays(1)
        #expect(try store.writerSynchronousLevel() == 2)
    }

    /// A large change block's pages stay in the writer's cache until it
    /// commits, instead of spilling into the log midway (SQLite's default
    /// cache is 2 MiB).
    @Test func theWriterCachesALargeChangeBlock() throws {
        let test = try TestLibrary()
        let store = try #require(test.library.store as? SQLitePhotoStore)
        #expect(try store.writerPageCacheKiB() == 65_536)
        try test.importDays(1)
        #expect(try store.writerPageCacheKiB() == 65_536)
    }

    @Test func aWriteAheadLogDeletedUnderTheWriterFailsTheNextBlocks() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let observer = UnavailabilityRecorder()
        test.library.register(observer)
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil) }[0]
        try FileManager.default.removeItem(atPath: DatabaseSurgery.databaseFile(of: test.library.url).path + "-wal")
        let error = expectPhotosError(.internalError) {
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        #expect(error?.localizedDescription.contains("write-ahead log") == true, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains(test.library.url.path) == true, "the message names the library")
        #expect(test.library.unavailabilityReason != nil)
        #expect(observer.wait(), "availability observers hear of it")
        // Whether SQLite can still open what is left depends on whether the
        // lost log's pages were checkpointed: either way, another opening is
        // told why, and writes nothing.
        let database = DatabaseSurgery.databaseFile(of: test.library.url)
        let before = try Data(contentsOf: database)
        do {
            let reopened = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
            let reason = reopened.unavailabilityReason?.localizedDescription ?? ""
            #expect(reason.contains("write-ahead log"), "\(reason)")
            expectPhotosError(.internalError) {
                try reopened.performChangesAndWait { _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A") }
            }
        } catch {
            #expect(error.localizedDescription.contains("write-ahead log"), "\(error)")
        }
        #expect(try Data(contentsOf: database) == before, "no upgrade or recovery wrote into it")
    }

    @Test func aMissingOrEmptiedDatabaseIsRefusedAndLeftAsItIs() throws {
        for emptied in [false, true] {
            let test = try TestLibrary()
            try test.importDays(2)
            let url = test.library.url
            let database = DatabaseSurgery.databaseFile(of: url)
            try DatabaseSurgery.checkpoint(url)
            if emptied {
                try Data().write(to: database)
            } else {
                try FileManager.default.removeItem(at: database)
            }
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            let before = test.files(under: "")
            let error = expectPhotosError(.internalError, "emptied: \(emptied)") { try PHPhotoLibrary(url: url, clientIdentifier: nil) }
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("damaged") && message.contains(emptied ? "is empty" : "is missing") && message.contains(url.path), "\(message)")
            #expect(test.files(under: "") == before, "nothing created or removed")
            #expect(test.originalFiles.count == 2)
        }
    }

    @Test func damageMetByAReadStopsEveryWriterUntilACheckFindsItWhole() throws {
        let test = try TestLibrary()
        try test.insert((0..<3_000).map { TestLibrary.record(created: Date(timeIntervalSince1970: Double($0) * 60)) })
        let leaves = try DatabaseSurgery.pages(of: "asset", in: test.library.url).filter { $0.type == "leaf" }
        try #require(leaves.count > 10)
        try DatabaseSurgery.overwrite(page: leaves[leaves.count / 2].number, with: [UInt8](repeating: 0, count: 4096), in: test.library.url)

        let library = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
        #expect(library.unavailabilityReason == nil, "the opening check reads the ends of each table only")
        let all = library.withCurrentLibrary { PHAsset.fetchAssets(with: nil) }
        _ = all.allObjects
        let reason = try #require(library.unavailabilityReason as? PHPhotosError)
        #expect(reason.localizedDescription.contains("damaged") && reason.localizedDescription.contains(library.url.path))
        let first = all[0]
        expectPhotosError(.internalError, "no change block commits into a damaged database") {
            try library.performChangesAndWait { PHAssetChangeRequest(for: first).isFavorite = true }
        }
        // Another process, which has not met the damage itself, is refused too.
        let other = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
        #expect(other.unavailabilityReason != nil)
        expectPhotosError(.internalError) {
            try other.performChangesAndWait { _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "x") }
        }
        let report = try other.checkIntegrity()
        #expect(!report.isWhole && report.problems.contains { $0.kind == .damagedDatabase })
    }

    @Test func aWholeCheckLiftsAFalseAlarm() throws {
        let test = try TestLibrary()
        try test.importDays(1)
        let marker = test.library.url.appendingPathComponent("database/DAMAGED")
        let unavailability = UnavailabilityRecorder()
        let changes = RecordingObserver()
        test.library.register(unavailability)
        test.library.register(changes)
        try Data("a disk error that went away\n".utf8).write(to: marker)
        #expect((test.library.unavailabilityReason as? PHPhotosError)?.localizedDescription.contains("went away") == true)
        #expect(unavailability.wait(), "the watcher notices the marker")
        let report = try test.library.checkIntegrity(verifyingContent: true)
        #expect(report.isWhole && report.assetCount == 1 && report.fileCount == 1, "\(report.problems)")
        #expect(test.library.unavailabilityReason == nil && !FileManager.default.fileExists(atPath: marker.path))
        // Observers hear other processes' commits again.
        let other = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
        try other.performChangesAndWait { _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Again") }
        #expect(changes.wait(seconds: 10), "watching resumed after the check")
        try test.importDays(1)
    }

    @Test func recoveryDeletesNothingWhenTheTablesThatNameFilesAreDamaged() throws {
        let test = try TestLibrary()
        try test.importDays(1)
        let url = test.library.url
        let original = try #require(test.originalFiles.first)
        // A process died after its commit, leaving the block's journal behind.
        let abandoned = url.appendingPathComponent("staging/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: true)
        try Data().write(to: abandoned.appendingPathComponent("lock"))
        try Data("originals/\(original)".utf8).write(to: abandoned.appendingPathComponent("journal"))
        // The index that finds a file's row loses its rows: its cell count is zeroed.
        let index = try #require(try DatabaseSurgery.pages(of: "sqlite_autoindex_resource_1", in: url).first)
        try DatabaseSurgery.overwrite(page: index.number, at: 3, with: [0, 0], in: url)
        let error = expectPhotosError(.internalError) { try PHPhotoLibrary(url: url, clientIdentifier: nil) }
        #expect(error?.localizedDescription.contains("damaged") == true, "\(String(describing: error))")
        #expect(test.originalFiles == [original], "the stored original is kept")
    }
}

/// Records that a library became unavailable.
final class UnavailabilityRecorder: NSObject, PHPhotoLibraryAvailabilityObserver, @unchecked Sendable {
    private let signal = DispatchSemaphore(value: 0)

    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary) {
        signal.signal()
    }

    /// Waits for the call; false after `seconds` without one.
    func wait(seconds: Double = 5) -> Bool {
        signal.wait(timeout: .now() + seconds) == .success
    }
}
