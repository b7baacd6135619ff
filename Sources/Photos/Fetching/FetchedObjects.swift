import Foundation
import PhotosStore
import Synchronization

/// The contents of a fetch result: row ids frozen at fetch time, turned into
/// objects on demand in batches, with a bounded cache; or objects already in
/// memory (moments, transient collections).
final class FetchedObjects: @unchecked Sendable {
    /// What the rows are, and so which class each object is built as.
    enum RowKind: Equatable {
        case assets
        /// Collections of one kind, when the result's element type says
        /// which (`PHAssetCollection`, `PHCollectionList`); nil when it holds
        /// both (`PHCollection`).
        case collections(CollectionKind?)

        /// The row kind of a fetch result of collections of type `T`.
        static func collections<T: PHCollection>(of type: T.Type) -> RowKind {
            if type is PHCollectionList.Type { return .collections(.collectionList) }
            if type is PHAssetCollection.Type { return .collections(.assetCollection) }
            return .collections(nil)
        }
    }

    enum Source {
        case rows(PHPhotoLibrary, RowKind, [Int64])
        case objects([PHObject])
    }

    let source: Source
    /// The query that selected the rows, which an enumeration may run
    /// again (see ``forEachChunk(in:reverse:_:)``); nil when there is none
    /// to run, or it would select rows by id anyway.
    private let query: AssetQuery?
    /// Whether assets are read with their caption and keywords
    /// (``PHFetchOptions/prefetchAssetExtendedMetadata``).
    let prefetchesExtendedMetadata: Bool
    private let cache = Mutex(WindowCache())
    private let mediaTypeCounts = Mutex<[AssetMediaType: Int]>([:])

    /// Stands in for the identifier of a row that cannot be read.
    private static let unknownUUID = "00000000-0000-0000-0000-000000000000"

    /// Objects loaded around an index read at random; also the unit of the cache.
    static let windowSize = 32
    /// Objects loaded per query when reading consecutive indexes (enumeration).
    static let chunkSize = 1024

    init(_ source: Source, query: AssetQuery? = nil, prefetchesExtendedMetadata: Bool = false) {
        self.source = source
        self.query = query
        self.prefetchesExtendedMetadata = prefetchesExtendedMetadata
    }

    static let empty = FetchedObjects(.objects([]))

    var count: Int {
        switch source {
        case .rows(_, _, let ids): ids.count
        case .objects(let objects): objects.count
        }
    }

    /// The object at `index`. Read next to the index read before it (as a
    /// scrolling view or a loop does), it comes with the rest of its
    /// window, so the neighbours that follow cost no query; read elsewhere
    /// (at random), it is loaded alone, so a jump does not pay for 31 rows
    /// it will not use.
    func object(at index: Int) -> PHObject {
        switch source {
        case .objects(let objects):
            return objects[index]
        case .rows:
            let (cached, sequential) = cache.withLock { cache in (cache.object(at: index), cache.readsNext(index)) }
            if let cached { return cached }
            let range: Range<Int>
            if sequential {
                let start = index / Self.windowSize * Self.windowSize
                range = start..<min(count, start + Self.windowSize)
            } else {
                range = index..<(index + 1)
            }
            let objects = load(range)
            cache.withLock { $0.insert(objects, at: range) }
            return objects[index - range.lowerBound]
        }
    }

    /// The objects at consecutive indexes, loaded a chunk per query, past the cache.
    func objects(in range: Range<Int>) -> [PHObject] {
        switch source {
        case .objects(let objects):
            return Array(objects[range])
        case .rows:
            return stride(from: range.lowerBound, to: range.upperBound, by: Self.chunkSize).flatMap { start in
                load(start..<min(range.upperBound, start + Self.chunkSize))
            }
        }
    }

