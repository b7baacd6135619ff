/// Groups perceptual hashes that lie within a distance of one another,
/// chained (single linkage): a burst whose neighbours each differ a little
/// forms one group even when its ends differ more.
///
/// Pairs are found without comparing every hash with every other: split
/// into `maximumDistance + 1` pieces, two hashes that differ in at most
/// `maximumDistance` bits agree entirely on at least one piece, so only
/// hashes sharing a piece are compared. Cost: about `n × (d + 1)` bucket
/// insertions and, for photos that do not look alike, few comparisons;
/// a thousand identical hashes cost a million.
package enum SimilarHashes {
    /// The groups of two or more, each the indices of its hashes in order,
    /// the groups by their first index. A pair `apart` says are not
    /// look-alikes is not joined directly (a third close to both still joins them).
    package static func groups(_ hashes: [UInt64], maximumDistance: Int, apart: ((Int, Int) -> Bool)? = nil) -> [[Int]] {
        let distance = max(0, min(maximumDistance, 63))
        let pieces = distance + 1
        var parents = Array(hashes.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parents[index] != index {
                parents[index] = parents[parents[index]]
                index = parents[index]
            }
            return index
        }
        for piece in 0..<pieces {
            let low = piece * 64 / pieces
            let high = (piece + 1) * 64 / pieces
            let mask: UInt64 = high - low == 64 ? .max : ((1 << UInt64(high - low)) - 1) << UInt64(low)
            var buckets: [UInt64: [Int]] = [:]
            for (index, hash) in hashes.enumerated() { buckets[hash & mask, default: []].append(index) }
            for members in buckets.values where members.count > 1 {
                for (position, first) in members.enumerated() {
                    for second in members[(position + 1)...]
                    where (hashes[first] ^ hashes[second]).nonzeroBitCount <= distance && apart?(first, second) != true {
                        let (a, b) = (root(first), root(second))
                        if a != b { parents[max(a, b)] = min(a, b) }
                    }
                }
            }
        }
        var groups: [Int: [Int]] = [:]
        for index in hashes.indices { groups[root(index), default: []].append(index) }
        return groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
    }
}
