/// The general diff's baseline: a linear diff of unique identifiers in the
/// manner of Heckel (1978), the algorithm class of IGListKit and
/// DifferenceKit. Each element of the new list is matched with its old
/// position through a hash table, removals and insertions fall out of the
/// matching, and a matched element is a move when its position, counted
/// past the removals before it in the old list and the insertions before
/// it in the new one, differs. That finds every change in one pass each
/// way but not the fewest moves: one element moved far reports every
/// element it passed. Cost: O(n) time and memory.
struct LinearDiff<Element: Hashable> {
    var removed: [Int] = []
    var inserted: [Int] = []
    var moves: [(from: Int, to: Int)] = []

    init(from old: [Element], to new: [Element]) {
        var oldPositions: [Element: Int] = [:]
        oldPositions.reserveCapacity(old.count)
        for (index, element) in old.enumerated() { oldPositions[element] = index }
        var matched = [Int?](repeating: nil, count: new.count)
        var kept = [Bool](repeating: false, count: old.count)
        for (index, element) in new.enumerated() {
            if let position = oldPositions[element] {
                matched[index] = position
                kept[position] = true
            } else {
                inserted.append(index)
            }
        }
        var removedBefore = [Int](repeating: 0, count: old.count)
        var running = 0
        for index in old.indices {
            removedBefore[index] = running
            if !kept[index] {
                removed.append(index)
                running += 1
            }
        }
        running = 0
        for index in new.indices {
            guard let from = matched[index] else {
                running += 1
                continue
            }
            if from - removedBefore[from] != index - running { moves.append((from, index)) }
        }
    }

    /// Whether the diff turns `old` into `new`: every old element is removed
    /// or kept, every new one inserted or matched to an equal old one, and
    /// nothing is counted twice.
    func transforms(_ old: [Element], into new: [Element]) -> Bool {
        let removedSet = Set(removed)
        let insertedSet = Set(inserted)
        guard removedSet.count == removed.count, insertedSet.count == inserted.count,
            old.count - removed.count == new.count - inserted.count
        else { return false }
        let keptOld = old.indices.filter { !removedSet.contains($0) }.map { old[$0] }
        let keptNew = new.indices.filter { !insertedSet.contains($0) }.map { new[$0] }
        return Set(keptOld) == Set(keptNew) && keptOld.count == Set(keptOld).count
    }
}