    /// Calls `body` with the objects of `range` a chunk at a time, with the
    /// index of each chunk's first object, the chunks last to first when
    /// `reverse`, until `body` returns false. While `body` goes through one
    /// chunk, the next ``chunksAhead`` load on other threads, so the
    /// database's work and the caller's overlap. When every object is
    /// asked for and the store scans more cheaply than it looks rows up
    /// (PostgreSQL), the chunks come from running the fetch's query again,
    /// as long as its rows are the fetched ones in the same order; from the
    /// first chunk that differs (the library changed since the fetch), they
    /// are loaded by id. Cost: one query per chunk of ``chunkSize``, or one
    /// pass of the query; when `body` stops early, the chunks loaded ahead
    /// are dropped.
    func forEachChunk(in range: Range<Int>, reverse: Bool, _ body: (_ start: Int, _ objects: [PHObject]) -> Bool) {
        let chunks =
            reverse
            ? stride(from: range.upperBound, to: range.lowerBound, by: -Self.chunkSize).map { max(range.lowerBound, $0 - Self.chunkSize)..<$0 }
            : stride(from: range.lowerBound, to: range.upperBound, by: Self.chunkSize).map { $0..<min(range.upperBound, $0 + Self.chunkSize) }
        guard case .rows = source, chunks.count > 1 else {
            for chunk in chunks where !body(chunk.lowerBound, objects(in: chunk)) { return }
            return
        }
        var remaining = chunks[...]
        if range == 0..<count, let scan = scanAhead(chunks, reverse: reverse) {
            while let objects = scan.next() {
                let chunk = remaining.removeFirst()
                if !body(chunk.lowerBound, objects) {
                    scan.cancel()
                    return
                }
            }
        }
        var ahead: [LoadedAhead] = []
        var requested = remaining.startIndex
        func loadAhead() {
            while requested < remaining.endIndex && ahead.count < Self.chunksAhead {
                let chunk = remaining[requested]
                ahead.append(LoadedAhead { self.load(chunk) })
                requested += 1
            }
        }
        loadAhead()
        for chunk in remaining {
            let objects = ahead.removeFirst().wait()
            loadAhead()
            if !body(chunk.lowerBound, objects) { return }
        }
    }

    /// The objects of `chunks`, in their order, from one scan of the
    /// fetch's query on another thread; nil when the store looks rows up
    /// as cheaply, or there is no query to run. The scan stops at the first
    /// chunk whose rows are not the fetched ones, in the same order.
    private func scanAhead(_ chunks: [Range<Int>], reverse: Bool) -> ScanAhead? {
        guard case .rows(let library, .assets, let ids) = source, let query, let store = library.store,
            store.scansCostLessThanLookups
        else { return nil }
        let extendedMetadata = prefetchesExtendedMetadata
        return ScanAhead(capacity: Self.chunksAhead) { deliver in
            var next = 0
            do {
                _ = try store.scanAssets(
                    query, reverse: reverse, batchSize: Self.chunkSize, extendedMetadata: extendedMetadata
                ) { records in
                    guard next < chunks.count else { return false }
                    let chunk = chunks[next]
                    let ordered = reverse ? records.reversed() : records
                    guard ordered.count == chunk.count, zip(ordered, ids[chunk]).allSatisfy({ $0.id == $1 }) else { return false }
                    next += 1
                    return deliver(ordered.map { PHAsset(record: $0, library: library) })
                }
            } catch {
                Diagnostics.report(error, while: "reading fetched objects")
            }
        }
    }

    /// Chunks loading at once during an enumeration, each in its own read
    /// transaction: the database works on the next ones while the caller
    /// goes through the current one.
    static let chunksAhead = 2

