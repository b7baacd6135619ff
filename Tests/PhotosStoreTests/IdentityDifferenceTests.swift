import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

@Suite struct IdentityDifferenceTests {
    /// Checks a difference against the batch-update replay and its invariants.
    static func verify(_ old: [Int], _ new: [Int], changed: Set<Int>) throws {
        let difference = IdentityDifference.difference(old, new, changed: changed)
        let replayed = try BatchUpdate.apply(
            to: old, removed: IndexSet(difference.removed), inserted: IndexSet(difference.inserted),
            moves: difference.moves.map { ($0.from, $0.to) }, after: new)
        #expect(replayed == new, "\(old) -> \(new): \(difference)")
        let removedItems = Set(difference.removed.map { old[$0] })
        let changedItems = Set(difference.changed.map { new[$0] })
        #expect(removedItems.isDisjoint(with: changedItems))
        #expect(changedItems == changed.intersection(old).intersection(new))
        #expect(Set(difference.moves.map { old[$0.from] }).isDisjoint(with: removedItems))
        #expect(Set(difference.inserted).isDisjoint(with: difference.moves.map(\.to)))
    }

    /// Checks that `between` (with its own lookup tables) gives the
    /// difference the generic hash-table path gives, and that it replays.
    @discardableResult
    static func expectSameAsHashed<Identity: Hashable>(
        _ old: [Identity], _ new: [Identity], changed: Set<Identity>,
        by between: ([Identity], [Identity], Set<Identity>) -> IdentityDifference
    ) throws -> IdentityDifference {
        let difference = between(old, new, changed)
        #expect(difference == IdentityDifference.difference(old, new, changed: changed))
        let replayed = try BatchUpdate.apply(
            to: old, removed: IndexSet(difference.removed), inserted: IndexSet(difference.inserted),
            moves: difference.moves.map { ($0.from, $0.to) }, after: new)
        #expect(replayed == new)
        return difference
    }

