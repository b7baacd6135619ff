import Foundation
import PhotosStore

/// How a fetch result changed: the result before, the result after (the
/// same as fetching again), and, when the change is small enough to
/// animate, which objects were removed, inserted, changed and moved.
///
/// Index spaces, chosen so that a collection view's batch update is simply
/// correct:
///
/// - `removedIndexes` are positions in `fetchResultBeforeChanges`;
/// - `insertedIndexes` and `changedIndexes` are positions in
///   `fetchResultAfterChanges`;
/// - each move goes from a position in `fetchResultBeforeChanges` to a
///   position in `fetchResultAfterChanges`.
///
/// Deleting `removedIndexes`, inserting `insertedIndexes` and moving the
/// moves, in one batch update, ends exactly at `fetchResultAfterChanges`:
/// every object not moved keeps its relative order. Reload `changedIndexes`
/// after the batch update (they are after-state positions). No object is
/// both removed and changed, and a moved object is never removed or
/// inserted; a moved object can also be changed.
///
/// `hasIncrementalChanges` is false, and the index sets nil, when the fetch
/// asked for no incremental details (`wantsIncrementalChangeDetails`), or
/// when the change touches more than half of the larger of the two results
/// and more than `PHFetchResultChangeDetails.largeChangeFloor` objects:
/// reloading is then better than animating.
public final class PHFetchResultChangeDetails<ObjectType: PHObject>: NSObject, @unchecked Sendable {
    /// Changes of at most this many objects are always incremental.
    static var largeChangeFloor: Int { 8 }

    /// The fetch result the details were asked for.
    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    /// The fetch result as it is now; fetching again would give the same.
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    /// Whether the index sets describe the change; when false, reload from `fetchResultAfterChanges`.
    public let hasIncrementalChanges: Bool
    private let difference: IdentityDifference

    init(before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, difference: IdentityDifference, incremental: Bool) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        self.difference = difference
        hasIncrementalChanges = incremental
    }

    /// Details for a refreshed fetch, incremental unless the fetch did not
    /// want it or the change is too large to animate.
    convenience init(
        before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, difference: IdentityDifference,
        wantsIncrementalChanges: Bool
    ) {
        let large = difference.size > max(Self.largeChangeFloor, max(before.count, after.count) / 2)
        self.init(before: before, after: after, difference: difference, incremental: wantsIncrementalChanges && !large)
    }

    /// The differences between any two fetch results, by object identity.
    /// PhotoKit cannot tell on its own which objects in both changed, so
    /// `changedObjects` says which; only those present in both count.
    /// Cost: O(n) in the results' sizes, plus O(m log m) for the m objects in
    /// both (to keep the most objects in place and move the rest).
    public convenience init(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>,
        changedObjects: [ObjectType]
    ) {
        let difference: IdentityDifference
        if case .rows(let fromLibrary, let fromKind, let fromIDs) = fromResult.contents.source,
            case .rows(let toLibrary, let toKind, let toIDs) = toResult.contents.source,
            fromLibrary === toLibrary, fromKind == toKind
        {
            let changedIDs = Set(
                changedObjects.compactMap { object -> Int64? in
                    (object as? PHAsset)?.record.id ?? (object as? PHCollection)?.storedRowID
                })
            difference = IdentityDifference.between(fromIDs, toIDs, changed: changedIDs)
        } else {
            difference = IdentityDifference.between(
                fromResult.identifiers, toResult.identifiers,
                changed: Set(changedObjects.map(\.localIdentifier)))
        }
        self.init(before: fromResult, after: toResult, difference: difference, incremental: true)
    }

    /// Positions in the result before the change of the objects it lost; nil
    /// without incremental changes.
    public var removedIndexes: IndexSet? {
        hasIncrementalChanges ? IndexSet(ascending: difference.removed) : nil
    }

    /// The objects the result lost, as they were before.
    public var removedObjects: [ObjectType] {
        guard let removedIndexes else { return [] }
        return fetchResultBeforeChanges.objects(at: removedIndexes)
    }

    /// Positions in the result after the change of the objects it gained; nil
    /// without incremental changes.
    public var insertedIndexes: IndexSet? {
        hasIncrementalChanges ? IndexSet(ascending: difference.inserted) : nil
    }

    /// The objects the result gained.
    public var insertedObjects: [ObjectType] {
        guard let insertedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: insertedIndexes)
    }

    /// Positions in the result after the change of the objects that are in
    /// both and changed; nil without incremental changes.
    public var changedIndexes: IndexSet? {
        hasIncrementalChanges ? IndexSet(ascending: difference.changed) : nil
    }

    /// The objects that are in both and changed, as they are now.
    public var changedObjects: [ObjectType] {
        guard let changedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: changedIndexes)
    }

    /// Whether objects moved; false without incremental changes.
    public var hasMoves: Bool {
        hasIncrementalChanges && !difference.moves.isEmpty
    }

    /// Calls `handler` for each moved object with its position before the
    /// change and its position after, in order of the new positions.
    public func enumerateMoves(_ handler: @escaping (Int, Int) -> Void) {
        guard hasIncrementalChanges else { return }
        for move in difference.moves {
            handler(move.from, move.to)
        }
    }

    public override var description: String {
        guard hasIncrementalChanges else { return "<PHFetchResultChangeDetails> not incremental" }
        return "<PHFetchResultChangeDetails> removed \(difference.removed) inserted \(difference.inserted) "
            + "changed \(difference.changed) moves \(difference.moves.map { "\($0.from)->\($0.to)" })"
    }
}

extension IndexSet {
    /// The set of `indexes`, which ascend, built a run of consecutive
    /// indexes at a time: Foundation's index set on Linux takes about a
    /// microsecond per insertion, and inserting one index at a time also
    /// asks first whether it is there.
    init(ascending indexes: [Int]) {
        self.init()
        var start = 0
        while start < indexes.count {
            var end = start + 1
            while end < indexes.count && indexes[end] == indexes[end - 1] + 1 { end += 1 }
            insert(integersIn: indexes[start]..<(indexes[end - 1] + 1))
            start = end
        }
    }
}
