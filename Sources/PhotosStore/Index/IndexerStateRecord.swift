import Foundation

/// Where an indexer stands in a library's history (`indexer_state`).
package struct IndexerStateRecord: Sendable, Hashable {
    /// The indexer's name (`metadata`, …).
    package var name: String
    /// Where it stands: nowhere yet, in a whole pass, or following history.
    package var position: IndexPosition
    /// The process holding its lease, and until when; nil when none.
    package var holder: String?
    package var leaseUntil: Date?
    /// How many assets it has indexed, over its life.
    package var indexed: Int64
    package var updatedAt: Date

    package init(name: String, position: IndexPosition, holder: String?, leaseUntil: Date?, indexed: Int64, updatedAt: Date) {
        self.name = name
        self.position = position
        self.holder = holder
        self.leaseUntil = leaseUntil
        self.indexed = indexed
        self.updatedAt = updatedAt
    }
}
