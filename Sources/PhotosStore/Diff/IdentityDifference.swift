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
    /// Row ids are small integers, mostly close together: when the old
    /// list's span of ids is not much larger than the list, their positions
    /// are found in an array indexed by id rather than in a hash table,
    /// which is several times quicker.
    package static func between(_ old: [Int64], _ new: [Int64], changed: Set<Int64> = []) -> IdentityDifference {
        if let table = DensePositionTable(old) {
            return difference(old, new, changed: changed, positions: table)
        }
        return difference(old, new, changed: changed)
    }

    /// The difference between two lists of local identifiers; see the generic version.
    /// Local identifiers are ASCII: their positions are found in a table
    /// keyed by a quick hash of their bytes (see ``QuickPositionTable``).
    package static func between(_ old: [String], _ new: [String], changed: Set<String> = []) -> IdentityDifference {
        if let table = QuickPositionTable(old) {
            return difference(old, new, changed: changed, positions: table)
        }
        return difference(old, new, changed: changed)
    }

    /// The difference between two lists of UUIDs; see the generic version
    /// and ``QuickPositionTable``.
    package static func between(_ old: [UUID], _ new: [UUID], changed: Set<UUID> = []) -> IdentityDifference {
        if let table = QuickPositionTable(old) {
            return difference(old, new, changed: changed, positions: table)
        }
        return difference(old, new, changed: changed)
    }

    /// The difference between two lists of unique identities, found by
    /// identity in O(n) (Heckel's idea: a table of where each identity was)
    /// plus O(m log m) for the m identities in both, to keep the largest set
    /// of them in place (a longest increasing subsequence) and move the rest.
    ///
    /// The concrete overloads above exist so that the compiler specialises
    /// this for the identities the library uses: called generically from
    /// another module, it would run several times slower.
    package static func difference<Identity: Hashable>(
        _ old: [Identity], _ new: [Identity],
        changed: Set<Identity> = []
    ) -> IdentityDifference {
        difference(old, new, changed: changed, positions: HashedPositionTable(old))
    }

    private static func difference<Table: PositionTable>(
        _ old: [Table.Identity], _ new: [Table.Identity],
        changed: Set<Table.Identity>, positions: Table
    ) -> IdentityDifference {
        // All lookups first, then the bookkeeping: lookups that do not wait
        // for one another overlap their memory reads.
        let matches = positions.positions(of: new)
        let commonCount = matches.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        var kept = [Bool](repeating: false, count: old.count)
        var inserted: [Int] = []
        inserted.reserveCapacity(matches.count - commonCount)
        // Positions fit in 32 bits (see ``PositionTable``): half the memory
        // to write and read back. Written through buffers of the size just
        // counted, as every match is one of them.
        var commonOld = [Int32](repeating: 0, count: commonCount)
        var commonNew = [Int32](repeating: 0, count: commonCount)
        var changedIndexes: [Int] = []
        kept.withUnsafeMutableBufferPointer { kept in
            commonOld.withUnsafeMutableBufferPointer { commonOld in
                commonNew.withUnsafeMutableBufferPointer { commonNew in
                    var common = 0
                    for (index, match) in matches.enumerated() {
                        if match >= 0 {
                            kept[Int(match)] = true
                            commonOld[common] = match
                            commonNew[common] = Int32(truncatingIfNeeded: index)
                            common += 1
                            if !changed.isEmpty && changed.contains(new[index]) { changedIndexes.append(index) }
                        } else {
                            inserted.append(index)
                        }
                    }
                }
            }
        }
        var removed: [Int] = []
        removed.reserveCapacity(old.count - commonOld.count)
        for (index, stays) in kept.enumerated() where !stays { removed.append(index) }
        let staying = longestIncreasingSubsequence(commonOld)
        var moves: [Move] = []
        for (position, stays) in staying.enumerated() where !stays {
            moves.append(Move(from: Int(commonOld[position]), to: Int(commonNew[position])))
        }
        return IdentityDifference(removed: removed, inserted: inserted, moves: moves, changed: changedIndexes)
    }

    /// Marks the elements of one longest strictly increasing subsequence.
    /// O(n log n) by patience sorting, and O(n) for a list that changed a
    /// little (see below). Its working arrays are written through unsafe
    /// buffers of a known size: every index is below the count of values,
    /// and checked array appends took half the time of a diff of row ids.
    package static func longestIncreasingSubsequence<Value: FixedWidthInteger>(_ values: [Value]) -> [Bool] {
        var marks = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return marks }
        // For each length, the index in `values` of the smallest value that
        // ends an increasing run of that length (`tails`), and that value;
        // for each value, the index of the one before it in its run.
        // Indexes are kept in 32 bits: lists are far shorter than 2^31.
        let tails = UnsafeMutableBufferPointer<Int32>.allocate(capacity: values.count)
        let tailValues = UnsafeMutableBufferPointer<Value>.allocate(capacity: values.count)
        let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: values.count)
        defer {
            tails.deallocate()
            tailValues.deallocate()
            previous.deallocate()
        }
        var length = 0
        // Where the value before went: in a list that changed a little,
        // each value mostly goes just after it, so that place is tried
        // before a binary search.
        var lastPlace = -1
        values.withUnsafeBufferPointer { values in
            for index in values.indices {
                let value = values[index]
                var place = lastPlace + 1
                if !(place <= length && (place == 0 || tailValues[place - 1] < value) && (place == length || value <= tailValues[place])) {
                    var low = 0
                    var high = length
                    while low < high {
                        let middle = (low + high) / 2
                        if tailValues[middle] < value { low = middle + 1 } else { high = middle }
                    }
                    place = low
                }
                previous[index] = place > 0 ? tails[place - 1] : -1
                tails[place] = Int32(truncatingIfNeeded: index)
                tailValues[place] = value
                if place == length { length += 1 }
                lastPlace = place
            }
        }
        var cursor = Int(tails[length - 1])
        while cursor >= 0 {
            marks[cursor] = true
            cursor = Int(previous[cursor])
        }
        return marks
    }
}
