import Foundation
import GRDB

/// One object one committed change block inserted, updated or deleted.
package struct HistoryEntry: Sendable, Hashable {
    /// The number of the change block (its `change_transaction` row).
    package var transaction: Int64
    package var identifier: LocalIdentifier
    package var rowID: Int64
    package var kind: ObjectChange.Kind
    /// What an update changed; empty for insertions and deletions.
    package var attributes: Set<String>

    package init(transaction: Int64, identifier: LocalIdentifier, rowID: Int64, kind: ObjectChange.Kind, attributes: Set<String>) {
        self.transaction = transaction
        self.identifier = identifier
        self.rowID = rowID
        self.kind = kind
        self.attributes = attributes
    }

    /// The entries of the change blocks after `after`, up to and including
    /// `through`, in commit order.
    static func fetch(_ db: Database, after: Int64, through: Int64) throws -> [HistoryEntry] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT transaction_id, entity, row_id, uuid, kind, attributes FROM change_entry
            WHERE transaction_id > ? AND transaction_id <= ? ORDER BY transaction_id, rowid
            """), arguments: [after, through])
        var entries: [HistoryEntry] = []
        while let row = try rows.next() {
            guard let entity = StoreEntity(rawValue: row[1]), let kind = ObjectChange.Kind(rawValue: row[4]) else { continue }
            let attributes: String = row[5]
            entries.append(HistoryEntry(
                transaction: row[0], identifier: LocalIdentifier(uuid: row[3], entity: entity), rowID: row[2], kind: kind,
                attributes: attributes.isEmpty ? [] : Set(attributes.split(separator: ",").map(String.init))))
        }
        return entries
    }

    /// The number of the last committed change block, by any process.
    static func lastTransaction(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(id), 0) FROM change_transaction")) ?? 0
    }
}

/// What a run of change blocks did to each object: one net change per object.
struct NetChanges {
    enum Change {
        case inserted(attributes: Set<String>)
        case updated(attributes: Set<String>)
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
