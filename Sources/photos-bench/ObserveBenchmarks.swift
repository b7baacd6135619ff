import Foundation
import Photos
import PhotosMedia
import PhotosSQLite
import PhotosStore

/// Change observation: from a change block to its details in an observer
/// on a large library, the general diff, and delivery across processes.
struct ObserveBenchmarks {
    let assetCount: Int
    let workdir: URL

    func run() throws {
        print("photos-bench observe: \(assetCount) assets, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let url = try BenchLibrary.prepare(assetCount: assetCount, in: workdir)
        BenchLibrary.removeScratch(in: workdir)
        defer { BenchLibrary.removeScratch(in: workdir) }
        try ObservedChanges(assetCount: assetCount, workdir: workdir, library: url).run()
        try generalDiff(url)
        try listDiffs()
        try crossProcessLatency(commits: 200, pauseMilliseconds: 5)
        try crossProcessLatency(commits: 1000, pauseMilliseconds: 0)
    }

    /// `init(from:to:changedObjects:)` on 100,000 assets with 10,000
    /// removed, 10,000 inserted and 2,000 moved, against a linear diff of
    /// the same row ids (``LinearDiff``), which finds more moves than the
    /// fewest; CollectionDifference (Myers) for context.
    private func generalDiff(_ url: URL) throws {
        let library = try PHPhotoLibrary(url: url)
        let store = try SQLitePhotoStore(url: url)
        let pool = try store.fetchAssets(AssetQuery(scope: .library)).ids.prefix(110_000)
        let uuids = try store.assets(ids: Array(pool)).map(\.uuid)
        var random = SplitMix(state: 42)
        // 100,000 assets on the full library; proportionally fewer on a small one.
        let size = min(100_000, uuids.count * 10 / 11)
        let (changed, moved) = (size / 10, size / 50)
        let old = Array(uuids.prefix(size))
        var new = old
        for _ in 0..<changed { new.remove(at: Int(random.next() % UInt64(new.count))) }
        for uuid in uuids.suffix(changed) { new.insert(uuid, at: Int(random.next() % UInt64(new.count + 1))) }
        for _ in 0..<moved {
            let uuid = new.remove(at: Int(random.next() % UInt64(new.count)))
            new.insert(uuid, at: Int(random.next() % UInt64(new.count + 1)))
        }
        // Fetches by identifier take the bare UUIDs.
        let (before, after) = library.withCurrentLibrary {
            (
                PHAsset.fetchAssets(withLocalIdentifiers: old, options: nil),
                PHAsset.fetchAssets(withLocalIdentifiers: new, options: nil)
            )
        }
        let oldIDs = try store.fetchAssets(AssetQuery(scope: .uuids(old))).ids
        let newIDs = try store.fetchAssets(AssetQuery(scope: .uuids(new))).ids
        var moves = 0
        var linear = LinearDiff(from: oldIDs, to: newIDs)
        let (ours, baseline) = try Measure.alternating(
            runs: 9,
            ours: {
                let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [])
                moves = 0
                details.enumerateMoves { _, _ in moves += 1 }
                _ = details.removedIndexes
            },
            baseline: {
                linear = LinearDiff(from: oldIDs, to: newIDs)
            })
        guard linear.transforms(oldIDs, into: newIDs) else { throw BenchError("the linear diff does not turn the old result into the new one") }
        let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [])
        var ourMoves: [(from: Int, to: Int)] = []
        details.enumerateMoves { ourMoves.append(($0, $1)) }
        guard
            Self.replays(
                old: oldIDs, new: newIDs, removed: Array(details.removedIndexes ?? []),
                inserted: Array(details.insertedIndexes ?? []), moves: ourMoves)
        else {
            throw BenchError("the change details do not turn the old result into the new one")
        }
        Measure.report(
            "init(from:to:changedObjects:) on \(size) assets (\(changed) removed, \(changed) inserted, \(moved) moved), against a linear diff",
            ours: ours, baseline: baseline, target: 0.5)
        let myers = Measure.best(runs: 1) { _ = newIDs.difference(from: oldIDs).inferringMoves() }
        print(
            String(
                format: "  (%d moves reported, the linear diff %d; CollectionDifference with inferred moves: %.1f ms)",
                moves, linear.moves.count, myers))
    }

    /// The diff alone on lists of row ids (Int64), UUIDs and local
    /// identifiers (String), of 5,000, 100,000 and 1,000,000 elements (as
    /// many as the library's size allows, at least the first): 10 % removed,
    /// 10 % inserted, 2 % moved. Ours against the linear diff, both sides'
    /// outputs checked by replaying them, and their move counts.
    private func listDiffs() throws {
        for size in [5_000, 100_000, 1_000_000] where size == 5_000 || size <= assetCount {
            var random = SplitMix(state: UInt64(size))
            let ids = (1...Int64(size + size / 10)).shuffled(using: &random)
            try diffRow(
                "Int64 row ids", size: size, Self.edit(Array(ids.prefix(size)), adding: Array(ids.suffix(size / 10)), random: &random),
                ours: { IdentityDifference.between($0, $1) })
            let uuids = (0..<(size + size / 10)).map { _ in UUID() }
            try diffRow(
                "UUIDs", size: size, Self.edit(Array(uuids.prefix(size)), adding: Array(uuids.suffix(size / 10)), random: &random),
                ours: { IdentityDifference.between($0, $1) })
            let identifiers = uuids.map { LocalIdentifier(uuid: $0.uuidString, entity: .asset).description }
            try diffRow(
                "local identifiers", size: size,
                Self.edit(Array(identifiers.prefix(size)), adding: Array(identifiers.suffix(size / 10)), random: &random),
                ours: { IdentityDifference.between($0, $1) })
        }
    }

    /// One diff row: ours and the linear diff alternating, each output
    /// replayed, the move counts beside.
    private func diffRow<Element: Hashable>(
        _ kind: String, size: Int, _ lists: (old: [Element], new: [Element]),
        ours: ([Element], [Element]) -> IdentityDifference
    ) throws {
        var difference = ours(lists.old, lists.new)
        var linear = LinearDiff(from: lists.old, to: lists.new)
        guard
            Self.replays(
                old: lists.old, new: lists.new, removed: difference.removed, inserted: difference.inserted,
                moves: difference.moves.map { ($0.from, $0.to) })
        else {
            throw BenchError("our diff of \(kind) does not turn the old list into the new one")
        }
        guard linear.transforms(lists.old, into: lists.new) else {
            throw BenchError("the linear diff of \(kind) does not turn the old list into the new one")
        }
        let (oursTime, baseline) = try Measure.alternating(
            runs: size >= 1_000_000 ? 3 : 9,
            ours: {
                difference = ours(lists.old, lists.new)
            },
            baseline: {
                linear = LinearDiff(from: lists.old, to: lists.new)
            })
        Measure.report(
            "diff of \(size) \(kind) (10 % removed, 10 % inserted, 2 % moved), against a linear diff",
            ours: oursTime, baseline: baseline, target: 0.5)
        print("  (\(difference.moves.count) moves reported, the linear diff \(linear.moves.count))")
    }

    /// `old` with a tenth of it removed, `adding` inserted and a fiftieth
    /// moved, each at random places. Cost: O(n log n), where editing an
    /// array in place would be quadratic.
    static func edit<Element>(_ old: [Element], adding: [Element], random: inout SplitMix) -> (old: [Element], new: [Element]) {
        let (removals, moves) = (old.count / 10, old.count / 50)
        var leaving = Set<Int>()
        while leaving.count < removals + moves { leaving.insert(Int(random.next() % UInt64(old.count))) }
        let moved = leaving.sorted().shuffled(using: &random).prefix(moves).map { old[$0] }
        let staying = old.indices.filter { !leaving.contains($0) }.map { old[$0] }
        let arriving = (adding + moved).map { ($0, Int(random.next() % UInt64(staying.count + 1))) }.sorted { $0.1 < $1.1 }
        var new: [Element] = []
        new.reserveCapacity(staying.count + arriving.count)
        var next = arriving.startIndex
        for position in 0...staying.count {
            while next < arriving.endIndex && arriving[next].1 == position {
                new.append(arriving[next].0)
                next += 1
            }
            if position < staying.count { new.append(staying[position]) }
        }
        return (old, new)
    }

    /// Whether removing `removed` from `old`, inserting `inserted` and
    /// moving `moves` gives exactly `new`, as a collection view's batch
    /// update would: every removed element is gone, every inserted one new,
    /// each move carries the same element, and what stays in place keeps
    /// its order.
    static func replays<Element: Hashable>(old: [Element], new: [Element], removed: [Int], inserted: [Int], moves: [(from: Int, to: Int)]) -> Bool {
        let newSet = Set(new)
        let oldSet = Set(old)
        guard removed.allSatisfy({ !newSet.contains(old[$0]) }), inserted.allSatisfy({ !oldSet.contains(new[$0]) }),
            moves.allSatisfy({ old[$0.from] == new[$0.to] })
        else { return false }
        let leavingOld = Set(removed).union(moves.map(\.from))
        let arrivingNew = Set(inserted).union(moves.map(\.to))
        let stayingOld = old.indices.filter { !leavingOld.contains($0) }.map { old[$0] }
        let stayingNew = new.indices.filter { !arrivingNew.contains($0) }.map { new[$0] }
        return stayingOld == stayingNew && old.count - removed.count == new.count - inserted.count
    }

    /// Another process commits `commits` change blocks, `pauseMilliseconds`
    /// apart (none: a burst); each one's time from its commit there to its
    /// callback here. Fails when a commit never arrives.
    private func crossProcessLatency(commits: Int, pauseMilliseconds: Int) throws {
        let url = workdir.appendingPathComponent("latency-\(UUID().uuidString).photoslibrary")
        defer { try? FileManager.default.removeItem(at: url) }
        let library = try PHPhotoLibrary(url: url)
        final class ArrivalObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
            var albums: PHFetchResult<PHAssetCollection>
            var arrivals: [Int: UInt64] = [:]
            let lock = NSLock()
            init(albums: PHFetchResult<PHAssetCollection>) { self.albums = albums }
            func photoLibraryDidChange(_ change: PHChange) {
                let now = DispatchTime.now().uptimeNanoseconds
                guard let details = change.changeDetails(for: albums) else { return }
                albums = details.fetchResultAfterChanges
                // A change too large to animate (the first delivery of a
                // burst, say, bringing ten albums to an empty result) has no
                // inserted objects: as an app reloads then, every album of
                // the new result not seen before has arrived.
                let arrived =
                    details.hasIncrementalChanges
                    ? details.insertedObjects : albums.objects(at: IndexSet(integersIn: 0..<albums.count))
                lock.lock()
                for album in arrived {
                    if let index = album.localizedTitle.flatMap({ Int($0.split(separator: "-").last ?? "") }), arrivals[index] == nil {
                        arrivals[index] = now
                    }
                }
                lock.unlock()
            }
        }
        let observer = ArrivalObserver(
            albums: library.withCurrentLibrary {
                PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
            })
        library.register(observer)
        defer { library.unregisterChangeObserver(observer) }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["commit-child", "--library", url.path, "--count", String(commits), "--pause-ms", String(pauseMilliseconds)]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            observer.lock.lock()
            let seen = observer.arrivals.count
            observer.lock.unlock()
            if seen == commits { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        var latencies: [Double] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let index = Int(fields[0]), let committed = UInt64(fields[1]) else { continue }
            observer.lock.lock()
            let arrival = observer.arrivals[index]
            observer.lock.unlock()
            if let arrival { latencies.append(Double(Int64(arrival) - Int64(committed)) / 1_000_000) }
        }
        guard latencies.count == commits else {
            throw BenchError("cross-process commit to callback: only \(latencies.count) of \(commits) commits arrived")
        }
        let name =
            pauseMilliseconds > 0
            ? "cross-process commit to callback, p99 of \(commits) commits \(pauseMilliseconds) ms apart"
            : "cross-process commit to callback, p99 of a burst of \(commits) commits"
        Measure.reportAbsolute(name, ours: Measure.percentile(latencies, 0.99), target: 50)
        print(
            String(
                format: "  (median %@ ms, slowest %@ ms)", Measure.milliseconds(Measure.percentile(latencies, 0.5)),
                Measure.milliseconds(latencies.max() ?? .nan)))
    }

    /// Commits change blocks, one new album each, `pause` apart: `count` of
    /// them, printing when each committed; or, when `count` is nil, until
    /// standard input closes, then deletes the albums it made in one more
    /// block and prints how many blocks it committed.
    static func commitForLatency(library url: URL, count: Int?, pause: TimeInterval) throws {
        let library = try PHPhotoLibrary(url: url)
        let stopped = StopSignal()
        if count == nil {
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                stopped.stop()
            }
        }
        var made: [String] = []
        var index = 0
        while count.map({ index < $0 }) ?? !stopped.isStopped {
            try library.performChangesAndWait {
                made.append(
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "bench-\(index)")
                        .placeholderForCreatedAssetCollection.localIdentifier)
            }
            if count != nil { print(index, DispatchTime.now().uptimeNanoseconds) }
            index += 1
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
        guard count == nil else { return }
        try library.performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections(
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: made, options: nil))
        }
        print(index)
    }

    /// Set once, from another thread, to end ``commitForLatency(library:count:pause:)``.
    private final class StopSignal: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false

        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }
    }
}
