import Foundation

/// One object one committed change block inserted, updated or deleted.
package struct HistoryEntry: Sendable, Hashable {
    /// The number of the change block (its `change_transaction` row).
    package var changeBlock: Int64
    package var identifier: LocalIdentifier
    package var rowID: Int64
    package var kind: ObjectChange.Kind
    /// What an update changed; empty for insertions and deletions.
    package var attributes: Set<ChangedAttribute>

    package init(changeBlock: Int64, identifier: LocalIdentifier, rowID: Int64, kind: ObjectChange.Kind, attributes: Set<ChangedAttribute>) {
        self.changeBlock = changeBlock
        self.identifier = identifier
        self.rowID = rowID
        self.kind = kind
        self.attributes = attributes
    }
}

/// What a run of change blocks did, as one reader may see it.
package struct HistorySpan: Sendable {
    /// The object changes the reader may see, in commit order.
    package var entries: [HistoryEntry]
    /// False when the entries do not tell the whole story: part of the run
    /// was pruned, a block touched more objects than the library keeps
    /// details for, or the owner changed the reader's access. Whoever needs
    /// the whole story then compares states instead.
    package var isComplete: Bool
    /// The newest change block whose details were pruned when the span was read.
    package var prunedThrough: Int64

    package init(entries: [HistoryEntry], isComplete: Bool, prunedThrough: Int64) {
        self.entries = entries
        self.isComplete = isComplete
        self.prunedThrough = prunedThrough
    }
}

/// The object changes of a run of change blocks a persistent-change fetch
/// result lists, as one reader may see them, for a page of its changes.
/// The list already says which blocks dropped their details or changed
/// the reader's access, so unlike a ``HistorySpan`` the page does not look
/// for them again.
package struct HistoryPage: Sendable {
    /// The object changes the reader may see, in commit order: one list
    /// for the page, which each change hands out a slice of (a slice
    /// shares the list, where an array per change block would be an
    /// allocation per change). A change kept after iterating so keeps its
    /// page's entries alive, a few thousand at most.
    package var entries: [HistoryEntry]
    /// The newest change block whose details were pruned when the page was
    /// read: a listed block up to it has lost its entries since.
    package var prunedThrough: Int64

    /// A page of `entries`, read when the pruning horizon was at `prunedThrough`.
    package init(entries: [HistoryEntry], prunedThrough: Int64) {
        self.entries = entries
        self.prunedThrough = prunedThrough
    }
}

/// What a run of change blocks did to each object: one net change per object.
struct NetChanges {
    enum Change {
        case inserted(attributes: Set<ChangedAttribute>)
        case updated(attributes: Set<ChangedAttribute>)
        case deleted
    }

    private(set) var byRowID: [StoreEntity: [Int64: Change]] = [:]

    init(_ entries: [HistoryEntry]) {
        for entry in entries {
            // Both kinds of collection share one table and so one space of row ids.
            let entity: StoreEntity = entry.identifier.entity == .asset ? .asset : .assetCollection
            let previous = byRowID[entity]?[entry.rowID]
            let next: Change?
            switch (previous, entry.kind) {
            case (nil, .inserted): next = .inserted(attributes: [])
            case (nil, .updated): next = .updated(attributes: entry.attributes)
            case (nil, .deleted): next = .deleted
            case (.inserted(let attributes), .updated): next = .inserted(attributes: attributes.union(entry.attributes))
            case (.inserted, .deleted): next = nil
            case (.updated(let attributes), .updated): next = .updated(attributes: attributes.union(entry.attributes))
            case (.updated, .deleted), (.deleted, _): next = .deleted
            case (_, .inserted): next = .inserted(attributes: [])
            }
            byRowID[entity, default: [:]][entry.rowID] = next
        }
    }

    /// Row ids of one table that the changes touched.
    func touched(_ entity: StoreEntity) -> [Int64: Change] {
        byRowID[entity] ?? [:]
    }
}
