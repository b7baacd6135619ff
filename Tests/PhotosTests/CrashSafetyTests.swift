import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// A writer process is killed with SIGKILL at random moments while it
/// commits large change blocks; after each kill the library must open whole.
/// `PHOTOS_CRASH_ROUNDS` and `PHOTOS_CRASH_BLOCK` raise the defaults (8 kills,
/// 40 assets per block) to the full run (100 kills, 1,000 assets per block).
/// The moments of the kills come from a seeded generator: the seed is
/// printed, and `PHOTOS_CRASH_SEED` replays a run.
@Suite(.tags(.slow)) struct CrashSafetyTests {
    static let rounds = ProcessInfo.processInfo.environment["PHOTOS_CRASH_ROUNDS"].flatMap(Int.init) ?? 8
    static let perBlock = ProcessInfo.processInfo.environment["PHOTOS_CRASH_BLOCK"].flatMap(Int.init) ?? 40
    static let seed = ProcessInfo.processInfo.environment["PHOTOS_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func killedWritersLeaveWholeChangeBlocks() throws {
        let test = try TestLibrary()
        let images = test.files.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for index in 0..<24 {
            try SampleImage.jpeg(width: 120 + index, height: 90, from: (Double(index * 10), 40, 60), to: (220, 180, 90))
                .write(to: images.appendingPathComponent(String(format: "IMG_%04d.JPG", index)))
        }
        let path = test.library.url.path
        let firstToken = test.library.currentChangeToken
        print("CrashSafetyTests: PHOTOS_CRASH_SEED=\(Self.seed) replays these kills")
        var generator = SeededRandom(seed: Self.seed)
        var committedBlocks = 0
        for round in 0..<Self.rounds {
            let tokenBeforeKill = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil).currentChangeToken
            let writer = Process()
            writer.executableURL = MultiProcessTests.helper
            writer.arguments = ["crash-writer", path, images.path, String(Self.perBlock)]
            let output = Pipe()
            writer.standardOutput = output
            writer.standardError = output
            try writer.run()
            // Somewhere from the first block's preparation to a few blocks in; larger blocks take longer.
            let window = 0.2 + Double(Self.perBlock) * 0.03
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...window, using: &generator))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(writer.terminationReason == .uncaughtSignal, "seed \(Self.seed) round \(round): the writer stopped on its own: \(said)")
            committedBlocks += said.split(separator: "\n").filter { $0.hasPrefix("committed") }.count

            let library = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
            try check(library, test: test, round: round)
            // Tokens from before the kill still work, and history agrees with the data.
            _ = try library.fetchPersistentChanges(since: tokenBeforeKill).map(\.changeToken)
            try checkHistory(library, since: firstToken, round: round)
        }
        #expect(committedBlocks > 0, "some blocks committed between kills")
    }

    /// Every block whole or absent, files included.
    private func check(_ library: PHPhotoLibrary, test: TestLibrary, round: Int) throws {
        let store = try #require(library.store)
        #expect(try store.integrityCheck() == "ok", "round \(round)")
        library.withCurrentLibrary {
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).allObjects
            var visible = 0
            for album in albums {
                let title = album.localizedTitle ?? ""
                let count = PHAsset.fetchAssets(in: album, options: nil).count
                if title.hasPrefix("block-") {
                    #expect(count == Self.perBlock, "round \(round): \(title) holds \(count) assets")
                    visible += count
                } else {
                    #expect(title.hasPrefix("emptied-") && count == 0, "round \(round): \(title) holds \(count) assets")
                }
            }
            let hidden = PHFetchOptions()
            hidden.includeHiddenAssets = true
            #expect(PHAsset.fetchAssets(with: hidden).count == visible, "round \(round): no asset outside its block's album")
            let emptied = albums.filter { $0.localizedTitle?.hasPrefix("emptied-") == true }.count
            let trash = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil)[0]
            #expect(PHAsset.fetchAssets(in: trash, options: nil).count == emptied * Self.perBlock, "round \(round)")
        }
        // No orphan files and no asset without its file.
        let named = try store.allResourcePaths()
        let onDisk = Set(test.files(under: "originals").map { "originals/" + $0 })
        #expect(onDisk == named, "round \(round): \(onDisk.subtracting(named).count) orphans, \(named.subtracting(onDisk).count) missing")
        let uuids = try store.allAssetUUIDs()
        let derivatives = test.files(under: "derivatives")
        let orphans = derivatives.filter { path in !uuids.contains(String(path.split(separator: "/").last!.prefix(36))) }
        #expect(orphans.isEmpty, "round \(round): orphan derivatives \(orphans.prefix(3))")
        let staging = (try? FileManager.default.contentsOfDirectory(atPath: library.url.appendingPathComponent("staging").path)) ?? []
        #expect(staging.filter { !$0.hasPrefix(".") }.isEmpty, "round \(round): staging left behind: \(staging)")
    }

    /// Inserted minus deleted, over the whole history, is what fetches show.
    private func checkHistory(_ library: PHPhotoLibrary, since token: PHPersistentChangeToken, round: Int) throws {
        var present = Set<String>()
        for change in try library.fetchPersistentChanges(since: token) {
            let details = try change.changeDetails(for: .asset)
            present.formUnion(details.insertedLocalIdentifiers)
            present.subtract(details.deletedLocalIdentifiers)
        }
        let fetched = library.withCurrentLibrary { Set(PHAsset.fetchAssets(with: nil).allObjects.map(\.localIdentifier)) }
        #expect(present == fetched, "round \(round): history and data disagree")
    }
}
