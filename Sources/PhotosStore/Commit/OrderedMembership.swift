import Foundation

/// Applies membership operations to an ordered list of members.
///
/// Indexes refer to a *view* of the members (what the client fetched), which
/// can differ from what is stored: hidden or trashed assets are stored
/// members a default fetch leaves out, and a snapshot may predate another
/// process's edit. Members outside the view keep their place next to the
/// member they followed.
enum OrderedMembership {
    static func apply(_ operations: [MembershipOperation], stored: [String], view: [String]) throws(StoreError) -> [String] {
        let storedSet = Set(stored)
        let viewSet = Set(view)
        var list = view
        var outsideView = Set(stored.filter { !viewSet.contains($0) })
        var broughtIn = Set<String>()

        func checkIndexes(_ indexes: [Int], bound: Int) throws(StoreError) {
            if let bad = indexes.first(where: { $0 < 0 || $0 >= bound }) {
                throw .invalidIndex("index \(bad) is out of bounds for a collection of \(bound) items")
            }
        }
        func checkCounts(_ members: [String], _ indexes: [Int]) throws(StoreError) {
            guard members.count == indexes.count else {
                throw .invalidIndex("\(members.count) objects were given for \(indexes.count) indexes")
            }
            guard Set(indexes).count == indexes.count else { throw .invalidIndex("an index is given twice") }
        }

        for operation in operations {
            switch operation {
            case .add(let members):
                var present = Set(list)
                for member in members where !present.contains(member) && !outsideView.contains(member) {
                    list.append(member)
                    present.insert(member)
                    broughtIn.insert(member)
                }
            case .insert(let members, let indexes):
                try checkCounts(members, indexes)
                let inserted = Set(members)
                list.removeAll { inserted.contains($0) }
                outsideView.subtract(inserted)
                for (member, index) in zip(members, indexes).sorted(by: { $0.1 < $1.1 }) {
                    guard index <= list.count else {
                        throw .invalidIndex("index \(index) is out of bounds for a collection of \(list.count) items")
                    }
                    list.insert(member, at: index)
                    broughtIn.insert(member)
                }
            case .remove(let members):
                let removed = Set(members)
                list.removeAll { removed.contains($0) }
                outsideView.subtract(removed)
            case .removeAt(let indexes):
                try checkIndexes(indexes, bound: list.count)
                for index in Set(indexes).sorted(by: >) {
                    list.remove(at: index)
                }
            case .replace(let indexes, let members):
                try checkCounts(members, indexes)
                try checkIndexes(indexes, bound: list.count)
                let replacedPositions = Set(indexes)
                for (index, member) in zip(indexes, members) {
                    list[index] = member
                    broughtIn.insert(member)
                }
                outsideView.subtract(members)
                let incoming = Set(members)
                list = list.enumerated()
                    .filter { replacedPositions.contains($0.offset) || !incoming.contains($0.element) }
                    .map(\.element)
            case .move(let indexes, let destination):
                try checkIndexes(indexes, bound: list.count)
                let moving = Set(indexes).sorted().map { list[$0] }
                for index in Set(indexes).sorted(by: >) {
                    list.remove(at: index)
                }
                guard destination >= 0, destination <= list.count else {
                    throw .invalidIndex("index \(destination) is out of bounds for a collection of \(list.count) items")
                }
                list.insert(contentsOf: moving, at: destination)
            }
        }

        // A snapshot can name members another process removed since; they stay removed.
        list.removeAll { !storedSet.contains($0) && !broughtIn.contains($0) }
        var seen = Set<String>()
        list = list.filter { seen.insert($0).inserted }

        // Members outside the view follow the nearest member they followed before.
        let kept = Set(list)
        var followers: [String?: [String]] = [:]
        var anchor: String?
        for member in stored {
            if kept.contains(member) {
                anchor = member
            } else if outsideView.contains(member) {
                followers[anchor, default: []].append(member)
            }
        }
        var result = followers[nil] ?? []
        for member in list {
            result.append(member)
            result.append(contentsOf: followers[member] ?? [])
        }
        return result
    }
}
