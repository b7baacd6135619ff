import Foundation
import GRDB
import Photos
import PhotosSQLite
import PhotosStore

/// Persistent history: reading a long history, asking when nothing is new,
/// what writing history costs each change block, and whether pruning holds
/// writers up.
struct HistoryBenchmarks {
    let assetCount: Int
    let workdir: URL
    /// Change blocks in the long history.
    var changeCount = 100_000

    func run() throws {
        print(
            "photos-bench history: \(changeCount) change blocks; \(assetCount) assets for the idle query; "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        let history = try prepareHistory()
        try readEverything(history)
        try nothingNew(try BenchLibrary.prepare(assetCount: assetCount, in: workdir))
        try commitOverhead()
        try pruningBesideWriters(history)
        BenchLibrary.removeScratch(in: workdir)
    }

    // MARK: - Reading

    /// Every change since the start, with every change's asset details,
    /// against the same rows read with GRDB into the same sets.
    private func readEverything(_ url: URL) throws {
        let library = try PHPhotoLibrary(url: url, clientIdentifier: nil)
        let start = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: PHPersistentChangeToken.self,
            from: Data(contentsOf: url.appendingPathComponent("bench-start-token")))!
        var sink = 0
        var configuration = Configuration()
        configuration.readonly = true
        let pool = try DatabasePool(path: url.appendingPathComponent("database/Photos.sqlite").path, configuration: configuration)
        let (ours, baseline) = try Measure.alternating(
            ours: {
                for change in try library.fetchPersistentChanges(since: start) {
                    let details = try change.changeDetails(for: .asset)
                    sink &+=
                        details.insertedLocalIdentifiers.count + details.updatedLocalIdentifiers.count
                        + details.deletedLocalIdentifiers.count
                }
            },
            baseline: {
                try pool.read { db in
                    let rows = try Row.fetchCursor(
                        db,
                        sql: """
                            SELECT t.id, e.uuid, e.kind FROM change_transaction t LEFT JOIN change_entry e
                                ON e.transaction_id = t.id AND e.entity = 1 AND e.client IS NULL
                            ORDER BY t.id, e.position
                            """)
                    var current: Int64 = -1
                    var sets: [Set<String>] = [[], [], []]
                    while let row = try rows.next() {
                        let id: Int64 = row[0]
                        if id != current {
                            sink &+= sets[0].count + sets[1].count + sets[2].count
                            sets = [[], [], []]
                            current = id
                        }
                        if let uuid: String = row[1], let kind: Int = row[2] {
                            sets[kind - 1].insert(uuid + "/L0/001")
                        }
                    }
                }
            })
        // PhotoKit's shape costs three objects per change (the change, its
        // token, its details), which the baseline does not build.
        Measure.report(
            "fetchPersistentChanges over \(changeCount) single-asset change blocks, every change's details",
            ours: ours, baseline: baseline, target: 1.5)
        print(
            String(
                format: "  %.0f changes per second (the baseline reads %.0f per second)",
                Double(changeCount) / ours * 1000, Double(changeCount) / baseline * 1000))
        if sink == 42 { print("") }
    }

    /// Asking for the changes since the current token on a large library.
    private func nothingNew(_ url: URL) throws {
        let library = try PHPhotoLibrary(url: url, clientIdentifier: nil)
        var timings: [Double] = []
        for _ in 0..<200 {
            let began = DispatchTime.now().uptimeNanoseconds
            let token = library.currentChangeToken
            let changes = try library.fetchPersistentChanges(since: token)
            precondition(changes.underestimatedCount == 0)
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
        }
        timings.sort()
        print(
            String(
                format: "currentChangeToken + fetchPersistentChanges with nothing new, %d assets: median %.3f ms, p99 %.3f ms (target < 5 ms)",
                assetCount, timings[timings.count / 2], timings[timings.count * 99 / 100]))
    }

    // MARK: - Writing

    /// 10,000 single-asset change blocks with history, against the same
    /// blocks with history entries switched off (a benchmark-only store
    /// option), and against a plain GRDB insert of the same row in a
    /// transaction of its own, synced as durably; the three take turns in
    /// rounds, in an order drawn afresh for each, so all see the same disk.
    private func commitOverhead() throws {
        let stores = try [true, false].map { writes in
            var options = SQLitePhotoStore.OpenOptions()
            options.writesHistoryEntries = writes
            return try SQLitePhotoStore(url: BenchLibrary.scratch(in: workdir), options: options)
        }
        let plainLibrary = BenchLibrary.scratch(in: workdir)
        _ = try SQLitePhotoStore(url: plainLibrary)
        let plain = try BenchLibrary.durablePool(plainLibrary)
        var random = SplitMix(state: 7)
        var elapsed = [0.0, 0.0, 0.0]
        let rounds = 20
        let perRound = 500
        for _ in 0..<rounds {
            for side in [0, 1, 2].shuffled() {
                let records = (0..<perRound).map { BenchLibrary.record(index: $0, random: &random) }
                let began = DispatchTime.now().uptimeNanoseconds
                for record in records {
                    if side < 2 {
                        var changes = ChangeSet()
                        changes.newAssets = [NewAsset(record: record, resources: [])]
                        _ = try stores[side].beginCommit().commit(changes)
                    } else {
                        try plain.write { db in try db.execute(sql: AssetRecord.insertSQL, arguments: record.insertArguments.statementArguments) }
                    }
                }
                elapsed[side] += Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000
            }
        }
        Measure.report(
            "\(rounds * perRound) single-asset change blocks, with history against without",
            ours: elapsed[0], baseline: elapsed[1], target: 1.1)
        Measure.report(
            "\(rounds * perRound) single-asset change blocks, history included, against a plain GRDB insert of each row",
            ours: elapsed[0], baseline: elapsed[2], target: 2)
    }

