import Foundation
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosIndexing

/// The indexer killed with SIGKILL at random moments, in and between its
/// transactions, then run again: every asset ends indexed exactly once.
@Suite(.tags(.slow)) struct IndexerKillTests {
    static let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos-test-helper")

    @Test func aKilledIndexerLosesNothingAndRepeatsNothing() throws {
        let test = try TestLibrary()
        let urls = try (0..<48).map { try test.jpeg("kill-\($0).jpg", latitude: 43.2965, longitude: 5.3698) }
        _ = try test.importImages(urls)
        var random = SeededRandom(seed: 46)
        var batchesBeforeKills = 0
        for round in 0..<4 {
            let helper = Process()
            helper.executableURL = Self.helper
            helper.arguments = ["index", test.library.url.absoluteString, "1"]
            let output = Pipe()
            helper.standardOutput = output
            try helper.run()
            // After a few batches have begun: somewhere inside one transaction or between two.
            let reader = output.fileHandleForReading
            var seen = ""
            while seen.components(separatedBy: "batch").count - 1 < 3 + round * 4 && !seen.contains("done") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.004, using: &random))
            kill(helper.processIdentifier, SIGKILL)
            helper.waitUntilExit()
            #expect(!seen.contains("done"), "round \(round): the indexer finished before it was killed")
            batchesBeforeKills += seen.components(separatedBy: "batch").count - 1
        }
        // Each helper took over from the one killed before it at once (its process is gone); so does this one.
        let later = LibraryIndexer(library: test.library, holder: nil, now: Date.init, batchLimit: 5)
        try later.catchUp()
        let status = try later.status()
        #expect(status.searchable == 48 && status.located == 48)
        #expect(status.kinds.map(\.name) == IndexKind.allCases.map(\.rawValue))
        for kind in status.kinds {
            #expect(kind.indexed == 48, "each asset written once by \(kind.name), whatever the kills: \(kind.indexed)")
            #expect(kind.phase == .following && kind.pendingChanges == 0)
        }
        #expect(batchesBeforeKills > 4)
        let found = try test.library.withCurrentLibrary { try PHAsset.fetchAssets(matchingSearch: "marseille kill", options: nil) }
        #expect(found.count == 48)
    }
}
