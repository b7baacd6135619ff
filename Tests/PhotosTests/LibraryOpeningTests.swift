import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import Photos

@Suite struct LibraryOpeningTests {
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("photos-open")
    }

    /// Creates a library and lets it close: its change queue drained (the
    /// trash sweep on opening) and its database connections released.
    private func closedAfterCreating(_ url: URL) throws {
        let library = try PHPhotoLibrary(url: url)
        try library.performChangesAndWait {}
    }

    private func code(_ body: () throws -> Void) -> PHPhotosError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? PHPhotosError)?.code
        }
    }

    @Test func createsTheLayoutAndReopens() throws {
        let url = directory.appendingPathComponent("My.photoslibrary")
        let library = try PHPhotoLibrary(url: url)
        for part in ["VERSION", "database/Photos.sqlite", "originals", "derivatives"] {
            #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent(part).path), "\(part)")
        }
        #expect(library.unavailabilityReason == nil)
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Kept")
        }
        let reopened = try PHPhotoLibrary(url: url, options: .mustExist)
        #expect(
            reopened.withCurrentLibrary {
                PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).firstObject?.localizedTitle
            } == "Kept")
    }

    @Test func refusesWhatIsNotALibraryWithoutTouchingIt() throws {
        let file = directory.appendingPathComponent("file.txt")
        try Data("hello".utf8).write(to: file)
        #expect(code { _ = try PHPhotoLibrary(url: file) } == .internalError)
        #expect(try String(contentsOf: file, encoding: .utf8) == "hello")

        let busy = directory.appendingPathComponent("Documents")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: busy.appendingPathComponent("notes.txt"))
        #expect(code { _ = try PHPhotoLibrary(url: busy) } == .internalError)
        #expect(try FileManager.default.contentsOfDirectory(atPath: busy.path) == ["notes.txt"])

        #expect(code { _ = try PHPhotoLibrary(url: directory.appendingPathComponent("missing"), options: .mustExist) } == .internalError)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
    }

    @Test func refusesANewerLibrary() throws {
        let url = directory.appendingPathComponent("Newer.photoslibrary")
        try closedAfterCreating(url)
        try Data("OpenPhotoKit library 99\n".utf8).write(to: url.appendingPathComponent("VERSION"))
        do {
            _ = try PHPhotoLibrary(url: url)
            Issue.record("a newer library opened")
        } catch {
            #expect(error.localizedDescription.contains("newer"))
        }
        #expect(try String(contentsOf: url.appendingPathComponent("VERSION"), encoding: .utf8) == "OpenPhotoKit library 99\n")
    }

    @Test func refusesALibraryWithUnknownMigrations() throws {
        let url = directory.appendingPathComponent("Migrated.photoslibrary")
        try closedAfterCreating(url)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.appendingPathComponent("database/Photos.sqlite").path, configuration: configuration)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        #expect(throws: PHPhotosError.self) { _ = try PHPhotoLibrary(url: url) }
    }

    @Test func refusesADamagedDatabase() throws {
        let url = directory.appendingPathComponent("Damaged.photoslibrary")
        try closedAfterCreating(url)
        let database = url.appendingPathComponent("database/Photos.sqlite")
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: database.path + suffix)
        }
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: database)
        do {
            _ = try PHPhotoLibrary(url: url)
            Issue.record("a damaged library opened")
        } catch {
            #expect(error.localizedDescription.contains("damaged"))
        }
        #expect(try Data(contentsOf: database) == garbage, "a damaged database is never overwritten")
    }

    @Test func refusesATruncatedOrShortDatabaseSayingWhy() throws {
        for (name, keptBytes, reason) in [("Truncated", 8192, "truncated: it holds 8192 of"), ("Short", 60, "shorter than an SQLite header")] {
            let url = directory.appendingPathComponent("\(name).photoslibrary")
            try closedAfterCreating(url)
            let database = url.appendingPathComponent("database/Photos.sqlite")
            for suffix in ["-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: database.path + suffix)
            }
            let whole = try Data(contentsOf: database)
            #expect(whole.count > 8192)
            let kept = whole.prefix(keptBytes)
            try kept.write(to: database)
            do {
                _ = try PHPhotoLibrary(url: url)
                Issue.record("a \(name.lowercased()) database opened")
            } catch {
                #expect(error.localizedDescription.contains(reason), "\(error.localizedDescription)")
            }
            #expect(try Data(contentsOf: database) == kept, "a damaged database is never overwritten")
        }
    }

    @Test func refusesSyncedFoldersUnlessAllowed() throws {
        let synced = directory.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: synced.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        let url = synced.appendingPathComponent("Photos.photoslibrary")
        do {
            _ = try PHPhotoLibrary(url: url)
            Issue.record("a library opened inside a Syncthing folder")
        } catch PHPhotosError.libraryInFileProviderSyncRoot {
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
        let allowed = try PHPhotoLibrary(url: url, options: .allowUnsafeLocation)
        #expect(allowed.unavailabilityReason == nil)

        let dropbox = directory.appendingPathComponent("Dropbox")
        try FileManager.default.createDirectory(at: dropbox, withIntermediateDirectories: true)
        try Data().write(to: dropbox.appendingPathComponent(".dropbox"))
        #expect(code { _ = try PHPhotoLibrary(url: dropbox.appendingPathComponent("deep/er/L.photoslibrary")) } == .libraryInFileProviderSyncRoot)

        // Nextcloud's journal has a name of its own in each synced folder; a
        // name that merely resembles it does not count.
        let nextcloud = directory.appendingPathComponent("Nextcloud")
        try FileManager.default.createDirectory(at: nextcloud, withIntermediateDirectories: true)
        try Data().write(to: nextcloud.appendingPathComponent(".sync_0123abcd.db.notes"))
        #expect(code { _ = try PHPhotoLibrary(url: nextcloud.appendingPathComponent("N.photoslibrary")) } == nil)
        try Data().write(to: nextcloud.appendingPathComponent(".sync_0123abcd.db"))
        #expect(code { _ = try PHPhotoLibrary(url: nextcloud.appendingPathComponent("M.photoslibrary")) } == .libraryInFileProviderSyncRoot)

        // Resilio Sync's marker is a file in a hidden folder; the folder alone does not count.
        let resilio = directory.appendingPathComponent("Resilio")
        try FileManager.default.createDirectory(at: resilio.appendingPathComponent(".sync"), withIntermediateDirectories: true)
        #expect(code { _ = try PHPhotoLibrary(url: resilio.appendingPathComponent("R.photoslibrary")) } == nil)
        try Data().write(to: resilio.appendingPathComponent(".sync/ID"))
        #expect(code { _ = try PHPhotoLibrary(url: resilio.appendingPathComponent("S.photoslibrary")) } == .libraryInFileProviderSyncRoot)
    }

    @Test func defaultLocationFollowsTheEnvironment() {
        #expect(PHPhotoLibrary.defaultURL(environment: ["PHOTOS_LIBRARY": "/srv/photos"]).path == "/srv/photos")
        #expect(
            PHPhotoLibrary.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path
                == "/data/photos/Photos Library.photoslibrary")
        #expect(
            PHPhotoLibrary.defaultURL(environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/share/photos/Photos Library.photoslibrary")
        #expect(
            PHPhotoLibrary.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path
                == "/home/a/.local/share/photos/Photos Library.photoslibrary")
    }
}

