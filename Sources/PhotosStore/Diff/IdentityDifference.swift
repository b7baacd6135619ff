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
    package static func difference<Identity: Hashable>(_ old: [Identity], _ new: [Identity],
                                                       changed: Set<Identity> = []) -> IdentityDifference {
        difference(old, new, changed: changed, positions: HashedPositionTable(old))
    }

    private static func difference<Table: PositionTable>(_ old: [Table.Identity], _ new: [Table.Identity],
                                                         changed: Set<Table.Identity>, positions: Table) -> IdentityDifference {
        // All lookups first, then the bookkeeping: lookups that do not wait
        // for one another overlap their memory reads.
        let matches = positions.positions(of: new)
        var kept = [Bool](repeating: false, count: old.count)
        var inserted: [Int] = []
        // Positions fit in 32 bits (see ``PositionTable``): half the memory to write and read back.
        var commonOld: [Int32] = []
        var commonNew: [Int32] = []
        commonOld.reserveCapacity(min(old.count, new.count))
        commonNew.reserveCapacity(min(old.count, new.count))
        var changedIndexes: [Int] = []
        for (index, match) in matches.enumerated() {
            if match >= 0 {
                kept[Int(match)] = true
                commonOld.append(match)
                commonNew.append(Int32(truncatingIfNeeded: index))
                if !changed.isEmpty && changed.contains(new[index]) { changedIndexes.append(index) }
            } else {
                inserted.append(index)
            }
        }
        let removed = old.indices.filter { !kept[$0] }
        let staying = longestIncreasingSubsequence(commonOld)
        var moves: [Move] = []
        for position in commonOld.indices where !staying[position] {
            moves.append(Move(from: Int(commonOld[position]), to: Int(commonNew[position])))
        }
        return IdentityDifference(removed: removed, inserted: inserted, moves: moves, changed: changedIndexes)
    }

    /// Marks the elements of one longest strictly increasing subsequence.
    /// O(n log n) by patience sorting.
    package static func longestIncreasingSubsequence<Value: FixedWidthInteger>(_ values: [Value]) -> [Bool] {
        // For each length, the index in `values` of the smallest value that
        // ends an increasing run of that length, and that value. Indexes
        // are kept in 32 bits: lists are far shorter than 2^31.
        var tails: [Int32] = []
        var tailValues: [Value] = []
        var previous = [Int32](repeating: -1, count: values.count)
        // Where the value before went: in a list that changed a little,
        // each value mostly goes just after it, so that place is tried
        // before a binary search.
        var lastPlace = -1
        for (index, value) in values.enumerated() {
            let place: Int
            let guess = lastPlace + 1
            if guess <= tailValues.count, guess == 0 || tailValues[guess - 1] < value,
               guess == tailValues.count || value <= tailValues[guess] {
                place = guess
            } else {
                var low = 0, high = tailValues.count
                while low < high {
                    let middle = (low + high) / 2
                    if tailValues[middle] < value { low = middle + 1 } else { high = middle }
                }
                place = low
            }
            if place > 0 { previous[index] = tails[place - 1] }
            let tail = Int32(truncatingIfNeeded: index)
            if place == tails.count {
                tails.append(tail)
                tailValues.append(value)
            } else {
                tails[place] = tail
                tailValues[place] = value
            }
            lastPlace = place
        }
        var marks = [Bool](repeating: false, count: values.count)
        var cursor = Int(tails.last ?? -1)
        while cursor >= 0 {
            marks[cursor] = true
            cursor = Int(previous[cursor])
        }
        return marks
    }
}

/// Where each identity of a list is, looked up by identity. Positions are
/// 32-bit: a list of 2^31 identities, which its row ids alone would make
/// 16 GiB, is not one a fetch result holds.
private protocol PositionTable {
    associatedtype Identity: Hashable
    /// The index in the list of each of `identities`, in their order; -1
    /// for one that is not in the list.
    func positions(of identities: [Identity]) -> [Int32]
}

/// Positions in a hash table: any identities. Cost: O(n) to build.
private struct HashedPositionTable<Identity: Hashable>: PositionTable {
    private var positions: [Identity: Int]

    init(_ list: [Identity]) {
        positions = [Identity: Int](minimumCapacity: list.count)
        for (index, identity) in list.enumerated() {
            positions[identity] = index
        }
    }

    func positions(of identities: [Identity]) -> [Int32] {
        identities.map { identity in positions[identity].map(Int32.init) ?? -1 }
    }
}

/// Positions of row ids in an array indexed by id, from the smallest id of
/// the list: no hashing, one read per lookup. Built only when the ids span
/// at most a few times as many values as the list holds, so it costs O(n)
/// memory like the hash table.
private struct DensePositionTable: PositionTable {
    /// The position plus one of each id from `lowest`; 0 for an id not in the list.
    private var positions: [Int32]
    private let lowest: Int64

    /// Ids may span this many times the list's length (plus a little, for short lists).
    private static let maximumSpread = 4

