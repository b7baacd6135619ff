/// Positions of row ids in an array indexed by id, from the smallest id of
/// the list: no hashing, one read per lookup. Built only when the ids span
/// at most 16 times as many values as the list holds (a fetch of a tenth of
/// a library spans ten), so it costs O(n) memory like the hash table, at
/// most 64 bytes an id, and its lookups land in one small array.
struct DensePositionTable: PositionTable {
    /// The position plus one of each id from `lowest`; 0 for an id not in the list.
    private var positions: [Int32]
    private let lowest: Int64

    /// Ids may span this many times the list's length (plus a little, for short lists).
    private static let maximumSpread = 16

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
