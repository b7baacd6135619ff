import Foundation
import GRDB
import Photos
import PhotosMedia
import PhotosStore

/// Changes observed on a sorted fetch of every asset, each timed from before
/// the change block to the observer holding its details, against
/// ``IncrementalTimeline`` on a copy of the library's database making the
/// same change: one photo imported (the baseline copies, hashes, reads the
/// EXIF date and makes the thumbnail as the engine does, then inserts the
/// row), and 100 assets given new creation dates, 100 and 10,000 assets
/// moved to Recently Deleted. Each side works on its own fresh copy of the
/// library (``BenchLibrary/workingCopy(of:in:)``), and every change is
/// undone, untimed, after its turn, so that the library is the same in
/// every turn and every run.
struct ObservedChanges {
    let assetCount: Int
    let workdir: URL
    /// The library as built, which both sides copy and neither changes.
    let library: URL

    /// Turns of each row, each side's order drawn afresh for each.
    private let turns = 7

    /// What one delivered change did to the observed fetch.
    struct DeliveredChange {
        let arrivedAt: UInt64
        let removed: Int
        let inserted: Int
        let changed: Int
        let moves: Int
    }

    /// Holds a sorted fetch of every asset and notes the details of each
    /// change as they arrive.
    final class DetailsObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
        /// The fetch as the last change left it; only the callback sets it.
        private(set) var result: PHFetchResult<PHAsset>
        private let condition = NSCondition()
        private var delivered: [DeliveredChange] = []

        init(result: PHFetchResult<PHAsset>) {
            self.result = result
        }

        func photoLibraryDidChange(_ change: PHChange) {
            guard let details = change.changeDetails(for: result) else { return }
            var moves = 0
            if details.hasMoves { details.enumerateMoves { _, _ in moves += 1 } }
            let entry = DeliveredChange(
                arrivedAt: DispatchTime.now().uptimeNanoseconds,
                removed: details.removedIndexes?.count ?? 0, inserted: details.insertedIndexes?.count ?? 0,
                changed: details.changedIndexes?.count ?? 0, moves: moves)
            result = details.fetchResultAfterChanges
            condition.withLock {
                delivered.append(entry)
                condition.broadcast()
            }
        }

        /// How many changes have arrived: the mark to wait after.
        var mark: Int { condition.withLock { delivered.count } }