    /// Loads one batch; rows deleted since the fetch come back as objects that
    /// keep only their identifier, of the class the result's rows are.
    private func load(_ range: Range<Int>) -> [PHObject] {
        guard case .rows(let library, let kind, let allIDs) = source, let store = library.store else { return [] }
        let ids = Array(allIDs[range])
        do {
            switch kind {
            case .assets:
                let records = try store.assets(ids: ids, extendedMetadata: prefetchesExtendedMetadata)
                if records.count == ids.count {
                    return records.map { PHAsset(record: $0, library: library) }
                }
                let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
                let deleted = try store.deletedIdentifiers(entity: .asset, rowIDs: ids.filter { byID[$0] == nil })
                return ids.map { id in
                    if let record = byID[id] { return PHAsset(record: record, library: library) }
                    return PHAsset(deletedUUID: deleted[id]?.uuid ?? Self.unknownUUID, rowID: id, library: library)
                }
            case .collections(let elementKind):
                let records = Dictionary(uniqueKeysWithValues: try store.collections(ids: ids).map { ($0.id, $0) })
                let deleted =
                    records.count < ids.count
                    ? try store.deletedIdentifiers(entity: .assetCollection, rowIDs: ids.filter { records[$0] == nil }) : [:]
                return ids.map { id in
                    if let record = records[id] {
                        return record.kind == .assetCollection
                            ? PHAssetCollection(record: record, library: library)
                            : PHCollectionList(record: record, library: library)
                    }
                    return Self.deletedCollection(rowID: id, identifier: deleted[id], elementKind: elementKind, library: library)
                }
            }
        } catch {
            Diagnostics.report(error, while: "loading fetched objects")
            return ids.map { unreadable(rowID: $0, kind: kind, library: library) }
        }
    }

    /// A collection deleted since the fetch: of the result's element kind
    /// when it has one, else of the kind the deletion recorded.
    private static func deletedCollection(
        rowID: Int64, identifier: LocalIdentifier?, elementKind: CollectionKind?,
        library: PHPhotoLibrary
    ) -> PHObject {
        let kind = elementKind ?? (identifier?.entity == .collectionList ? .collectionList : .assetCollection)
        let localIdentifier = LocalIdentifier(uuid: identifier?.uuid ?? unknownUUID, entity: kind.entity).description
        return kind == .collectionList
            ? PHCollectionList(content: .deleted(rowID: rowID), localIdentifier: localIdentifier, library: library)
            : PHAssetCollection(content: .deleted(rowID: rowID), localIdentifier: localIdentifier, library: library)
    }

    /// Stands for a row that could not be read, as the class the result's rows are.
    private func unreadable(rowID: Int64, kind: RowKind, library: PHPhotoLibrary) -> PHObject {
        switch kind {
        case .assets: PHAsset(deletedUUID: Self.unknownUUID, rowID: rowID, library: library)
        case .collections(let elementKind):
            Self.deletedCollection(rowID: rowID, identifier: nil, elementKind: elementKind, library: library)
        }
    }

    /// The row ids of the assets, in order, when the result holds stored
    /// assets of `library`; nil otherwise. Cost: none (they are what the
    /// result holds).
    func assetRowIDs(of library: PHPhotoLibrary) -> [Int64]? {
        guard case .rows(let owner, .assets, let ids) = source, owner === library else { return nil }
        return ids
    }

    /// The UUIDs of every object, in order, read without building the
    /// objects: what a change request passed the whole result needs. Rows
    /// deleted since the fetch give the UUID their deletion recorded. Nil
    /// when the objects are already in memory, or the rows are not of
    /// `entity` (assets, or collections of either kind), so that the caller
    /// goes through the objects. Cost: one query.
    func uuids(of entity: StoreEntity) -> [String]? {
        guard case .rows(let library, let kind, let ids) = source, (kind == .assets) == (entity == .asset),
            let store = library.store
        else { return nil }
        let storedEntity: StoreEntity = kind == .assets ? .asset : .assetCollection
        do {
            let stored = try store.uuids(entity: storedEntity, rowIDs: ids)
            let missing = ids.filter { stored[$0] == nil }
            let deleted = missing.isEmpty ? [:] : try store.deletedIdentifiers(entity: storedEntity, rowIDs: missing)
            return ids.map { stored[$0] ?? deleted[$0]?.uuid ?? Self.unknownUUID }
        } catch {
            Diagnostics.report(error, while: "reading the identifiers of fetched objects")
            return ids.map { _ in Self.unknownUUID }
        }
    }

    /// The position of an object in `range`, or nil.
    func position(of object: PHObject, in range: Range<Int>) -> Int? {
        switch source {
        case .objects(let objects):
            return range.first { objects[$0] == object }
        case .rows(let library, let kind, let ids):
            guard let rowID = rowID(of: object, library: library, kind: kind) else { return nil }
            return range.first { ids[$0] == rowID }
        }
    }