    @Test func everySmallPermutationWithRemovalsAndInsertions() throws {
        // Every ordering of every subset of {0,1,2,3} plus up to two new items, from every subset.
        let pool = [0, 1, 2, 3]
        func permutations(_ items: [Int]) -> [[Int]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index -> [[Int]] in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        let subsets = (0..<16).map { mask in pool.filter { mask & (1 << $0) != 0 } }
        for old in subsets.flatMap(permutations) {
            for kept in subsets {
                for new in permutations(kept + [10, 11].prefix(kept.count % 3)) {
                    try Self.verify(old, new, changed: [1, 3, 10])
                }
            }
        }
    }

    @Test(arguments: 0..<8)
    func randomLargeEdits(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var old = Array(0..<Int.random(in: 0...400, using: &random))
        old.shuffle(using: &random)
        var new = old.filter { _ in Int.random(in: 0..<10, using: &random) > 1 }
        for index in 0..<Int.random(in: 0...40, using: &random) {
            new.insert(1000 + index, at: Int.random(in: 0...new.count, using: &random))
        }
        for _ in 0..<Int.random(in: 0...30, using: &random) where new.count > 1 {
            let item = new.remove(at: Int.random(in: 0..<new.count, using: &random))
            new.insert(item, at: Int.random(in: 0...new.count, using: &random))
        }
        try Self.verify(old, new, changed: Set(old.filter { $0 % 7 == 0 }))
    }

    /// Row ids close together are looked up in an array indexed by id,
    /// others in a hash table: both give the same difference, for ids
    /// near zero, negative, far apart, and new ids outside the old span.
    @Test(arguments: 0..<12)
    func rowIDsGiveTheSameDifferenceWhicheverTableFindsThem(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let base: Int64 = [0, 1, -500, Int64.max - 5_000, Int64.min + 10][Int(seed % 5)]
        let stride: Int64 = seed % 3 == 0 ? 100_000 : 1
        var old = (0..<Int64.random(in: 0...600, using: &random)).map { base &+ $0 &* stride }
        old.shuffle(using: &random)
        var new = old.filter { _ in Int.random(in: 0..<10, using: &random) > 1 }
        for _ in 0..<Int.random(in: 0...60, using: &random) {
            let id = base &+ Int64.random(in: -100...1_200, using: &random) &* stride
            if !new.contains(id) { new.insert(id, at: Int.random(in: 0...new.count, using: &random)) }
        }
        for _ in 0..<Int.random(in: 0...40, using: &random) where new.count > 1 {
            new.insert(new.remove(at: Int.random(in: 0..<new.count, using: &random)), at: Int.random(in: 0...new.count, using: &random))
        }
        try Self.expectSameAsHashed(
            old, new, changed: Set(new.filter { _ in Bool.random(using: &random) }),
            by: IdentityDifference.between)
    }

    /// UUIDs and ASCII identifiers are found by a quick hash of their
    /// bytes; others (and any list holding one) as `Hashable` says: the
    /// difference is the same either way, including strings that differ in
    /// bytes but are equal in Swift (the Kelvin sign is a K).
    @Test(arguments: 0..<8)
    func uuidsAndStringsGiveTheSameDifferenceWhicheverTableFindsThem(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let uuids = (0..<Int.random(in: 0...500, using: &random)).map { _ in UUID() }
        let old = Array(uuids.shuffled(using: &random).prefix(uuids.count * 9 / 10))
        var new = uuids.filter { _ in Int.random(in: 0..<10, using: &random) > 1 }
        new.shuffle(using: &random)
        #expect(IdentityDifference.between(old, new) == IdentityDifference.difference(old, new))

        let identifiers = { (list: [UUID]) in list.map { "\($0.uuidString)/L0/001" } }
        var oldText = identifiers(old)
        var newText = identifiers(new)
        if seed % 2 == 1 {
            oldText.append("K-\(seed)")
            newText.insert("\u{212A}-\(seed)", at: Int.random(in: 0...newText.count, using: &random))
        }
        if seed % 4 == 2 { oldText.insert("café-\(seed)", at: 0) }
        let quick = try Self.expectSameAsHashed(
            oldText, newText, changed: Set(newText.filter { _ in Bool.random(using: &random) }),
            by: IdentityDifference.between)
        if seed % 2 == 1 {
            #expect(quick.removed.allSatisfy { oldText[$0] != "K-\(seed)" }, "the Kelvin sign's twin is kept, not removed")
        }
    }

    /// Strings of every length up to 40 bytes, each a prefix of the next,
    /// and strings that differ from those in one byte only: their
    /// quick hashes read every byte (words, the last part word, short
    /// strings byte by byte), so the quick table finds each where the hash
    /// table does.
    @Test(arguments: 0..<4)
    func stringsOfEveryLengthAreFoundWhereTheyAre(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-/")
        let longest = String((0..<40).map { _ in alphabet.randomElement(using: &random)! })
        var strings = (0...40).map { String(longest.prefix($0)) }
        // A byte changed at every place of strings with whole words, part
        // words and no whole word at the end.
        for length in [5, 12, 19, 23, 31, 39] {
            for place in 0..<length {
                var bytes = Array(longest.utf8.prefix(length))
                bytes[place] = bytes[place] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                strings.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        let old = strings.shuffled(using: &random).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
        let new = strings.shuffled(using: &random).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
        try Self.expectSameAsHashed(old, new, changed: Set(new.prefix(5)), by: IdentityDifference.between)
        let positions = try #require(QuickPositionTable(old)).positions(of: strings)
        #expect(positions == HashedPositionTable(old).positions(of: strings))
        // Every byte counts: no two of these strings share a hash.
        #expect(Set(strings.compactMap { $0.quickHash(seed: seed) }).count == strings.count)
    }

    /// The longest increasing subsequence is as long as a simple quadratic
    /// search finds, and increasing, on random lists with repeats, runs
    /// and jumps: the shapes a list that changed a little gives.
    @Test(arguments: 0..<16)
    func longestIncreasingSubsequenceAgreesWithQuadraticSearch(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var values: [Int32] = []
        for _ in 0..<Int.random(in: 0...300, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: values.append(Int32.random(in: -50...400, using: &random))
            case 1: values.append(values.last ?? 0)
            default: values.append((values.last ?? 0) + Int32.random(in: 1...3, using: &random))
            }
        }
        let marks = IdentityDifference.longestIncreasingSubsequence(values)
        let kept = zip(values, marks).filter(\.1).map(\.0)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        var longestEndingAt = [Int](repeating: 1, count: values.count)
        for end in values.indices {
            for start in 0..<end where values[start] < values[end] {
                longestEndingAt[end] = max(longestEndingAt[end], longestEndingAt[start] + 1)
            }
        }
        #expect(kept.count == (longestEndingAt.max() ?? 0))
    }

    @Test func movesAreMinimal() {
        #expect(IdentityDifference.difference([1, 2, 3, 4, 5], [2, 3, 4, 5, 1]).moves == [.init(from: 0, to: 4)])
        #expect(IdentityDifference.difference([1, 2, 3], [1, 2, 3]).isEmpty)
        for values in [[3, 1, 2, 5, 4], [], [1], [5, 4, 3, 2, 1], [1, 3, 2, 4, 6, 5, 7]] {
            let marks = IdentityDifference.longestIncreasingSubsequence(values)
            let kept = zip(values, marks).filter(\.1).map(\.0)
            #expect(kept == kept.sorted() && Set(kept).count == kept.count)
            // No increasing subsequence is longer: check by brute force over subsets.
            var longest = 0
            for mask in 0..<(1 << values.count) {
                let chosen: [Int] = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
                if chosen == chosen.sorted(), Set(chosen).count == chosen.count { longest = max(longest, chosen.count) }
            }
            #expect(kept.count == longest)
        }
    }
}
