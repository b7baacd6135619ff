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
}
