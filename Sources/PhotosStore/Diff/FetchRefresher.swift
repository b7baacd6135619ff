import Foundation
import GRDB

/// Where a diff is computed: brings a fetch's snapshot up to date after
/// change blocks, and says how the two differ.
///
/// Asset fetches are refreshed at a cost that grows with the change, not
/// with the library: the fetch is re-evaluated for the rows the change
/// blocks touched only, each surviving or new row is placed among the
/// untouched ones by a binary search on their sort keys (read on demand),
/// and the old ids are spliced. When the order of untouched rows can change
/// (an album rearranged, a fetch limit, Recently Added's time window), or
/// for collection fetches, which are small, the fetch runs again and the
/// two id lists are diffed by identity. When the history does not tell the
/// whole story (pruned, a block too large to keep details, the reader's
/// access changed), the fetch runs again and the refresh says it is not
/// incremental.
enum FetchRefresher {
    /// The asset fetch brought up to date; nil when nothing it shows changed.
    /// Runs inside one read transaction, so the history and the rows agree.
    static func assets(
        _ db: any SQLConnection, query: AssetQuery, previous: FetchSnapshot,
        scope: AccessScope, client: String?
    ) throws -> FetchRefresh? {
        let now = try HistoryLog.lastChangeBlock(db)
        guard now > previous.changeBlock else { return nil }
        let span = try HistoryLog.span(db, after: previous.changeBlock, through: now, scope: scope, client: client)
        guard span.isComplete else {
            return try refetch(db, plan: FetchSQL.assetPlan(query, scope: scope, dialect: db.dialect, now: Date())?.ids, previous: previous, now: now)
        }
        let changes = NetChanges(span.entries)
        let touched = changes.touched(.asset)
        var rearranged = false
        if case .album(let albumID) = query.scope, let change = changes.touched(.assetCollection)[albumID] {
            switch change {
            case .updated(let attributes): rearranged = attributes.contains(.members)
            case .deleted, .inserted: rearranged = true
            }
        }
        guard !touched.isEmpty || rearranged, let plan = FetchSQL.assetPlan(query, scope: scope, dialect: db.dialect, now: Date()) else { return nil }

        let updated = Set(
            touched.compactMap { id, change -> Int64? in
                if case .updated(let attributes) = change, !attributes.isEmpty { return id }
                return nil
            })
        var timeDependent = false
        if case .smartAlbum(let subtype) = query.scope, subtype == .recentlyAdded { timeDependent = true }

        var result: (ids: [Int64], difference: IdentityDifference)?
        if !rearranged && !timeDependent && query.limit == 0 {
            result = try splice(db, plan: plan, old: previous.ids, touched: touched, updated: updated)
        }
        if result == nil {
            let ids = try db.fetchAll(Int64.self, plan.ids)
            result = (ids, IdentityDifference.between(previous.ids, ids, changed: updated))
        }
        guard let (ids, difference) = result, !difference.isEmpty else { return nil }
        return FetchRefresh(snapshot: FetchSnapshot(ids: ids, changeBlock: now), difference: difference)
    }

    /// The collection fetch brought up to date; nil when nothing it shows changed.
    static func collections(
        _ db: any SQLConnection, query: CollectionQuery, previous: FetchSnapshot,
        scope: AccessScope, client: String?
    ) throws -> FetchRefresh? {
        let now = try HistoryLog.lastChangeBlock(db)
        guard now > previous.changeBlock else { return nil }
        let span = try HistoryLog.span(db, after: previous.changeBlock, through: now, scope: scope, client: client)
        guard span.isComplete else {
            return try refetch(db, plan: FetchSQL.collectionIDs(query, scope: scope, dialect: db.dialect), previous: previous, now: now)
        }
        let touched = NetChanges(span.entries).touched(.assetCollection)
        // A limited reader's selection decides which albums it sees, and what they count.
        let reselected = span.entries.filter { $0.identifier.entity == .asset && $0.attributes.contains(.access) }.map(\.rowID)
        guard !touched.isEmpty || !reselected.isEmpty else { return nil }
        // Moving a collection changes where it is shown, not the collection.
        var changed = Set(
            touched.compactMap { id, change -> Int64? in
                if case .updated(let attributes) = change, !attributes.subtracting([.parent, .position]).isEmpty { return id }
                return nil
            })
        if !reselected.isEmpty {
            changed.formUnion(
                try db.fetchAll(
                    Int64.self,
                    """
                    SELECT DISTINCT collection_id FROM collection_asset WHERE asset_id IN (\(db.dialect.elements(of: reselected)))
                    """))
        }
        let ids = try db.fetchAll(Int64.self, FetchSQL.collectionIDs(query, scope: scope, dialect: db.dialect))
        let difference = IdentityDifference.between(previous.ids, ids, changed: changed)
        guard !difference.isEmpty else { return nil }
        return FetchRefresh(snapshot: FetchSnapshot(ids: ids, changeBlock: now), difference: difference)
    }

    /// The fetch run again when the history cannot say what changed: any
    /// object may have, so the refresh is never nil and never incremental.
    private static func refetch(_ db: any SQLConnection, plan: SQLFragment?, previous: FetchSnapshot, now: Int64) throws -> FetchRefresh {
        let ids = try plan.map { try db.fetchAll(Int64.self, $0) } ?? []
        return FetchRefresh(
            snapshot: FetchSnapshot(ids: ids, changeBlock: now),
            difference: IdentityDifference.between(previous.ids, ids, changed: []), isIncremental: false)
    }

