import Testing

@testable import photos_bench

/// The general diff's baseline finds every change, in one pass each way.
@Suite struct LinearDiffTests {
    @Test func itTurnsTheOldListIntoTheNewOne() {
        var random = SplitMix(state: 5)
        for _ in 0..<200 {
            let old = (0..<Int(random.next() % 40)).map { Int64($0) }
            var new = old.filter { _ in random.next() % 5 != 0 }
            for extra in 0..<Int(random.next() % 6) { new.insert(Int64(1000 + extra), at: Int(random.next() % UInt64(new.count + 1))) }
            if new.count > 1, random.next() % 2 == 0 { new.swapAt(0, new.count - 1) }
            let diff = LinearDiff(from: old, to: new)
            #expect(diff.transforms(old, into: new), "\(old) → \(new)")
            #expect(Set(diff.removed.map { old[$0] }).isDisjoint(with: new))
            #expect(Set(diff.inserted.map { new[$0] }).isDisjoint(with: old))
        }
    }

    @Test func oneElementMovedFarReportsEveryElementItPassed() {
        let diff = LinearDiff(from: ["a", "b", "c", "d"], to: ["d", "a", "b", "c"])
        #expect(diff.removed.isEmpty && diff.inserted.isEmpty)
        #expect(diff.moves.count == 4)
        #expect(!LinearDiff(from: [1, 2], to: [2, 3]).transforms([1, 2], into: [3, 2]))
    }

    /// The diff rows' lists: a tenth removed, the added ones inserted, a
    /// fiftieth moved; a replay accepts a true diff and refuses a false one.
    @Test func editedListsAndTheirReplay() {
        var random = SplitMix(state: 9)
        let (old, new) = ObserveBenchmarks.edit(Array(0..<1_000), adding: Array(1_000..<1_100), random: &random)
        #expect(new.count == 1_000 - 100 - 20 + 20 + 100)
        #expect(Set(new).count == new.count && Set(new).isSuperset(of: 1_000..<1_100))
        #expect(Set(old).subtracting(new).count == 100)
        let diff = LinearDiff(from: old, to: new)
        #expect(ObserveBenchmarks.replays(old: old, new: new, removed: diff.removed, inserted: diff.inserted, moves: diff.moves))
        #expect(!ObserveBenchmarks.replays(old: old, new: new, removed: diff.removed, inserted: diff.inserted, moves: []))
        #expect(
            !ObserveBenchmarks.replays(
                old: old, new: new, removed: Array(diff.removed.dropLast()), inserted: diff.inserted,
                moves: diff.moves))
    }
}
