import Foundation
import PhotosMedia
import Synchronization
import Testing

@testable import Photos

/// Imports account for every file, whoever imports and however many
/// import at once: each file stored once, each failure its own.
@Suite struct ImportAccountingTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private var assetCount: Int {
        let all = PHFetchOptions()
        all.includeHiddenAssets = true
        return test.fetch { PHAsset.fetchAssets(with: all).count }
    }

    /// `progress` hears the files read and those accounted for before each
    /// block, and stops the import where it says: while reading, nothing is
    /// stored; between blocks, what committed stays; every file is either
    /// in the result or not attempted.
    @Test func progressIsToldAndStopsTheImportBetweenBlocks() throws {
        let files = try (0..<6).map { try test.jpeg(width: 40 + $0, height: 30) }
        let heard = Mutex<[(read: Int, accountedFor: Int)]>([])
        let betweenBlocks = PHPhotoLibrary.ImportOptions(batchSize: 2) { read, accountedFor in
            heard.withLock { $0.append((read, accountedFor)) }
            return accountedFor < 2
        }
        let stopped = try test.library.importFiles(files, options: betweenBlocks)
        #expect(stopped.imported.count == 2 && stopped.notAttempted.count == 4 && stopped.failed.isEmpty)
        #expect(Set(stopped.imported.map(\.file) + stopped.notAttempted) == Set(files))
        #expect(assetCount == 2)
        let told = heard.withLock { $0 }
        #expect(told.filter { $0.accountedFor == 0 }.map(\.read).max() == 6, "each file read is told")
        #expect(told.last.map { [$0.read, $0.accountedFor] } == [6, 2], "then each block, before it runs")

        let others = try (0..<4).map { try test.jpeg(width: 60 + $0, height: 30) }
        let whileReading = try test.library.importFiles(others, options: PHPhotoLibrary.ImportOptions { _, _ in false })
        #expect(whileReading.imported.isEmpty && Set(whileReading.notAttempted) == Set(others))
        #expect(assetCount == 2)
    }

    @Test func importsRunningAtOnceStoreEachFileOnce() throws {
        let files = try (0..<12).map { try test.jpeg(width: 40 + $0, height: 30) }
        let libraries = try (0..<3).map { _ in try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil) }
        let results = Mutex<[PHPhotoLibrary.ImportResult]>([])
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for library in libraries {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                let result = try? library.importFiles(files, options: .init(batchSize: 4))
                results.withLock { $0.append(result ?? PHPhotoLibrary.ImportResult()) }
                group.leave()
            }
        }
        libraries.forEach { _ in start.signal() }
        group.wait()
        #expect(assetCount == files.count, "each file stored once")
        let all = results.withLock { $0 }
        #expect(all.reduce(0) { $0 + $1.imported.count } == files.count)
        #expect(all.reduce(0) { $0 + $1.duplicates.count } == files.count * 2)
        #expect(all.allSatisfy { $0.failed.isEmpty })
        #expect(test.originalFiles.count == files.count && test.files(under: "derivatives").count == files.count, "no file of a skipped asset stays")
    }

    @Test func anAddOnlyClientImportsWithTheDefaultsAndLearnsNothing() throws {
        let known = try test.jpeg(width: 64)
        let owned = try #require(try test.library.importFiles([known]).imported.first?.localIdentifier)
        try test.library.setAccess(.addOnly, forClient: "org.example.camera")
        let camera = try test.client("org.example.camera")
        let fresh = try test.jpeg(width: 65)
        let result = try camera.importFiles([known, fresh])
        #expect(result.failed.isEmpty && result.duplicates.isEmpty, "an add-only client is told of no duplicate")
        #expect(result.imported.count == 2 && result.imported.first?.localIdentifier == owned)
        #expect(assetCount == 2, "the duplicate was still not stored twice")
    }

    @Test func aLimitedClientIsToldOnlyOfDuplicatesItMaySee() throws {
        let hidden = try test.jpeg(width: 64)
        let shared = try test.jpeg(width: 65)
        let ids = try test.library.importFiles([hidden, shared]).imported.map(\.localIdentifier)
        try test.library.setAccess(.limited, forClient: "org.example.picker")
        try test.library.addToLimitedSelection([ids[1]], ofClient: "org.example.picker")
        let picker = try test.client("org.example.picker")
        let result = try picker.importFiles([hidden, shared])
        #expect(result.duplicates.map(\.localIdentifier) == [ids[1]])
        #expect(result.imported.count == 1 && result.imported.first?.localIdentifier != ids[0], "content it may not see is stored anew")
        #expect(assetCount == 3)
        #expect(picker.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count } == 2)
    }

    @Test func assetsInRecentlyDeletedAreNotDuplicates() throws {
        let photo = try test.jpeg()
        let first = try #require(try test.library.importFiles([photo]).imported.first?.localIdentifier)
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [first], options: nil) }[0]
        try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        let again = try test.library.importFiles([photo])
        #expect(
            again.duplicates.isEmpty && again.imported.count == 1 && again.imported.first?.localIdentifier != first,
            "a photo deleted by mistake comes back when imported again, before its retention ends")
    }

    @Test func aFailedAssetIsNamedByTheErrorAndTheOthersAreImported() throws {
        let gone = test.files.appendingPathComponent("vanished.jpg")
        var identifiers: [String] = []
        let error = expectPhotosError(.invalidResource) {
            try test.library.performChangesAndWait {
                for url in [try! test.jpeg(), gone, try! test.jpeg()] {
                    identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier)
                }
            }
        }
        #expect(error?.localIdentifiers == [identifiers[1]], "the error is about the vanished file's asset only")
        #expect(error?.localizedDescription.contains("vanished.jpg") == true)
    }

    @Test func eachFailureNamesItsOwnFileAndCause() throws {
        let jpeg = try Data(contentsOf: try test.jpeg(width: 900, height: 600))
        let png = try ImageCodec.encode(try ImageCodec.decode(data: jpeg), as: .png)
        let data = try #require(png.range(of: Data("IDAT".utf8)))
        var files: [URL] = []
        for index in 0..<6 {
            // Each broken file differs, so that none is a duplicate of another.
            files.append(try test.file("cut-\(index).jpg", jpeg.prefix(jpeg.count / 2 + index * 97)))
            var scrambled = png
            scrambled.replaceSubrange(data.upperBound + 40 + index..<data.upperBound + 240, with: Data(repeating: 0x5A, count: 200 - index))
            files.append(try test.file("scrambled-\(index).png", scrambled))
            files.append(try test.jpeg(width: 30 + index))
        }
        let result = try test.library.importFiles(files)
        #expect(result.imported.count == 6)
        #expect(result.failed.count == 12)
        for (file, error) in result.failed {
            let message = error.localizedDescription
            #expect(message.contains(file.lastPathComponent), "\(file.lastPathComponent): \(message)")
            let other = file.pathExtension == "png" ? "jpeg" : "png"
            #expect(!message.lowercased().contains(other), "\(file.lastPathComponent) gets another file's cause: \(message)")
        }
    }
}