@Suite struct ChangeBlockTests {
    @Test func completionHandlerAndAsyncVariant() async throws {
        let test = try TestLibrary()
        let url = try test.jpeg()
        let outcome: (Bool, (any Error)?) = await withCheckedContinuation { continuation in
            test.library.performChanges(
                {
                    _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)
                }, completionHandler: { success, error in continuation.resume(returning: (success, error)) })
        }
        #expect(outcome.0 && outcome.1 == nil)
        try await test.library.performChanges {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Async")
        }
        await #expect(throws: PHPhotosError.self) {
            try await test.library.performChanges {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(fileURLWithPath: "/no/such.jpg"))
            }
        }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 1)
    }

    @Test func nestingIsRefusedAndAnEmptyBlockSucceeds() throws {
        let test = try TestLibrary()
        var nested: (any Error)?
        try test.library.performChangesAndWait {
            do {
                try test.library.performChangesAndWait {}
            } catch {
                nested = error
            }
        }
        #expect((nested as? PHPhotosError)?.code == .changeNotSupported)
        try test.library.performChangesAndWait {}
    }

    @Test func unknownIdentifiersFailTheBlock() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(1)
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }[0]
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        _ = try test.library.emptyRecentlyDeleted()
        do {
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
            Issue.record("editing a purged asset succeeded")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound)
            #expect(error.localIdentifiers == [asset.localIdentifier])
            #expect((error as NSError).domain == PHPhotosErrorDomain && (error as NSError).code == 3201)
        }
    }

    @Test func classMethodsActOnTheLibraryOfTheRunningBlock() throws {
        let first = try TestLibrary()
        let second = try TestLibrary()
        try second.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Second")
            #expect(
                PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0,
                "fetches inside a block see the block's library, before its changes")
        }
        #expect(first.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 0)
        #expect(second.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 1)
    }

    @Test func changeRequestsOutsideABlockTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Outside")
        }
        await #expect(processExitsWith: .failure) {
            _ = NSPredicate(format: "mediaType == ")
        }
    }

    @Test func unsupportedKeysTrapInFetches() async throws {
        // The child process traps, so its library is made in a folder this process removes.
        let scratch = try ScratchDirectory("photos-exit-test")
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [folder = scratch.url.path as String] in
            let test = try TestLibrary(in: URL(fileURLWithPath: folder))
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "filename == 'x'")
            _ = test.fetch { PHAsset.fetchAssets(with: options) }
        }
        // The trap, not a failure on the way to it.
        let trap = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(trap.contains("Unsupported predicate or sort descriptor"))
    }
}
