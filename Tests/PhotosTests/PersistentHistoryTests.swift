import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// The asset changes of each persistent change, as (inserted, updated, deleted).
private struct AssetChange: Equatable, CustomStringConvertible {
    var inserted: Set<String> = []
    var updated: Set<String> = []
    var deleted: Set<String> = []

    init(inserted: Set<String> = [], updated: Set<String> = [], deleted: Set<String> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    init(_ change: PHPersistentChange) throws {
        let details = try change.changeDetails(for: .asset)
        #expect(details.objectType == .asset)
        self.init(
            inserted: details.insertedLocalIdentifiers, updated: details.updatedLocalIdentifiers,
            deleted: details.deletedLocalIdentifiers)
    }

    var description: String { "+\(inserted.sorted()) ~\(updated.sorted()) -\(deleted.sorted())" }
}

private func assetChanges(_ library: PHPhotoLibrary, since token: PHPersistentChangeToken) throws -> [AssetChange] {
    try library.fetchPersistentChanges(since: token).map(AssetChange.init)
}

private func asset(_ test: TestLibrary, _ identifier: String) -> PHAsset {
    test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
}

@Suite struct PersistentHistoryTests {
    @Test func eachChangeBlockIsOneChangeAsItHappened() throws {
        let test = try TestLibrary()
        let existing = try test.importDays(3)
        let token = test.library.currentChangeToken

        let inserted = try test.importDays(1)
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: asset(test, inserted[0])).isFavorite = true
            PHAssetChangeRequest(for: asset(test, existing[0])).isHidden = true
        }
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([asset(test, existing[1])] as NSArray)
        }
        var album = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Hike")
            album = request.placeholderForCreatedAssetCollection.localIdentifier
        }

        let changes = try test.library.fetchPersistentChanges(since: token).map { $0 }
        #expect(changes.count == 4)
        #expect(
            try changes.map(AssetChange.init) == [
                AssetChange(inserted: [inserted[0]]),
                AssetChange(updated: [inserted[0], existing[0]]),
                AssetChange(deleted: [existing[1]]),
                AssetChange(),
            ])
        let albums = try changes[3].changeDetails(for: .assetCollection)
        #expect(albums.insertedLocalIdentifiers == [album])
        #expect(try changes[3].changeDetails(for: .collectionList).insertedLocalIdentifiers.isEmpty)
        #expect(changes.last!.changeToken == test.library.currentChangeToken)
        #expect(try test.library.fetchPersistentChanges(since: changes.last!.changeToken).map { $0 }.isEmpty)

        // Tokens order by the state they name.
        #expect(token < changes[0].changeToken && changes[0].changeToken < changes[3].changeToken)
        #expect(changes.map(\.changeToken) == changes.map(\.changeToken).sorted())
    }

    /// A page of history holds what was asked, and its last token starts
    /// the next: together they are the whole history since the token.
    @Test func historyComesInPagesOfALimit() throws {
        let test = try TestLibrary()
        let token = test.library.currentChangeToken
        for _ in 0..<5 { try test.importDays(1) }
        let whole = try test.library.fetchPersistentChanges(since: token).map(\.changeToken)
        var paged: [PHPersistentChangeToken] = []
        var from = token
        while true {
            let page = try test.library.fetchPersistentChanges(since: from, limit: 2).map(\.changeToken)
            #expect(page.count <= 2)
            paged += page
            guard let last = page.last else { break }
            from = last
        }
        #expect(whole.count == 5 && paged == whole)
        #expect(try test.library.fetchPersistentChanges(since: token, limit: 0).map(\.changeToken).isEmpty)
    }

    @Test func aDeletedObjectIsStillReportedAndRestoringReinsertsIt() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let token = test.library.currentChangeToken
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset(test, ids[0])] as NSArray) }
        try test.library.emptyRecentlyDeleted()
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil) }.count == 0)
        #expect(try assetChanges(test.library, since: token) == [AssetChange(deleted: [ids[0]]), AssetChange(deleted: [ids[0]])])

        let beforeRestore = test.library.currentChangeToken
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset(test, ids[1])] as NSArray) }
        try test.library.performChangesAndWait {
            let trashed = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil)[0]
            PHAssetChangeRequest.restoreDeletedAssets(PHAsset.fetchAssets(in: trashed, options: nil).allObjects as NSArray)
        }
        #expect(try assetChanges(test.library, since: beforeRestore) == [AssetChange(deleted: [ids[1]]), AssetChange(inserted: [ids[1]])])
    }

    @Test func tokensArchiveSecurelyAndEncode() throws {
        let test = try TestLibrary()
        try test.importDays(1)
        let token = test.library.currentChangeToken
        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let unarchived = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data))
        #expect(unarchived == token && unarchived.hash == token.hash)
        let decoded = try JSONDecoder().decode(PHPersistentChangeToken.self, from: JSONEncoder().encode(token))
        #expect(decoded == token)
        #expect(token.copy() as? PHPersistentChangeToken == token)
        #expect(PHPersistentChangeToken.supportsSecureCoding)
        #expect(try test.library.fetchPersistentChanges(since: unarchived).map { $0 }.isEmpty)
    }

    @Test func aTokenOfAnotherLibraryIsRefused() throws {
        let test = try TestLibrary()
        let other = try TestLibrary()
        try other.importDays(1)
        expectPhotosError(.identifierNotFound) {
            try test.library.fetchPersistentChanges(since: other.library.currentChangeToken)
        }
    }

    @Test func garbledTokensAreRefusedAsPhotosErrors() throws {
        let test = try TestLibrary()
        try test.importDays(2)
        let token = test.library.currentChangeToken

        var fields = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(token)) as? [String: Any])
        fields["transaction"] = 7
        let altered = try JSONDecoder().decode(PHPersistentChangeToken.self, from: JSONSerialization.data(withJSONObject: fields))
        fields.removeValue(forKey: "stamp")
        let truncated = try JSONDecoder().decode(PHPersistentChangeToken.self, from: JSONSerialization.data(withJSONObject: fields))
        for garbled in [altered, truncated] {
            let error = expectPhotosError(.identifierNotFound) { try test.library.fetchPersistentChanges(since: garbled) }
            #expect(error?.localizedDescription.contains("damaged") == true)
        }

        // A bit flipped inside an archive's stamp: it still unarchives, and is refused.
        var archive = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let stamp = withUnsafeBytes(of: token.point.stamp.bigEndian) { Data($0) }
        let range = try #require(archive.range(of: stamp))
        archive[range.lowerBound + 7] ^= 1
        let flipped = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archive))
        expectPhotosError(.identifierNotFound) { try test.library.fetchPersistentChanges(since: flipped) }
        // Bytes that are no archive at all fail in the unarchiver itself.
        #expect(throws: (any Error).self) {
            try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: Data("not a token".utf8))
        }
    }

    @Test func pruningExpiresOlderTokensAndKeepsTheHorizon() throws {
        let test = try TestLibrary()
        let start = test.library.currentChangeToken
        var tokens: [PHPersistentChangeToken] = []
        for _ in 0..<6 {
            try test.importDays(1)
            tokens.append(test.library.currentChangeToken)
        }
        try test.library.setPersistentChangeRetention(.init(maximumChangeCount: 2))
        #expect(try test.library.persistentChangeRetention() == .init(maximumChangeCount: 2))
        for old in [start] + tokens[0..<3] {
            expectPhotosError(.persistentChangeTokenExpired) { try test.library.fetchPersistentChanges(since: old) }
        }
        // The seed's recovery compiles and catches it.
        var refetched = false
        do {
            _ = try test.library.fetchPersistentChanges(since: start)
        } catch PHPhotosError.persistentChangeTokenExpired, PHPhotosError.persistentChangeDetailsUnavailable {
            refetched = true
        }
        #expect(refetched)
        #expect(try test.library.fetchPersistentChanges(since: tokens[3]).map { $0 }.count == 2)
        #expect(try test.library.fetchPersistentChanges(since: tokens[5]).map { $0 }.isEmpty)
    }

    @Test func theOwnerPurgesByDateAndClientsMayNot() throws {
        let test = try TestLibrary()
        let token = test.library.currentChangeToken
        try test.importDays(2)
        #expect(try test.library.purgePersistentChanges(before: Date().addingTimeInterval(60)))
        expectPhotosError(.persistentChangeTokenExpired) { try test.library.fetchPersistentChanges(since: token) }
        #expect(try test.library.fetchPersistentChanges(since: test.library.currentChangeToken).map { $0 }.isEmpty)
        #expect(try !test.library.purgePersistentChanges(before: Date().addingTimeInterval(60)), "nothing more to forget")

        try test.library.setAccess(.readWrite, forClient: "com.example.client")
        let client = try test.client("com.example.client")
        expectPhotosError(.accessRestricted) { try client.purgePersistentChanges(before: Date()) }
        expectPhotosError(.accessRestricted) { try client.setPersistentChangeRetention(.init()) }
    }

    @Test func historyPrunedWhileReadIsReportedNotSkipped() throws {
        let test = try TestLibrary()
        let token = test.library.currentChangeToken
        let fetchResult = test.fetch { PHAsset.fetchAssets(with: nil) }
        for _ in 0..<3 { try test.importDays(1) }
        let changes = try test.library.fetchPersistentChanges(since: token)
        try test.library.purgePersistentChanges(before: Date().addingTimeInterval(60))
        let read = changes.map { change in Result { try change.changeDetails(for: .asset) } }
        #expect(read.count == 3)
        for result in read {
            #expect(throws: PHPhotosError.self) { try result.get() }
            #expect((try? result.get()) == nil)
            if case .failure(let error as PHPhotosError) = result {
                #expect(error.code == .persistentChangeDetailsUnavailable && error.localizedDescription.contains("pruned"))
            }
        }
        // A fetch result older than the kept history still comes up to date, as a reload.
        let details = try #require(
            PHChange(library: test.library, from: 0, to: test.library.store!.lastChangeBlock())
                .changeDetails(for: fetchResult))
        #expect(!details.hasIncrementalChanges && details.fetchResultAfterChanges.count == 3)
    }

    @Test func largeChangeBlocksReportTheirDetailsAsUnavailable() throws {
        let test = try TestLibrary()
        try test.library.setPersistentChangeRetention(.init(maximumObjectsPerChange: 2))
        let token = test.library.currentChangeToken
        let fetchResult = test.fetch { PHAsset.fetchAssets(with: nil) }
        let observer = RecordingObserver()
        test.library.register(observer)
        try test.importDays(3)
        let small = try test.importDays(1)

        let changes = try test.library.fetchPersistentChanges(since: token).map { $0 }
        #expect(changes.count == 2)
        let error = expectPhotosError(.persistentChangeDetailsUnavailable) { try changes[0].changeDetails(for: .asset) }
        #expect(error?.localizedDescription.contains("3 objects") == true)
        #expect(try AssetChange(changes[1]) == AssetChange(inserted: [small[0]]))

        // Observers still hear of it: as a change to reload, not to animate.
        #expect(observer.wait())
        let details = try #require(observer.received.first?.changeDetails(for: fetchResult))
        #expect(!details.hasIncrementalChanges)
        #expect(details.fetchResultAfterChanges.count == 4)
        test.library.unregisterChangeObserver(observer)
    }

    @Test(.enabled(if: TestBackend.selected.isSQLite, "restores a copy of the library's directory"))
    func aRestoredCopyRefusesTokensFromTheLostFuture() throws {
        let test = try TestLibrary()
        try test.importDays(1)
        let beforeCopy = test.library.currentChangeToken
        let backup = test.directory.appendingPathComponent("Backup.photoslibrary")
        try FileManager.default.copyItem(at: test.library.url, to: backup)
        try test.importDays(1)
        try test.importDays(1)
        let lostFuture = test.library.currentChangeToken

        let restored = try PHPhotoLibrary(url: backup, options: .mustExist, clientIdentifier: nil)
        expectPhotosError(.persistentChangeTokenExpired) { try restored.fetchPersistentChanges(since: lostFuture) }
        #expect(try restored.fetchPersistentChanges(since: beforeCopy).map { $0 }.isEmpty)

        // The restored library goes on: its change blocks reuse the lost numbers, with other stamps.
        var created: [String] = []
        for _ in 0..<2 {
            try restored.performChangesAndWait {
                let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: try! test.jpeg())
                created.append(request!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        #expect(restored.currentChangeToken.point.changeBlock == lostFuture.point.changeBlock)
        let error = expectPhotosError(.persistentChangeTokenExpired) { try restored.fetchPersistentChanges(since: lostFuture) }
        #expect(error?.localizedDescription.contains("restored") == true)
        #expect(try assetChanges(restored, since: beforeCopy) == created.map { AssetChange(inserted: [$0]) })
    }

    @Test(.enabled(if: TestBackend.selected.isSQLite, "takes a copy of the library back to the format before"))
    func historyCommittedBeforeObjectCountsIsStillSeen() throws {
        let test = try TestLibrary()
        let token = test.library.currentChangeToken
        try test.importDays(2)
        try test.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Hike")
        }
        let expected = try assetChanges(test.library, since: token)
        #expect(expected.count == 2, "the import, then the album")

        // Format 7 counted the objects of a block only when it dropped their details.
        let older = test.directory.appendingPathComponent("Older.photoslibrary")
        try FileManager.default.copyItem(at: test.library.url, to: older)
        try DatabaseSurgery.execute(
            """
            UPDATE change_transaction SET object_count = 0 WHERE details = 1;
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v8:%';
            """, in: older)
        let reopened = try PHPhotoLibrary(url: older, options: .mustExist, clientIdentifier: nil)
        #expect(try assetChanges(reopened, since: token) == expected)
        #expect(
            try reopened.fetchPersistentChanges(since: token).map { $0 }.map(\.changeToken)
                == test.library.fetchPersistentChanges(since: token).map { $0 }.map(\.changeToken))
    }

    @Test func iteratingPagesThroughManyChanges() throws {
        let test = try TestLibrary()
        let token = test.library.currentChangeToken
        // Single-asset blocks, two blocks that together pass a page's object
        // limit (so a page ends before them and between them), then more singles.
        let large = PHPersistentChangeFetchResult.objectsPerPage / 2 + 1
        let sizes = Array(repeating: 1, count: 20) + [large, large] + Array(repeating: 1, count: 5)
        var blocks: [[String]] = []
        for (index, size) in sizes.enumerated() {
            blocks.append(try test.insert((0..<size).map { _ in TestLibrary.record(created: Date(timeIntervalSince1970: Double(index))) }))
        }
        let result = try test.library.fetchPersistentChanges(since: token)
        #expect(result.underestimatedCount == sizes.count)
        #expect(result.pageEnd(from: 0) == 21, "the first large block ends the first page")
        #expect(result.pageEnd(from: 20) == 21, "a large block after another is a page of its own")
        #expect(result.pageEnd(from: 21) == sizes.count)
        let seen = try result.map { try $0.changeDetails(for: .asset).insertedLocalIdentifiers }
        #expect(seen == blocks.map(Set.init))
        #expect(try result.map { try $0.changeDetails(for: .asset).insertedLocalIdentifiers } == seen, "iterable again")
    }

    @Test func aPageHoldsAtMostItsNumberOfChangeBlocks() throws {
        let test = try TestLibrary()
        let records = (0..<(PHPersistentChangeFetchResult.blocksPerPage + 10)).map { index in
            PersistentChangeRecord(
                point: HistoryPoint(changeBlock: Int64(index + 1), stamp: 1), committedAt: Date(),
                objectCount: 1, details: .kept)
        }
        let result = PHPersistentChangeFetchResult(library: test.library, records: records)
        #expect(result.pageEnd(from: 0) == PHPersistentChangeFetchResult.blocksPerPage)
        #expect(result.pageEnd(from: PHPersistentChangeFetchResult.blocksPerPage) == records.count)
        #expect(result.pageEnd(from: records.count) == records.count)
    }
}

