import Foundation

/// Replays a collection view's batch update the way UIKit does, to check
/// that change details can drive one: deletions at positions before the
/// update, insertions at positions after it, moves from a position before
/// to a position after. Everything else keeps its relative order and fills
/// the remaining slots.
public enum BatchUpdate {
    /// What UIKit would raise for.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// The items after the update. `after` supplies the identities of the
    /// inserted items, as a data source would.
    public static func apply<Item: Hashable>(
        to before: [Item], removed: IndexSet, inserted: IndexSet, moves: [(from: Int, to: Int)], after: [Item]
    ) throws -> [Item] {
        let finalCount = before.count - removed.count + inserted.count
        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw Invalid(description: message()) }
        }
        try check(removed.allSatisfy { $0 < before.count }, "deleting an item past the end (\(removed) of \(before.count))")
        try check(inserted.allSatisfy { $0 < finalCount }, "inserting past the end (\(inserted) of \(finalCount))")
        try check(finalCount == after.count, "invalid number of items: \(finalCount) after the update, \(after.count) in the data source")
        let sources = moves.map(\.from)
        let destinations = moves.map(\.to)
        try check(Set(sources).count == sources.count && Set(destinations).count == destinations.count, "an item moved twice")
        try check(sources.allSatisfy { $0 >= 0 && $0 < before.count && !removed.contains($0) }, "moving a deleted or missing item \(sources)")
        try check(destinations.allSatisfy { $0 >= 0 && $0 < finalCount && !inserted.contains($0) }, "moving onto an inserted or missing slot \(destinations)")

        var slots = [Item?](repeating: nil, count: finalCount)
        for index in inserted {
            slots[index] = after[index]
        }
        for move in moves {
            slots[move.to] = before[move.from]
        }
        let movedFrom = Set(sources)
        var staying = before.indices.filter { !removed.contains($0) && !movedFrom.contains($0) }.map { before[$0] }.makeIterator()
        for index in slots.indices where slots[index] == nil {
            guard let item = staying.next() else { throw Invalid(description: "fewer items than slots") }
            slots[index] = item
        }
        try check(staying.next() == nil, "more items than slots")
        return slots.map { $0! }
    }
}
