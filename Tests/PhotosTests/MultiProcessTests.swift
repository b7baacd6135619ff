import Foundation
import Testing
@testable import Photos

@Suite struct MultiProcessTests {
    static var helper: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos-test-helper")
    }

    private func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Self.helper
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    @Test func processesWriteOneLibraryAtOnceAndSeeEachOther() throws {
        let test = try TestLibrary()
        let image = try test.jpeg()
        let path = test.library.url.path
        let writers = try [
            start(["albums", path, "40", "first"]),
            start(["albums", path, "40", "second"]),
            start(["assets", path, "15", image.path]),
        ]
        for index in 0..<20 {
            try test.library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "here-\(index)")
            }
        }
        for (process, output) in writers {
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(text)")
        }
        let titles = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
            .allObjects.compactMap(\.localizedTitle)
        #expect(titles.count == 100)
        #expect(Set(titles).count == 100, "no commit lost or duplicated")
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 15)
        #expect(test.originalFiles.count == 15)

        let (counter, output) = try start(["count", path])
        counter.waitUntilExit()
        let counts = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(counts.trimmingCharacters(in: .whitespacesAndNewlines) == "100 15", "another process sees every commit")
    }
}