/// Seed 001's hiking app across real launches: each launch is a new process
/// that reads the archived token, asks what changed, and stores the last
/// change's token.
@Suite struct HikingAppTests {
    private struct Report: Decodable {
        var outcome: String
        var changes: [[String: [String]]]
        var error: String?

        var assetChanges: [AssetChange] {
            changes.map {
                AssetChange(
                    inserted: Set($0["inserted"] ?? []), updated: Set($0["updated"] ?? []),
                    deleted: Set($0["deleted"] ?? []))
            }
        }
    }

    private func launch(_ arguments: [String], client: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = MultiProcessTests.helper
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PHOTOS_CLIENT_ID"] = client
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments): \(text)")
        return text
    }

    private func hike(_ test: TestLibrary, token: URL, client: String? = nil) throws -> Report {
        let text = try launch(["hike", test.library.locationDescription, token.path], client: client)
        return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    }

    @Test func theNextLaunchReadsExactlyWhatChangedWhileClosed() throws {
        let test = try TestLibrary()
        let existing = try test.importDays(3)
        let tokenFile = test.directory.appendingPathComponent("hiking-token")
        #expect(try hike(test, token: tokenFile).outcome == "bootstrapped")

        // While the app is closed: another process adds two photos, this one edits and deletes.
        let image = try test.jpeg()
        _ = try launch(["assets", test.library.locationDescription, "2", image.path])
        let added = test.fetch { PHAsset.fetchAssets(with: nil) }.allObjects.map(\.localIdentifier).filter { !existing.contains($0) }
        #expect(added.count == 2)
        let addedInOrder = try test.library.fetchPersistentChanges(
            since: NSKeyedUnarchiver.unarchivedObject(
                ofClass: PHPersistentChangeToken.self, from: Data(contentsOf: tokenFile))!
        ).map { try AssetChange($0).inserted.first! }
        try test.library.performChangesAndWait {
            PHAssetChangeRequest(for: asset(test, addedInOrder[0])).isFavorite = true
            PHAssetChangeRequest(for: asset(test, existing[0])).isFavorite = true
        }
        try test.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([asset(test, existing[1]), asset(test, addedInOrder[1])] as NSArray)
        }

        let second = try hike(test, token: tokenFile)
        #expect(second.outcome == "changes", "\(second.error ?? "")")
        #expect(
            second.assetChanges == [
                AssetChange(inserted: [addedInOrder[0]]),
                AssetChange(inserted: [addedInOrder[1]]),
                AssetChange(updated: [addedInOrder[0], existing[0]]),
                AssetChange(deleted: [existing[1], addedInOrder[1]]),
            ])

        // It stored the last change's token: nothing is reported twice.
        let third = try hike(test, token: tokenFile)
        #expect(third.outcome == "changes" && third.changes.isEmpty)
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset(test, existing[2])).isHidden = true }
        #expect(try hike(test, token: tokenFile).assetChanges == [AssetChange(updated: [existing[2]])])

        // After the history it relies on is pruned, it falls back to refetching.
        try test.importDays(1)
        try test.library.purgePersistentChanges(before: Date().addingTimeInterval(60))
        try test.importDays(1)
        #expect(try hike(test, token: tokenFile).outcome == "refetch")
        #expect(try hike(test, token: tokenFile).changes.isEmpty)
    }

    @Test func aLimitedAppReadsOnlyItsSelection() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(4)
        try test.library.setAccess(.limited, forClient: "com.example.hiking")
        try test.library.addToLimitedSelection([ids[0], ids[1]], ofClient: "com.example.hiking")
        let tokenFile = test.directory.appendingPathComponent("limited-token")
        #expect(try hike(test, token: tokenFile, client: "com.example.hiking").outcome == "bootstrapped")

        try test.library.performChangesAndWait {
            for id in ids { PHAssetChangeRequest(for: asset(test, id)).isFavorite = true }
        }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset(test, ids[3])).isHidden = true }
        try test.library.addToLimitedSelection([ids[2]], ofClient: "com.example.hiking")
        try test.library.removeFromLimitedSelection([ids[0]], ofClient: "com.example.hiking")

        let report = try hike(test, token: tokenFile, client: "com.example.hiking")
        #expect(report.outcome == "changes", "\(report.error ?? "")")
        // History is read through the selection as it is now: ids[0] left it, ids[2] joined it.
        #expect(
            report.assetChanges == [
                AssetChange(updated: [ids[1], ids[2]]),
                AssetChange(inserted: [ids[2]]),
                AssetChange(deleted: [ids[0]]),
            ], "the change to ids[3] alone is not its business; the selection changes are")
    }
}