        /// The first change after `mark` that `matches`, waiting up to a minute for it.
        func change(after mark: Int, matching matches: (DeliveredChange) -> Bool) throws -> DeliveredChange {
            let deadline = Date().addingTimeInterval(60)
            return try condition.withLock {
                var next = mark
                while true {
                    while next < delivered.count {
                        if matches(delivered[next]) { return delivered[next] }
                        next += 1
                    }
                    guard condition.wait(until: deadline) else {
                        throw BenchError("the observer did not get the details of a change within a minute")
                    }
                }
            }
        }
    }

    /// One change both sides make and undo.
    private struct Change {
        let name: String
        let target: Double
        /// Chooses what to change, untimed, before each turn of either side.
        var prepare: () throws -> Void = {}
        /// Makes the change through PhotoKit; returns when it is committed.
        let ours: () throws -> Void
        /// Whether delivered details are this change's.
        let oursDetails: (DeliveredChange) -> Bool
        let undoOurs: () throws -> Void
        let undoneDetails: (DeliveredChange) -> Bool
        /// Makes the change on the baseline's database.
        let baseline: () throws -> Void
        /// Whether the baseline's last details are this change's.
        let baselineDetails: (IncrementalTimeline.Details) -> Bool
        let undoBaseline: () throws -> Void
    }

    func run() throws {
        let pool = try BenchLibrary.durablePool(BenchLibrary.workingCopy(of: library, in: workdir))
        let timeline = try pool.read { try IncrementalTimeline($0, visible: FetchBenchmarks.visible) }
        pool.add(transactionObserver: timeline, extent: .observerLifetime)

        let photoLibrary = try PHPhotoLibrary(url: BenchLibrary.workingCopy(of: library, in: workdir))
        let sorted = PHFetchOptions()
        sorted.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let observer = DetailsObserver(result: photoLibrary.withCurrentLibrary { PHAsset.fetchAssets(with: sorted) })
        photoLibrary.register(observer)
        defer { photoLibrary.unregisterChangeObserver(observer) }
        guard observer.result.count == timeline.keys.count else {
            throw BenchError("the baseline lists \(timeline.keys.count) assets where the library fetches \(observer.result.count)")
        }

        for change in [
            try insertion(photoLibrary, pool, timeline), reorder(100, photoLibrary, pool, timeline),
            deletion(100, photoLibrary, pool, timeline), deletion(min(10_000, timeline.keys.count / 2), photoLibrary, pool, timeline),
        ] {
            try measure(change, observer: observer, timeline: timeline)
        }
    }

    /// The change's turns; prints its row, the medians of both sides.
    private func measure(_ change: Change, observer: DetailsObserver, timeline: IncrementalTimeline) throws {
        var ours: [Double] = []
        var baseline: [Double] = []
        func oursTurn() throws {
            try change.prepare()
            let mark = observer.mark
            let start = DispatchTime.now().uptimeNanoseconds
            try change.ours()
            let arrived = try observer.change(after: mark, matching: change.oursDetails).arrivedAt
            ours.append(Double(arrived - start) / 1_000_000)
            let undone = observer.mark
            try change.undoOurs()
            _ = try observer.change(after: undone, matching: change.undoneDetails)
        }
        func baselineTurn() throws {
            try change.prepare()
            let start = DispatchTime.now().uptimeNanoseconds
            try change.baseline()
            baseline.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            if let failure = timeline.failure { throw failure }
            guard let details = timeline.details, change.baselineDetails(details) else {
                throw BenchError("the baseline's details of \(change.name) are not what it changed")
            }
            try change.undoBaseline()
        }
        // A warm-up turn of each, not measured.
        try oursTurn()
        try baselineTurn()
        (ours, baseline) = ([], [])
        for _ in 0..<turns {
            if Bool.random() {
                try oursTurn()
                try baselineTurn()
            } else {
                try baselineTurn()
                try oursTurn()
            }
        }
        Measure.report(
            "\(change.name) in \(assetCount) assets, from before the change block to details in the observer, against an incremental GRDB observer",
            ours: Measure.percentile(ours, 0.5), baseline: Measure.percentile(baseline, 0.5), target: change.target)
        print(
            String(
                format: "  (ours %@–%@ ms, the baseline %@–%@ ms over %d turns)",
                Measure.milliseconds(ours.min()!), Measure.milliseconds(ours.max()!),
                Measure.milliseconds(baseline.min()!), Measure.milliseconds(baseline.max()!), turns))
    }

    // MARK: - The changes

    /// One photo imported: ours through a creation request, the baseline by
    /// ``ImportBaseline``.
    private func insertion(_ photoLibrary: PHPhotoLibrary, _ pool: DatabasePool, _ timeline: IncrementalTimeline) throws -> Change {
        var exif = ExifFields()
        let middle = BenchLibrary.start.addingTimeInterval(BenchLibrary.span / 2)
        (exif.dateTimeOriginal, exif.offsetTimeOriginal) = ExifFields.exifDateTime(middle, utcOffset: 0)
        let photo = workdir.appendingPathComponent("insert.jpg")
        try SampleImage.jpeg(width: 64, height: 48, from: (0, 0, 0), to: (200, 100, 50), exif: exif).write(to: photo)
        let files = workdir.appendingPathComponent("observe-baseline-files")
        try? FileManager.default.removeItem(at: files)
        let importer = try ImportBaseline(files: files, pool: pool)

        var created = ""
        var baselineUUIDs: [String] = []
        return Change(
            name: "one photo imported", target: 1.5,
            ours: {
                try photoLibrary.performChangesAndWait {
                    created = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)!.placeholderForCreatedAsset!.localIdentifier
                }
            },
            oursDetails: { $0.inserted == 1 && $0.removed == 0 },
            undoOurs: {
                try photoLibrary.performChangesAndWait {
                    PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil))
                }
                try photoLibrary.emptyRecentlyDeleted()
            },
            undoneDetails: { $0.removed == 1 },
            baseline: { baselineUUIDs = try importer.importPhotos([photo]) },
            baselineDetails: { $0.inserted.count == 1 && $0.removed.isEmpty },
            undoBaseline: { try importer.remove(baselineUUIDs) })
    }

    /// `count` assets given new creation dates at random, which moves them in the sorted fetch.
    private func reorder(_ count: Int, _ photoLibrary: PHPhotoLibrary, _ pool: DatabasePool, _ timeline: IncrementalTimeline) -> Change {
        var chosen: [(key: IncrementalTimeline.Key, uuid: String, newDate: Double)] = []
        var assets: [PHAsset] = []
        var draws = SplitMix(state: UInt64(assetCount + count))
        let choose = {
            let keys = Self.sample(count, of: timeline.keys, &draws)
            let uuids = try Self.uuids(keys.map(\.id), pool)
            chosen = zip(keys, uuids).map { ($0, $1, BenchLibrary.start.timeIntervalSince1970 + Double(draws.next() % UInt64(BenchLibrary.span))) }
            let fetched = photoLibrary.withCurrentLibrary {
                PHAsset.fetchAssets(withLocalIdentifiers: uuids, options: nil)
            }
            assets = fetched.objects(at: IndexSet(integersIn: 0..<fetched.count))
        }
        func setDates(_ date: @escaping (Int) -> Double) throws {
            let byUUID = Dictionary(uniqueKeysWithValues: chosen.enumerated().map { ($1.uuid, $0) })
            try photoLibrary.performChangesAndWait {
                for asset in assets {
                    let index = byUUID[String(asset.localIdentifier.prefix(36))]!
                    PHAssetChangeRequest(for: asset).creationDate = Date(timeIntervalSince1970: date(index))
                }
            }
        }
        func setBaselineDates(_ date: (Int) -> Double) throws {
            try pool.write { db in
                let statement = try db.makeStatement(sql: "UPDATE asset SET creation_date = ?, modification_date = ? WHERE id = ?")
                let now = Date().timeIntervalSince1970
                for (index, entry) in chosen.enumerated() { try statement.execute(arguments: [date(index), now, entry.key.id]) }
            }
        }
        let touched: (DeliveredChange) -> Bool = { $0.removed == 0 && $0.inserted == 0 && $0.moves + $0.changed > 0 }
        return Change(
            name: "\(count) assets given new creation dates", target: 2, prepare: choose,
            ours: { try setDates { chosen[$0].newDate } },
            oursDetails: touched,
            undoOurs: { try setDates { chosen[$0].key.date } },
            undoneDetails: touched,
            baseline: { try setBaselineDates { chosen[$0].newDate } },
            baselineDetails: { $0.removed.count == count && $0.inserted.count == count },
            undoBaseline: { try setBaselineDates { chosen[$0].key.date } })
    }

    /// `count` assets deleted (to Recently Deleted), then restored.
    private func deletion(_ count: Int, _ photoLibrary: PHPhotoLibrary, _ pool: DatabasePool, _ timeline: IncrementalTimeline) -> Change {
        var ids: [Int64] = []
        var assets: PHFetchResult<PHAsset>?
        var draws = SplitMix(state: UInt64(assetCount + count + 1))
        let choose = {
            ids = Self.sample(count, of: timeline.keys, &draws).map(\.id)
            let uuids = try Self.uuids(ids, pool)
            assets = photoLibrary.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: uuids, options: nil) }
        }
        func setTrashed(_ date: Date?) throws {
            try pool.write { db in
                try db.execute(
                    sql: "UPDATE asset SET trashed_date = ? WHERE id IN (SELECT value FROM json_each(?))",
                    arguments: [date?.timeIntervalSince1970, BenchLibrary.jsonList(ids)])
            }
        }
        return Change(
            name: "\(count) assets deleted", target: 2, prepare: choose,
            ours: { try photoLibrary.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets!) } },
            oursDetails: { $0.removed == count },
            undoOurs: { try photoLibrary.performChangesAndWait { PHAssetChangeRequest.restoreDeletedAssets(assets!) } },
            undoneDetails: { $0.inserted == count },
            baseline: { try setTrashed(Date()) },
            baselineDetails: { $0.removed.count == count && $0.inserted.isEmpty },
            undoBaseline: { try setTrashed(nil) })
    }

    // MARK: - Setup

    /// `count` distinct keys of `keys`, at random.
    private static func sample(_ count: Int, of keys: [IncrementalTimeline.Key], _ random: inout SplitMix) -> [IncrementalTimeline.Key] {
        var positions = Set<Int>()
        while positions.count < count { positions.insert(Int(random.next() % UInt64(keys.count))) }
        return positions.map { keys[$0] }
    }

    /// The UUIDs of the assets `ids`, in their order.
    private static func uuids(_ ids: [Int64], _ pool: DatabasePool) throws -> [String] {
        let byID = try pool.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db, sql: "SELECT id, uuid FROM asset WHERE id IN (SELECT value FROM json_each(?))",
                    arguments: [BenchLibrary.jsonList(ids)]
                ).map { ($0[0] as Int64, $0[1] as String) })
        }
        return ids.map { byID[$0]! }
    }
}
