/// Where each identity of a list is, looked up by identity. Positions are
/// 32-bit: a list of 2^31 identities, which its row ids alone would make
/// 16 GiB, is not one a fetch result holds.
protocol PositionTable {
    associatedtype Identity: Hashable
    /// The index in the list of each of `identities`, in their order; -1
    /// for one that is not in the list.
    func positions(of identities: [Identity]) -> [Int32]
}

/// Positions in a hash table: any identities. Cost: O(n) to build.
struct HashedPositionTable<Identity: Hashable>: PositionTable {
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
