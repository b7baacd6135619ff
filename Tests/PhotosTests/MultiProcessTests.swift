import Foundation
import Testing

@testable import Photos

@Suite struct MultiProcessTests {
    static var helper: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos-test-helper")
    }

    /// Starts the helper with `arguments`, its output and errors on one pipe.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
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
        let path = test.library.locationDescription
        let writers = try [
            Self.start(["albums", path, "40", "first"]),
            Self.start(["albums", path, "40", "second"]),
            Self.start(["assets", path, "15", image.path]),
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

        let (counter, output) = try Self.start(["count", path])
        counter.waitUntilExit()
        let counts = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(counts.trimmingCharacters(in: .whitespacesAndNewlines) == "100 15", "another process sees every commit")
    }
}

@Suite struct CrossProcessObservationTests {
    @Test func anotherProcessSeesThisProcessCommits() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        let observer = Process()
        observer.executableURL = MultiProcessTests.helper
        observer.arguments = ["observe", test.library.locationDescription, "4"]
        let output = Pipe()
        observer.standardOutput = output
        try observer.run()
        var text = ""
        while !text.contains("ready\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            text += String(decoding: data, as: UTF8.self)
        }
        try test.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Seen elsewhere")
            PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil)[0]).isFavorite = true
        }
        try test.library.performChangesAndWait {
            _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: try! test.jpeg())
        }
        observer.waitUntilExit()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(observer.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n").dropFirst()
        #expect(lines.contains { $0.contains("albums +1 -0") }, "\(text)")
        #expect(lines.contains { $0.contains("assets +0 -0 ~1") } || lines.contains { $0.contains("assets +1 -0 ~1") }, "\(text)")
        #expect(lines.contains { $0.contains("assets +1") }, "\(text)")
    }

    @Test func thisProcessSeesAnotherProcessCommits() throws {
        let test = try TestLibrary()
        let observer = RecordingObserver()
        let albums = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        test.library.register(observer)
        defer { test.library.unregisterChangeObserver(observer) }
        let writer = Process()
        writer.executableURL = MultiProcessTests.helper
        writer.arguments = ["albums", test.library.locationDescription, "3", "remote"]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        var current = albums
        let deadline = Date().addingTimeInterval(10)
        while current.count < 3, Date() < deadline {
            guard observer.wait(seconds: 1), let change = observer.received.last,
                let details = change.changeDetails(for: current)
            else { continue }
            current = details.fetchResultAfterChanges
        }
        #expect(current.count == 3, "changes committed by another process arrive here")
        #expect(Set(current.allObjects.compactMap(\.localizedTitle)) == ["remote-0", "remote-1", "remote-2"])
    }
}
