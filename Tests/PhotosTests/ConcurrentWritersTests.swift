import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Four processes commit at once into one library while two more observe
/// it and read its history. `PHOTOS_CONCURRENCY_BLOCKS` raises the change
/// blocks per writer from 100 to the full run's 1,000.
@Suite(.tags(.slow)) struct ConcurrentWritersTests {
    static let blocksPerWriter = ProcessInfo.processInfo.environment["PHOTOS_CONCURRENCY_BLOCKS"].flatMap(Int.init) ?? 100

    @Test func fourWritersTwoWatchersNothingLostOrDuplicated() throws {
        let test = try TestLibrary()
        let path = test.library.locationDescription
        let total = 4 * Self.blocksPerWriter
        let origin = test.library.currentChangeToken
        let watchers = try (0..<2).map { _ in try MultiProcessTests.start(["observe-history", path, String(total)]) }
        // Drained all along, so that a full pipe never holds a watcher up.
        let transcripts = watchers.map { _, output in
            let transcript = Transcript()
            Thread.detachNewThread {
                while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty { transcript.append(chunk) }
                transcript.close()
            }
            return transcript
        }
        // Each watcher says "ready" once its observer is registered.
        for transcript in transcripts { #expect(transcript.wait(for: "ready", seconds: 30)) }
        let writers = try (0..<4).map { try MultiProcessTests.start(["albums", path, String(Self.blocksPerWriter), "writer\($0)"]) }
        for (process, output) in writers {
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "no error, SQLITE_BUSY included, reaches a writer: \(said)")
        }

        let titles = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
            .allObjects.compactMap(\.localizedTitle)
        #expect(titles.count == total && Set(titles).count == total, "no commit lost or duplicated")
        let history = try test.library.fetchPersistentChanges(since: origin).map(\.changeToken)
        #expect(history.count == total)
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 < $1 }, "history in commit order")

        for ((process, _), transcript) in zip(watchers, transcripts) {
            process.waitUntilExit()
            let said = transcript.text(waitingForEnd: true)
            #expect(process.terminationStatus == 0, "\(said.suffix(300))")
            let lines = said.split(separator: "\n")
            #expect(lines.last == "history \(total) in order")
            // Every change block reported exactly once, possibly several to a notice.
            var seen: [Int] = []
            for line in lines where line.hasPrefix("<PHChange> change blocks ") {
                let range = line.dropFirst("<PHChange> change blocks ".count).split(separator: " ")[0].split(separator: ".")
                    .compactMap { Int($0) }
                if range.count == 2 { seen += Array(range[0]...range[1]) }
            }
            #expect(seen.count == total && Set(seen).count == total, "each commit seen once: \(seen.count) notices for \(total)")
        }
    }
}

/// What a process printed, gathered by a reader thread.
final class Transcript: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var closed = false

    func append(_ chunk: Data) {
        condition.withLock { data.append(chunk) }
        condition.broadcast()
    }

    func close() {
        condition.withLock { closed = true }
        condition.broadcast()
    }

    /// Waits until the text contains `marker`; false after `seconds` or at the end without it.
    func wait(for marker: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: data, as: UTF8.self).contains(marker) {
            if closed || !condition.wait(until: deadline) { return false }
        }
        return true
    }

    func text(waitingForEnd: Bool) -> String {
        condition.lock()
        defer { condition.unlock() }
        while waitingForEnd && !closed { condition.wait() }
        return String(decoding: data, as: UTF8.self)
    }
}