/// `PHPhotoLibraryPersistentChangesObserver`: told after commits from any
/// library instance (another connection, as another process is), and
/// following history with its token it sees every change once.
@Suite struct PersistentChangesObserverTests {
    final class Follower: NSObject, PHPhotoLibraryPersistentChangesObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var token: PHPersistentChangeToken
        private(set) var calls = 0
        private(set) var seen: [String] = []

        init(from token: PHPersistentChangeToken) { self.token = token }

        func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary) {
            lock.withLock {
                calls += 1
                guard let changes = try? photoLibrary.fetchPersistentChanges(since: token) else { return }
                for change in changes {
                    seen += (try? change.changeDetails(for: .asset).updatedLocalIdentifiers.sorted()) ?? []
                    token = change.changeToken
                }
            }
        }

        var snapshot: (calls: Int, seen: [String]) { lock.withLock { (calls, seen) } }
    }

    @Test func anObserverFollowsCommitsFromAnyInstance() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let follower = Follower(from: test.library.currentChangeToken)
        test.library.register(follower)
        let other = try PHPhotoLibrary(url: test.library.url)
        for (index, id) in ids.enumerated() {
            let asset = other.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] }
            try other.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = index == 0 ? .three : .one }
        }
        #expect(eventuallyBlocking { follower.snapshot.seen == ids })
        test.library.unregisterPersistentChangesObserver(follower)
        let calls = follower.snapshot.calls
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil)[0] }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = .five }
        // Delivery is asynchronous: a commit after unregistering is followed by one that a still-registered observer would see.
        let witness = Follower(from: test.library.currentChangeToken)
        test.library.register(witness)
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).caption = "after" }
        #expect(eventuallyBlocking { witness.snapshot.seen == [ids[0]] })
        #expect(follower.snapshot.calls == calls, "unregistered: not called again")
    }

    @Test func aClientThatMayOnlyAddHearsNothing() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(1)
        try test.library.setAccess(.addOnly, forClient: "org.example.uploader")
        let uploader = try test.client("org.example.uploader")
        let follower = Follower(from: test.library.currentChangeToken)
        uploader.register(follower)
        let reader = Follower(from: test.library.currentChangeToken)
        test.library.register(reader)
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)[0] }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = .two }
        #expect(eventuallyBlocking { reader.snapshot.seen == ids })
        #expect(follower.snapshot.calls == 0)
    }
}