    /// The incremental refresh; nil when an untouched row no longer sorts as
    /// before, which only time can do, and the caller runs the fetch again.
    private static func splice(
        _ db: any SQLConnection, plan: FetchSQL.SelectPlan, old: [Int64],
        touched: [Int64: NetChanges.Change], updated: Set<Int64>
    ) throws -> (ids: [Int64], difference: IdentityDifference)? {
        let terms = plan.order

        // The touched rows that match now, in the fetch's order.
        var members: [(id: Int64, key: [DatabaseValue])] = []
        let keys = plan.keys(of: Array(touched.keys))
        for row in try db.fetchAll(SQLRow.self, keys) {
            members.append((try row[0], Array(row.values[1...terms.count])))
        }
        members.sort { SQLOrdering.precedes($0.key, $1.key, terms: terms) }

        // Where the touched rows were. New rows cannot have been there.
        let maybeBefore = touched.compactMap { id, change -> Int64? in
            if case .inserted = change { return nil }
            return id
        }
        var touchedBefore: [(position: Int, id: Int64)] = []
        if maybeBefore.count <= 4 {
            for position in old.indices where maybeBefore.contains(old[position]) {
                touchedBefore.append((position, old[position]))
            }
        } else if !maybeBefore.isEmpty {
            let candidates = Set(maybeBefore)
            for position in old.indices where candidates.contains(old[position]) {
                touchedBefore.append((position, old[position]))
            }
        }

        // The rows no change touched keep their relative order.
        var untouched: [Int64]
        if touchedBefore.isEmpty {
            untouched = old
        } else {
            untouched = []
            untouched.reserveCapacity(old.count - touchedBefore.count)
            var start = 0
            for (position, _) in touchedBefore {
                untouched.append(contentsOf: old[start..<position])
                start = position + 1
            }
            untouched.append(contentsOf: old[start...])
        }

        // Each member goes before the first untouched row that sorts after
        // it, found by binary search. The snapshot holds no sort keys, so
        // the members search together, a halving each round, and a round
        // reads the keys of the rows it probes in one query: about log2(n)
        // queries for any number of members, not one per probe.
        var probed: [Int: [DatabaseValue]] = [:]
        var low = [Int](repeating: 0, count: members.count)
        var high = [Int](repeating: untouched.count, count: members.count)
        while true {
            var wanted = Set<Int>()
            for index in members.indices where low[index] < high[index] {
                let middle = (low[index] + high[index]) / 2
                if probed[middle] == nil { wanted.insert(middle) }
            }
            if !wanted.isEmpty {
                var keysByID: [Int64: [DatabaseValue]] = [:]
                for row in try db.fetchAll(SQLRow.self, plan.keys(of: wanted.map { untouched[$0] })) {
                    keysByID[try row[0]] = Array(row.values[1...terms.count])
                }
                for position in wanted {
                    // An untouched row that no longer matches: only a refetch can say where things are.
                    guard let key = keysByID[untouched[position]] else { return nil }
                    probed[position] = key
                }
            }
            var searching = false
            for index in members.indices where low[index] < high[index] {
                let middle = (low[index] + high[index]) / 2
                if SQLOrdering.precedes(probed[middle]!, members[index].key, terms: terms) { low[index] = middle + 1 } else { high[index] = middle }
                searching = searching || low[index] < high[index]
            }
            if !searching { break }
        }
        let insertion = low

        var ids: [Int64] = []
        ids.reserveCapacity(untouched.count + members.count)
        var from = 0
        for (index, member) in members.enumerated() {
            ids.append(contentsOf: untouched[from..<insertion[index]])
            ids.append(member.id)
            from = insertion[index]
        }
        ids.append(contentsOf: untouched[from...])

        // Indexes: removed in the old list, inserted, moved and changed in the new.
        var oldPositions: [Int64: (position: Int, untouchedBefore: Int)] = [:]
        for (rank, entry) in touchedBefore.enumerated() {
            oldPositions[entry.id] = (entry.position, entry.position - rank)
        }
        let memberIDs = Set(members.map(\.id))
        let removed = touchedBefore.filter { !memberIDs.contains($0.id) }.map(\.position)
        var inserted: [Int] = []
        var changed: [Int] = []
        var moves: [IdentityDifference.Move] = []
        var inPlace: [(old: Int, new: Int)] = []
        for (index, member) in members.enumerated() {
            let newPosition = insertion[index] + index
            guard let before = oldPositions[member.id] else {
                inserted.append(newPosition)
                continue
            }
            if updated.contains(member.id) { changed.append(newPosition) }
            // A row that crossed untouched rows moved; rows that stayed
            // between the same untouched rows moved only if they reordered.
            if before.untouchedBefore != insertion[index] {
                moves.append(IdentityDifference.Move(from: before.position, to: newPosition))
            } else {
                inPlace.append((before.position, newPosition))
            }
        }
        let staying = IdentityDifference.longestIncreasingSubsequence(inPlace.map(\.old))
        for (index, pair) in inPlace.enumerated() where !staying[index] {
            moves.append(IdentityDifference.Move(from: pair.old, to: pair.new))
        }
        moves.sort { $0.to < $1.to }
        return (ids, IdentityDifference(removed: removed, inserted: inserted, moves: moves, changed: changed))
    }
}
