import Foundation

/// How an ordered list of unique identities became another, in the index
/// spaces of a collection view's batch update:
///
/// - `removed`: indexes in the old list of what is gone;
/// - `inserted`: indexes in the new list of what is new;
/// - `moves`: for what is in both but changed its place relative to the
///   rest, its index in the old list and its index in the new one;
/// - `changed`: indexes in the new list of what is in both and changed.
///
/// Deleting `removed`, inserting `inserted` and moving `moves` from the old
/// list gives exactly the new list: everything not moved keeps its relative
/// order. No identity is both removed and changed, and moved identities are
/// never removed or inserted.
package struct IdentityDifference: Sendable, Equatable {
    /// A move from an index of the old list to an index of the new list.
    package struct Move: Sendable, Equatable, Hashable {
        package var from: Int
        package var to: Int

        package init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Ascending indexes in the old list.
    package var removed: [Int]
    /// Ascending indexes in the new list.
    package var inserted: [Int]
    /// Ordered by destination.
    package var moves: [Move]
    /// Ascending indexes in the new list.
    package var changed: [Int]

    package init(removed: [Int] = [], inserted: [Int] = [], moves: [Move] = [], changed: [Int] = []) {
        self.removed = removed
        self.inserted = inserted
        self.moves = moves
        self.changed = changed
    }

    package var isEmpty: Bool {
        removed.isEmpty && inserted.isEmpty && moves.isEmpty && changed.isEmpty
    }

    /// The number of objects the difference animates.
    package var size: Int {
        removed.count + inserted.count + moves.count + changed.count
    }

    /// The difference between two lists of row ids; see the generic version.
    package static func between(_ old: [Int64], _ new: [Int64], changed: Set<Int64> = []) -> IdentityDifference {
        difference(old, new, changed: changed)
    }

    /// The difference between two lists of local identifiers; see the generic version.
    package static func between(_ old: [String], _ new: [String], changed: Set<String> = []) -> IdentityDifference {
        difference(old, new, changed: changed)
    }

    /// The difference between two lists of unique identities, found by
    /// identity in O(n) (Heckel's idea: a table of where each identity was)
    /// plus O(m log m) for the m identities in both, to keep the largest set
    /// of them in place (a longest increasing subsequence) and move the rest.
    ///
    /// The concrete overloads above exist so that the compiler specialises
    /// this for the identities the library uses: called generically from
    /// another module, it would run several times slower.
    package static func difference<Identity: Hashable>(_ old: [Identity], _ new: [Identity],
                                                       changed: Set<Identity> = []) -> IdentityDifference {
        var oldIndex = [Identity: Int](minimumCapacity: old.count)
        for (index, identity) in old.enumerated() {
            oldIndex[identity] = index
        }
        var kept = [Bool](repeating: false, count: old.count)
        var inserted: [Int] = []
        var common: [(old: Int, new: Int)] = []
        common.reserveCapacity(min(old.count, new.count))
        var changedIndexes: [Int] = []
        for (index, identity) in new.enumerated() {
            if let previous = oldIndex[identity] {
                kept[previous] = true
                common.append((previous, index))
                if changed.contains(identity) { changedIndexes.append(index) }
            } else {
                inserted.append(index)
            }
        }
        let removed = old.indices.filter { !kept[$0] }
        let staying = longestIncreasingSubsequence(common.map(\.old))
        var moves: [Move] = []
        for (position, pair) in common.enumerated() where !staying[position] {
            moves.append(Move(from: pair.old, to: pair.new))
        }
        return IdentityDifference(removed: removed, inserted: inserted, moves: moves, changed: changedIndexes)
    }

    /// Marks the elements of one longest strictly increasing subsequence.
    /// O(n log n) by patience sorting.
    package static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            marks[cursor] = true
            cursor = previous[cursor]
        }
        return marks
    }
}
