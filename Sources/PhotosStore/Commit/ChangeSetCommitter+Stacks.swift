import Foundation

/// Look-alikes stacked: what ``AssetStack`` asks, in the block's
/// transaction.
extension ChangeSetCommitter {
    /// Gives the stack's members, and the other shots of any burst one of
    /// them was in, a new burst identifier: the kept asset represents it and
    /// is the user's pick; every other loses the pick, so default fetches
    /// show the kept one alone. Members must exist outside Recently
    /// Deleted. Cost: one read of the members and one update, each asset
    /// recorded as updated.
    mutating func apply(_ stack: AssetStack) throws {
        let members = Array(Set(stack.members))
        guard members.contains(stack.kept), (2...AssetStack.maximumMembers).contains(members.count) else {
            throw StoreError.editNotAllowed(
                "a stack is from 2 to \(AssetStack.maximumMembers) different assets, the one kept among them")
        }
        var rows: [String: (id: Int64, burst: String?)] = [:]
        try db.forEachRow(
            "SELECT uuid, id, burst_identifier FROM asset WHERE uuid IN (\(db.dialect.elements(of: members))) AND trashed_date IS NULL"
        ) { row in
            rows[try row[0]] = (try row[1], try row[2])
        }
        if let missing = members.first(where: { rows[$0] == nil }) {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: missing, entity: .asset).description)
        }
        let kept = rows[stack.kept]!.id
        let bursts = Array(Set(rows.values.compactMap(\.burst)))
        // A constant, written into the text: PostgreSQL cannot type a parameter under `~`.
        let pick = String(AssetBurstSelectionTypes.userPick.rawValue)
        var stacked: [(uuid: String, rowID: Int64)] = []
        try db.forEachRow(
            """
            UPDATE asset SET burst_identifier = \(UUID().uuidString),
                represents_burst = CASE WHEN id = \(kept) THEN 1 ELSE 0 END,
                burst_selection_types = CASE WHEN id = \(kept) THEN burst_selection_types | \(sql: pick) ELSE burst_selection_types & ~\(sql: pick) END,
                modification_date = \(now.timeIntervalSince1970)
            WHERE id IN (\(db.dialect.elements(of: rows.values.map(\.id))))
               OR burst_identifier IN (\(db.dialect.elements(of: bursts)))
            RETURNING uuid, id
            """
        ) { row in
            stacked.append((try row[0], try row[1]))
        }
        for asset in stacked.sorted(by: { $0.rowID < $1.rowID }) {
            record(.init(identifier: LocalIdentifier(uuid: asset.uuid, entity: .asset), rowID: asset.rowID, kind: .updated, changedAttributes: [.burst]))
        }
    }
}
