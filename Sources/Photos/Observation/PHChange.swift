import Foundation
import PhotosStore

/// What one or more committed change blocks did to the library, from this
/// process or any other. Observers receive one in `photoLibraryDidChange(_:)`
/// and ask it about the objects and fetch results they hold.
///
/// A change is lazy and stays valid after the callback returns: details are
/// computed when asked, from the history the library keeps. Details for a
/// fetch result always lead from that fetch result to the library as it is
/// when asked, so asking about the latest `fetchResultAfterChanges` never
/// applies a change twice, and an older fetch result is brought fully up to date.
public final class PHChange: NSObject, @unchecked Sendable {
    let library: PHPhotoLibrary
    /// The change covers the change blocks after this one...
    let fromTransaction: Int64
    /// ...up to and including this one.
    let toTransaction: Int64

    init(library: PHPhotoLibrary, from: Int64, to: Int64) {
        self.library = library
        fromTransaction = from
        toTransaction = to
    }

    /// How an object changed, or nil when these change blocks did not touch it.
    /// When the history cannot tell (it was pruned, or a block was too large
    /// to keep details), the object is compared with its current state.
    /// Cost: one history query, and one fetch of the object when it changed.
    public func changeDetails<T: PHObject>(for object: T) -> PHObjectChangeDetails<T>? {
        guard let store = library.store, let identifier = object.parsedIdentifier else { return nil }
        let span: HistorySpan
        do {
            span = try store.history(after: fromTransaction, through: toTransaction)
        } catch {
            Diagnostics.report(error, while: "reading change history")
            return nil
        }
        let entries = span.entries.filter { $0.identifier == identifier }
        let after = entries.isEmpty && span.isComplete ? nil : library.currentObject(identifier) as? T
        if entries.isEmpty {
            guard !span.isComplete, Self.stateDiffers(object, after) else { return nil }
        }
        let attributes = entries.reduce(into: Set<ChangedAttribute>()) { $0.formUnion($1.attributes) }
        return PHObjectChangeDetails(
            before: object, after: after, contentChanged: attributes.contains(.content),
            deleted: after == nil)
    }

    /// Whether an object's stored state differs from an earlier snapshot of it.
    private static func stateDiffers(_ before: PHObject, _ after: PHObject?) -> Bool {
        switch (before, after) {
        case (_, nil): true
        case (let before as PHAsset, let after as PHAsset): before.record != after.record
        case (let before as PHCollection, let after as PHCollection): before.filterableRow != after.filterableRow
        default: false
        }
    }

    /// How a fetch result changed, or nil when nothing it shows changed.
    ///
    /// Works for any fetch result this process made: assets (the library, an
    /// album, a smart album, a moment, identifiers), collections, folder
    /// contents, moments. Fetch results of transient collections never
    /// change. Cost: for asset fetches, grows with the number of objects the
    /// change blocks touched (see `FetchRefresher`); collections and
    /// moments are fetched again and diffed.
    public func changeDetails<T: PHObject>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let tracking = fetchResult.tracking, tracking.library === library,
            tracking.changeBlock < toTransaction, let store = library.store
        else { return nil }
        do {
            switch tracking.origin {
            case .assets(let query):
                guard case .rows(_, let kind, let ids) = fetchResult.contents.source,
                    let refresh = try store.refreshAssets(query, from: FetchSnapshot(ids: ids, changeBlock: tracking.changeBlock))
                else { return nil }
                return details(fetchResult, refresh, kind: kind, tracking: tracking)
            case .collections(let query):
                guard case .rows(_, let kind, let ids) = fetchResult.contents.source,
                    let refresh = try store.refreshCollections(query, from: FetchSnapshot(ids: ids, changeBlock: tracking.changeBlock))
                else { return nil }
                return details(fetchResult, refresh, kind: kind, tracking: tracking)
            case .computed(let compute):
                let now = try store.lastChangeBlock()
                let span = try store.history(after: tracking.changeBlock, through: now)
                guard !span.entries.isEmpty || !span.isComplete else { return nil }
                let objects = compute()
                let before = fetchResult.contents.objects(in: 0..<fetchResult.count)
                let previous = Dictionary(
                    before.map { ($0.localIdentifier, ($0 as? PHCollection)?.filterableRow) },
                    uniquingKeysWith: { first, _ in first })
                let changed = Set(
                    objects.compactMap { object -> String? in
                        guard let row = (object as? PHCollection)?.filterableRow, let old = previous[object.localIdentifier] else { return nil }
                        return old == row ? nil : object.localIdentifier
                    })
                let difference = IdentityDifference.between(before.map(\.localIdentifier), objects.map(\.localIdentifier), changed: changed)
                guard !difference.isEmpty else { return nil }
                let after = PHFetchResult<T>(contents: FetchedObjects(.objects(objects)), tracking: tracking.advanced(to: now))
                return PHFetchResultChangeDetails(
                    before: fetchResult, after: after, difference: difference,
                    wantsIncrementalChanges: tracking.wantsIncrementalChangeDetails)
            }
        } catch {
            Diagnostics.report(error, while: "computing change details")
            return nil
        }
    }

    /// How a fetch result of undeclared type changed, seen as PhotoKit objects.
    public func changeDetails(for fetchResult: PHFetchResult<AnyObject>) -> PHFetchResultChangeDetails<PHObject>? {
        changeDetails(for: fetchResult.viewed(as: PHObject.self))
    }

    private func details<T: PHObject>(
        _ before: PHFetchResult<T>, _ refresh: FetchRefresh, kind: FetchedObjects.RowKind,
        tracking: FetchTracking
    ) -> PHFetchResultChangeDetails<T> {
        let after = PHFetchResult<T>(
            contents: FetchedObjects(
                .rows(library, kind, refresh.snapshot.ids), query: tracking.assetQuery,
                prefetchesExtendedMetadata: before.contents.prefetchesExtendedMetadata),
            tracking: tracking.advanced(to: refresh.snapshot.changeBlock))
        return PHFetchResultChangeDetails(
            before: before, after: after, difference: refresh.difference,
            wantsIncrementalChanges: tracking.wantsIncrementalChangeDetails && refresh.isIncremental)
    }

    public override var description: String {
        "<PHChange> change blocks \(fromTransaction + 1)...\(toTransaction)"
    }
}