    init?(_ list: [Int64]) {
        guard var lowest = list.first, list.count < Int(Int32.max) else { return nil }
        var highest = lowest
        for id in list {
            lowest = min(lowest, id)
            highest = max(highest, id)
        }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        guard !overflow, span < Int64(list.count * Self.maximumSpread + 1024) else { return nil }
        self.lowest = lowest
        positions = [Int32](repeating: 0, count: Int(span) + 1)
        for (index, id) in list.enumerated() {
            positions[Int(id - lowest)] = Int32(index + 1)
        }
    }

    func positions(of identities: [Int64]) -> [Int32] {
        positions.withUnsafeBufferPointer { table in
            identities.map { identity in
                let offset = UInt64(bitPattern: identity &- lowest)
                return offset < UInt64(table.count) ? table[Int(offset)] &- 1 : -1
            }
        }
    }
}

/// Identities the diff hashes itself: a few multiplications over their
/// bytes, where `Hasher` runs SipHash (and, for a string, checks its
/// Unicode form) on every lookup.
private protocol QuickHashable: Hashable {
    /// A hash of the identity mixed with `seed`; nil when equal identities
    /// might not have equal bytes (a string that is not all ASCII, which
    /// Swift compares by canonical equivalence).
    func quickHash(seed: UInt64) -> UInt64?
}

/// Mixes 64 bits into a hash (the finaliser of MurmurHash3's 64-bit form).
private func mixed(_ value: UInt64) -> UInt64 {
    var value = value
    value = (value ^ (value >> 33)) &* 0xFF51_AFD7_ED55_8CCD
    value = (value ^ (value >> 33)) &* 0xC4CE_B9FE_1A85_EC53
    return value ^ (value >> 33)
}

extension UUID: QuickHashable {
    fileprivate func quickHash(seed: UInt64) -> UInt64? {
        withUnsafeBytes(of: uuid) { bytes in
            mixed(mixed(seed ^ bytes.loadUnaligned(as: UInt64.self)) ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}

extension String: QuickHashable {
    fileprivate func quickHash(seed: UInt64) -> UInt64? {
        let hash = utf8.withContiguousStorageIfAvailable { utf8 -> UInt64? in
            let bytes = UnsafeRawBufferPointer(utf8)
            var hash = seed ^ UInt64(bytes.count)
            // Every byte ORed together: ASCII when no byte has its top bit set.
            var bits: UInt64 = 0
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                bits |= word
                hash = mixed(hash ^ word)
                offset += 8
            }
            var tail: UInt64 = 0
            for (shift, byte) in bytes[offset...].enumerated() {
                tail |= UInt64(byte) << (8 * shift)
            }
            bits |= tail
            guard bits & 0x8080_8080_8080_8080 == 0 else { return nil }
            return mixed(hash ^ tail)
        }
        return hash ?? nil
    }
}

/// Positions in an open-addressing table keyed by ``QuickHashable``
/// hashes, seeded afresh in each process so that chosen identities cannot
/// make every lookup collide. Built only when every identity of the list
/// can be hashed so; an identity looked up that cannot is found through a
/// hash table of the list, built then. Cost: O(n) to build, 8 bytes per
/// slot at a load of at most one half.
private struct QuickPositionTable<Identity: QuickHashable>: PositionTable {
    private let list: [Identity]
    /// Per slot: the upper 32 bits of the hash, and the position plus one
    /// in the low 32 bits; 0 for an empty slot.
    private var slots: [UInt64]
    private let mask: Int

    init?(_ list: [Identity]) {
        guard list.count < Int(Int32.max) / 2 else { return nil }
        self.list = list
        let capacity = max(16, (list.count * 2).nextPowerOfTwo)
        mask = capacity - 1
        slots = [UInt64](repeating: 0, count: capacity)
        for (index, identity) in list.enumerated() {
            guard let hash = identity.quickHash(seed: quickHashSeed) else { return nil }
            let tag = hash & 0xFFFF_FFFF_0000_0000
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                // A repeated identity keeps its last position, as a dictionary would.
                if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag, list[Int(slots[slot] & 0xFFFF_FFFF) - 1] == identity { break }
                slot = (slot + 1) & mask
            }
            slots[slot] = tag | UInt64(index + 1)
        }
    }

    func positions(of identities: [Identity]) -> [Int32] {
        var others: HashedPositionTable<Identity>?
        return identities.map { identity in
            guard let hash = identity.quickHash(seed: quickHashSeed) else {
                if others == nil { others = HashedPositionTable(list) }
                return others!.positions(of: [identity])[0]
            }
            let tag = hash & 0xFFFF_FFFF_0000_0000
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                let position = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag, list[position] == identity { return Int32(position) }
                slot = (slot + 1) & mask
            }
            return -1
        }
    }
}

/// The seed of this process's ``QuickPositionTable`` hashes.
private let quickHashSeed = UInt64.random(in: .min ... .max)

extension Int {
    /// The smallest power of two at least as large as this positive number.
    fileprivate var nextPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
