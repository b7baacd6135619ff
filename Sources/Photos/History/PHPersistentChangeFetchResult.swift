import Foundation
import PhotosStore

/// The changes of a library since a token, oldest first: a sequence of
/// ``PHPersistentChange``, one per committed change block, from every
/// process. A limited client gets only the changes that concern its
/// selection.
///
/// The list of changes is fixed when it is fetched; their details are read
/// as the sequence is iterated, a page of change blocks at a time, so
/// iterating a long history costs memory for one page only.
public final class PHPersistentChangeFetchResult: NSObject, @unchecked Sendable {
    let library: PHPhotoLibrary
    let records: [PersistentChangeRecord]

    init(library: PHPhotoLibrary, records: [PersistentChangeRecord]) {
        self.library = library
        self.records = records
    }

    /// The most change blocks whose details are read in one query.
    static let blocksPerPage = 4_096
    /// The most object changes a page holds, unless one block alone has
    /// more: what bounds a page's memory when blocks are large.
    static let objectsPerPage = 8_192

    /// The end of the page of records that starts at `start`: as many
    /// blocks as fit both limits, and at least one. Each block's object
    /// count bounds what its details hold, so small blocks make few pages
    /// (each page is a read transaction) and large ones keep a page small.
    func pageEnd(from start: Int) -> Int {
        var end = start
        var objects = 0
        while end < records.count && end - start < Self.blocksPerPage {
            objects += records[end].objectCount
            guard end == start || objects <= Self.objectsPerPage else { break }
            end += 1
        }
        return end
    }

    /// The changes of `records[range]`, with their details.
    func changes(in range: Range<Int>) -> [PHPersistentChange] {
        let listed = records[range]
        guard let first = listed.first, let last = listed.last else { return [] }
        let page: Result<HistoryPage, PHPhotosError>
        if let store = library.store {
            do {
                page = .success(try store.persistentChangeEntries(after: first.point.changeBlock - 1, through: last.point.changeBlock))
            } catch {
                page = .failure(PHPhotosError(storeError: error))
            }
        } else {
            page = .failure(PHPhotosError(.libraryVolumeOffline, "the library is unavailable"))
        }
        // Entries come in commit order, so each change's are the next run of
        // them, after those of blocks this reader is not shown.
        let entries = (try? page.get().entries) ?? []
        let libraryUUID = library.store?.libraryUUID ?? ""
        var next = 0
        return listed.map { record in
            while next < entries.count && entries[next].changeBlock < record.point.changeBlock { next += 1 }
            let start = next
            while next < entries.count && entries[next].changeBlock == record.point.changeBlock { next += 1 }
            let own = entries[start..<next]
            // A reader whose tokens are opaque is not told the block's number either.
            var block: String {
                record.tokenPoint.isOpaque ? "the change block committed \(record.committedAt)" : "change block \(record.point.changeBlock)"
            }
            let contents: Result<ArraySlice<HistoryEntry>, PHPhotosError>
            switch (record.details, page) {
            case (_, .failure(let error)):
                contents = .failure(error)
            case (.dropped, _):
                contents = .failure(
                    PHPhotosError(
                        .persistentChangeDetailsUnavailable,
                        """
                        \(block) touched \(record.tokenPoint.isOpaque ? "more objects" : "\(record.objectCount) objects"), more than the library keeps details \
                        for; refetch the objects you track
                        """))
            case (.accessChanged, _):
                contents = .failure(
                    PHPhotosError(
                        .persistentChangeDetailsUnavailable,
                        """
                        in \(block) the library's owner changed this client's access, so what \
                        it can see changed wholesale; refetch the objects you track
                        """))
            case (.kept, .success(let read)) where record.point.changeBlock <= read.prunedThrough:
                contents = .failure(
                    PHPhotosError(
                        .persistentChangeDetailsUnavailable,
                        """
                        the details of \(block) were pruned while the changes were read; \
                        refetch the objects you track
                        """))
            case (.kept, .success):
                contents = .success(own)
            }
            return PHPersistentChange(libraryUUID: libraryUUID, point: record.tokenPoint, committedAt: record.committedAt, contents: contents)
        }
    }
}

extension PHPersistentChangeFetchResult: Sequence {
    /// Steps through a fetch result's changes, reading their details a page at a time.
    public final class Iterator: IteratorProtocol {
        /// The type of the changes.
        public typealias Element = PHPersistentChange

        private let fetchResult: PHPersistentChangeFetchResult
        private var page: [PHPersistentChange] = []
        private var pageStart = 0
        private var position = 0

        /// An iterator from the first change of `fetchResult`.
        public init(fetchResult: PHPersistentChangeFetchResult) {
            self.fetchResult = fetchResult
        }

        /// The next change, or nil after the last.
        public func next() -> PHPersistentChange? {
            guard position < fetchResult.records.count else { return nil }
            if position >= pageStart + page.count {
                pageStart = position
                page = fetchResult.changes(in: position..<fetchResult.pageEnd(from: position))
            }
            defer { position += 1 }
            return page[position - pageStart]
        }
    }

    /// The type of the changes.
    public typealias Element = PHPersistentChange

    /// An iterator over the changes, oldest first.
    public func makeIterator() -> Iterator {
        Iterator(fetchResult: self)
    }

    /// How many changes there are, without reading their details.
    public var underestimatedCount: Int { records.count }
}
