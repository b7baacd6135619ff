import Foundation
import Testing

@testable import PhotosStore

/// Checks membership edits against NSMutableArray, whose index semantics
/// PhotoKit's change requests follow, over every small case.
@Suite struct OrderedMembershipTests {
    static let pool = ["a", "b", "c", "d", "e"]

    /// Every operation that can apply to a list of `count` members drawn from `pool`.
    static func operations(count: Int) -> [MembershipOperation] {
        var result: [MembershipOperation] = []
        let indexSets = (0..<(1 << count)).map { mask in (0..<count).filter { mask & (1 << $0) != 0 } }
        for members in [["e"], ["a"], ["d", "e"]] {
            result.append(.add(members))
            result.append(.remove(members))
        }
        for indexes in indexSets where !indexes.isEmpty {
            result.append(.removeAt(indexes))
            for destination in 0...(count - indexes.count) {
                result.append(.move(from: indexes, to: destination))
            }
            if indexes.count == 1 {
                result.append(.replace(at: indexes, with: ["e"]))
            }
        }
        for index in 0...count {
            result.append(.insert(["e"], at: [index]))
        }
        result.append(.removeAt([count]))
        result.append(.move(from: [0], to: count + 1))
        return result
    }

    /// What NSMutableArray makes of an operation; nil when it would raise.
    static func model(_ list: [String], _ operation: MembershipOperation) -> [String]? {
        let array = NSMutableArray(array: list)
        switch operation {
        case .add(let members):
            for member in members where !array.contains(member) { array.add(member) }
        case .insert(let members, let indexes):
            array.removeObjects(in: members)
            guard indexes.allSatisfy({ $0 <= array.count + members.count - 1 }) else { return nil }
            array.insert(members, at: IndexSet(indexes))
        case .remove(let members):
            array.removeObjects(in: members)
        case .removeAt(let indexes):
            guard indexes.allSatisfy({ $0 < array.count }) else { return nil }
            array.removeObjects(at: IndexSet(indexes))
        case .replace(let indexes, let members):
            guard indexes.allSatisfy({ $0 < array.count }) else { return nil }
            let kept = (0..<array.count).filter { !indexes.contains($0) && members.contains(array[$0] as! String) }
            array.replaceObjects(at: IndexSet(indexes), with: members)
            array.removeObjects(at: IndexSet(kept))
        case .move(let indexes, let destination):
            guard indexes.allSatisfy({ $0 < array.count }) else { return nil }
            let moving = array.objects(at: IndexSet(indexes))
            array.removeObjects(at: IndexSet(indexes))
            guard destination <= array.count else { return nil }
            array.insert(moving, at: IndexSet(integersIn: destination..<destination + moving.count))
        }
        return array.map { $0 as! String }
    }

    @Test(arguments: 0...4)
    func everySingleOperationMatchesNSMutableArray(count: Int) {
        let list = Array(Self.pool.prefix(count))
        for operation in Self.operations(count: count) {
            let expected = Self.model(list, operation)
            let actual = try? OrderedMembership.apply([operation], stored: list, view: list)
            #expect(actual == expected, "\(list) \(operation)")
        }
    }

    @Test func everyPairOfOperationsMatchesNSMutableArray() {
        for count in 0...3 {
            let list = Array(Self.pool.prefix(count))
            for first in Self.operations(count: count) {
                guard let middle = Self.model(list, first) else { continue }
                for second in Self.operations(count: middle.count) {
                    let expected = Self.model(middle, second)
                    let actual = try? OrderedMembership.apply([first, second], stored: list, view: list)
                    #expect(actual == expected, "\(list) \(first) then \(second)")
                }
            }
        }
    }

    @Test func membersOutsideTheViewKeepTheirPlace() throws {
        // "h" is stored but hidden from the view the indexes refer to.
        let stored = ["a", "h", "b", "c"]
        let view = ["a", "b", "c"]
        #expect(try OrderedMembership.apply([.removeAt([1])], stored: stored, view: view) == ["a", "h", "c"])
        #expect(try OrderedMembership.apply([.move(from: [0], to: 2)], stored: stored, view: view) == ["b", "c", "a", "h"])
        #expect(try OrderedMembership.apply([.insert(["x"], at: [0])], stored: stored, view: view) == ["x", "a", "h", "b", "c"])
        #expect(try OrderedMembership.apply([.remove(["h"])], stored: stored, view: view) == ["a", "b", "c"])
        #expect(try OrderedMembership.apply([.add(["h"])], stored: stored, view: view) == stored, "a hidden member is still a member")
        #expect(try OrderedMembership.apply([.removeAt([0])], stored: ["h", "a"], view: ["a"]) == ["h"])
    }

    @Test func aStaleSnapshotNeverResurrectsRemovedMembers() throws {
        // The snapshot still lists "b", which another process removed since.
        #expect(try OrderedMembership.apply([.removeAt([0])], stored: ["a", "c"], view: ["a", "b", "c"]) == ["c"])
        // "z" was added by another process after the snapshot: it is kept, after the member it followed.
        #expect(try OrderedMembership.apply([.move(from: [1], to: 0)], stored: ["a", "b", "z"], view: ["a", "b"]) == ["b", "z", "a"])
    }

    @Test func mismatchedCountsAndDuplicateIndexesAreRefused() {
        #expect(throws: StoreError.self) { try OrderedMembership.apply([.insert(["x", "y"], at: [0])], stored: [], view: []) }
        #expect(throws: StoreError.self) { try OrderedMembership.apply([.replace(at: [0, 0], with: ["x", "y"])], stored: ["a"], view: ["a"]) }
        #expect(throws: StoreError.self) { try OrderedMembership.apply([.move(from: [-1], to: 0)], stored: ["a"], view: ["a"]) }
    }
}