    private func rowID(of object: PHObject, library: PHPhotoLibrary, kind: RowKind) -> Int64? {
        if object.library === library {
            if kind == .assets, let asset = object as? PHAsset { return asset.record.id }
            if kind != .assets, let collection = object as? PHCollection, let id = collection.storedRowID { return id }
        }
        // A placeholder, or an object from another fetch of the same library: look it up.
        guard let identifier = object.parsedIdentifier, (identifier.entity == .asset) == (kind == .assets) else { return nil }
        return try? library.store?.rowIDs(entity: identifier.entity, uuids: [identifier.uuid])[identifier.uuid]
    }

    /// How many of the fetched objects are assets of a media type. Cost: one
    /// query for row-backed results, then cached.
    func countOfAssets(mediaType: AssetMediaType) -> Int {
        if let cached = mediaTypeCounts.withLock({ $0[mediaType] }) { return cached }
        let count: Int
        switch source {
        case .objects(let objects):
            count = objects.count { ($0 as? PHAsset)?.record.mediaType == mediaType }
        case .rows(let library, let kind, let ids):
            guard kind == .assets, let store = library.store else { return 0 }
            do {
                count = try store.countAssets(ids: ids, mediaType: mediaType)
            } catch {
                Diagnostics.report(error, while: "counting assets")
                return 0
            }
        }
        mediaTypeCounts.withLock { $0[mediaType] = count }
        return count
    }
}

/// A chunk of objects loaded on another thread while the caller works
/// through the chunk before it; waited for once.
private final class LoadedAhead: @unchecked Sendable {
    private let loaded = DispatchSemaphore(value: 0)
    /// Written by the loading thread before it signals `loaded`.
    private var objects: [PHObject] = []

    init(_ load: @escaping @Sendable () -> [PHObject]) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.objects = load()
            self.loaded.signal()
        }
    }

    func wait() -> [PHObject] {
        loaded.wait()
        return objects
    }
}

/// Chunks of objects read in order on another thread, by a producer that
/// hands each to `deliver` and stops when it returns false; at most
/// `capacity` wait for the caller.
private final class ScanAhead: @unchecked Sendable {
    private let capacity: Int
    /// Guards the state below, and wakes whichever side waits.
    private let condition = NSCondition()
    private var ready: [[PHObject]] = []
    private var produced = false
    private var cancelled = false

    init(capacity: Int, produce: @escaping @Sendable (_ deliver: ([PHObject]) -> Bool) -> Void) {
        self.capacity = capacity
        DispatchQueue.global(qos: .userInitiated).async {
            produce(self.put)
            self.condition.lock()
            self.produced = true
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// The next chunk, waiting for it; nil when the producer has finished.
    func next() -> [PHObject]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !produced { condition.wait() }
        guard !ready.isEmpty else { return nil }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// Tells the producer to stop; chunks it made are dropped.
    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Hands a chunk to the caller, waiting while `capacity` wait already;
    /// false when the caller has stopped.
    private func put(_ objects: [PHObject]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(objects)
        condition.broadcast()
        return true
    }
}

/// The most recently used windows of a fetch result.
struct WindowCache {
    /// Spans kept: windows of 32 objects, or single objects read at random;
    /// at most about 2,000 objects.
    static let capacity = 64

    private var spans: [(range: Range<Int>, objects: [PHObject])] = []
    /// The index read last, which tells sequential reading from random.
    private var lastRead: Int?

    /// The object at `index` when a span holds it, that span marked as the
    /// most recently used.
    mutating func object(at index: Int) -> PHObject? {
        guard let position = spans.lastIndex(where: { $0.range.contains(index) }) else { return nil }
        let entry = spans.remove(at: position)
        spans.append(entry)
        return entry.objects[index - entry.range.lowerBound]
    }

    /// Whether `index` is next to the index read before it; records it as read.
    mutating func readsNext(_ index: Int) -> Bool {
        defer { lastRead = index }
        guard let lastRead else { return false }
        return abs(index - lastRead) == 1
    }

    mutating func insert(_ objects: [PHObject], at range: Range<Int>) {
        spans.removeAll { $0.range == range }
        spans.append((range, objects))
        if spans.count > Self.capacity {
            spans.removeFirst()
        }
    }
}