    /// Change blocks committed while another thread prunes the whole long
    /// history, against the same blocks with no pruning: pruning works in
    /// short transactions, so a writer waits at most for one of them.
    private func pruningBesideWriters(_ history: URL) throws {
        let copy = BenchLibrary.scratch(in: workdir)
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: history, to: copy)
        let store = try SQLitePhotoStore(url: copy)
        var random = SplitMix(state: 11)
        func commitLatencies(count: Int, while condition: () -> Bool = { true }) throws -> [Double] {
            var latencies: [Double] = []
            for index in 0..<count {
                guard condition() || index < 20 else { break }
                var changes = ChangeSet()
                changes.newAssets = [NewAsset(record: BenchLibrary.record(index: index, random: &random), resources: [])]
                let began = DispatchTime.now().uptimeNanoseconds
                _ = try store.beginCommit().commit(changes)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
            }
            return latencies.sorted()
        }
        let quiet = try commitLatencies(count: 200)
        let pruning = Pruning()
        let last = try store.lastChangeBlock()
        let pruned = Thread {
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                try SQLitePhotoStore(url: copy).pruneHistory(through: last, now: Date())
            } catch {
                FileHandle.standardError.write(Data("pruning failed: \(error)\n".utf8))
            }
            pruning.finish(Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        }
        pruned.start()
        let busy = try commitLatencies(count: 100_000, while: { !pruning.isFinished })
        while !pruning.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        func summary(_ values: [Double]) -> String {
            String(
                format: "median %.2f ms, p99 %.2f ms, max %.2f ms", values[values.count / 2],
                values[min(values.count - 1, values.count * 99 / 100)], values.last!)
        }
        print("single-asset change blocks, quiet: \(summary(quiet))")
        print(
            String(
                format: "  while pruning %d change blocks (%.0f ms): %@ over %d blocks",
                changeCount, pruning.duration, summary(busy), busy.count))
    }

    /// Whether the pruning thread is done, and how long it took.
    private final class Pruning: @unchecked Sendable {
        private let lock = NSLock()
        private var finishedAfter: Double?

        func finish(_ milliseconds: Double) {
            lock.lock()
            finishedAfter = milliseconds
            lock.unlock()
        }

        var isFinished: Bool {
            lock.lock()
            defer { lock.unlock() }
            return finishedAfter != nil
        }

        var duration: Double {
            lock.lock()
            defer { lock.unlock() }
            return finishedAfter ?? 0
        }
    }

    // MARK: - Setup

    /// A library whose history holds `changeCount` single-asset change
    /// blocks (three in four insert an asset, one in four favorites the
    /// asset inserted before), bulk-loaded with SQL once, as the engine
    /// writes them, and reused while complete. `bench-start-token` holds the
    /// archived token of the empty library.
    private func prepareHistory() throws -> URL {
        try BenchLibrary.cached(
            "history-\(changeCount).photoslibrary", in: workdir, holding: "\(changeCount) change blocks",
            build: loadHistory)
    }

    private func loadHistory(into url: URL) throws {
        let library = try PHPhotoLibrary(url: url, clientIdentifier: nil)
        try NSKeyedArchiver.archivedData(withRootObject: library.currentChangeToken, requiringSecureCoding: true)
            .write(to: url.appendingPathComponent("bench-start-token"))
        let pool = try DatabasePool(path: url.appendingPathComponent("database/Photos.sqlite").path)
        var random = SplitMix(state: 5)
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            let asset = try db.makeStatement(sql: AssetRecord.insertSQL)
            let changeBlock = try db.makeStatement(
                sql: """
                    INSERT INTO change_transaction (committed_at, stamp, details, object_count) VALUES (?, ?, 1, 1)
                    """)
            let entry = try db.makeStatement(
                sql: """
                    INSERT INTO change_entry (transaction_id, position, entity, row_id, uuid, kind, attributes) VALUES (?, 0, 1, ?, ?, ?, ?)
                    """)
            var previous: (id: Int64, uuid: String)?
            for index in 0..<changeCount {
                try changeBlock.execute(arguments: [now - Double(changeCount - index), Int64.random(in: 1...Int64.max)])
                let block = db.lastInsertedRowID
                if index % 4 == 3, let previous {
                    try entry.execute(arguments: [block, previous.id, previous.uuid, 2, "favorite"])
                } else {
                    let record = BenchLibrary.record(index: index, random: &random)
                    try asset.execute(arguments: record.insertArguments.statementArguments)
                    previous = (db.lastInsertedRowID, record.uuid)
                    try entry.execute(arguments: [block, db.lastInsertedRowID, record.uuid, 1, ""])
                }
            }
        }
        try pool.writeWithoutTransaction { try $0.execute(sql: "ANALYZE") }
    }

}
