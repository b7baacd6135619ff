import Foundation

/// Identities the diff hashes itself: a few multiplications over their
/// bytes, where `Hasher` runs SipHash (and, for a string, checks its
/// Unicode form) on every lookup.
protocol QuickHashable: Hashable {
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

/// Two words folded into one through their full 128-bit product, as
/// wyhash does: one multiplication takes in 16 bytes.
@inline(__always)
private func folded(_ first: UInt64, _ second: UInt64) -> UInt64 {
    let product = first.multipliedFullWidth(by: second)
    return product.high ^ product.low
}

extension UUID: QuickHashable {
    func quickHash(seed: UInt64) -> UInt64? {
        withUnsafeBytes(of: uuid) { bytes in
            mixed(mixed(seed ^ bytes.loadUnaligned(as: UInt64.self)) ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}

extension String: QuickHashable {
    /// 16 bytes per multiplication, each folded with the hash so far (which
    /// the seed starts), the last up to 15 bytes in one more, then mixed:
    /// a local identifier of 43 bytes takes three multiplications where
    /// mixing each 8 bytes took six rounds of MurmurHash3's finaliser. The
    /// constants folded in have bytes above 127, so no ASCII word cancels
    /// them.
    func quickHash(seed: UInt64) -> UInt64? {
        let hash = utf8.withContiguousStorageIfAvailable { utf8 -> UInt64? in
            let bytes = UnsafeRawBufferPointer(utf8)
            let count = bytes.count
            var hash = seed ^ 0xA076_1D64_78BD_642F ^ UInt64(count)
            // Every byte ORed together: ASCII when no byte has its top bit set.
            var bits: UInt64 = 0
            var offset = 0
            while offset + 16 <= count {
                let first = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let second = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                bits |= first | second
                hash = folded(first ^ 0xE703_7ED1_A0B4_28DB, second ^ hash)
                offset += 16
            }
            // The last bytes, fewer than 16: a whole word when there is
            // one, then the rest, fewer than 8, as the top of the word that
            // ends the string (read again in part), or byte by byte in a
            // string shorter than a word.
            var first: UInt64 = 0
            var second: UInt64 = 0
            if offset + 8 <= count {
                first = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var rest: UInt64 = 0
            let remaining = count - offset
            if remaining > 0 && count >= 8 {
                rest = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) >> (64 - 8 * UInt64(remaining))
            } else {
                for (shift, byte) in zip(stride(from: UInt64(0), to: 64, by: 8), bytes[offset...]) { rest |= UInt64(byte) << shift }
            }
            if count % 16 >= 8 { second = rest } else { first = rest }
            bits |= first | second
            guard bits & 0x8080_8080_8080_8080 == 0 else { return nil }
            return mixed(folded(first ^ 0x8EBC_6AF0_9C88_C6E3, second ^ hash))
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
struct QuickPositionTable<Identity: QuickHashable>: PositionTable {
    private let list: [Identity]
    /// Per slot: the upper 32 bits of the hash, and the position plus one
    /// in the low 32 bits; 0 for an empty slot.
    private var slots: [UInt64]
    private let mask: Int
    /// This process's seed, read once: a global is checked for its
    /// initialisation on every read.
    private let seed = quickHashSeed

    init?(_ list: [Identity]) {
        guard list.count < Int(Int32.max) / 2 else { return nil }
        self.list = list
        let capacity = max(16, (list.count * 2).nextPowerOfTwo)
        mask = capacity - 1
        slots = [UInt64](repeating: 0, count: capacity)
        for (index, identity) in list.enumerated() {
            guard let hash = identity.quickHash(seed: seed) else { return nil }
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

    /// Reads the list and the slots through unsafe buffers, as lookups
    /// are most of a diff: an identity compared in the array was retained
    /// and released each time.
    func positions(of identities: [Identity]) -> [Int32] {
        var others: HashedPositionTable<Identity>?
        return list.withUnsafeBufferPointer { list in
            slots.withUnsafeBufferPointer { slots in
                identities.map { identity in
                    guard let hash = identity.quickHash(seed: seed) else {
                        if others == nil { others = HashedPositionTable(Array(list)) }
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
