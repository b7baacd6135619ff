import Foundation

/// Look-ups of assets by row id that a commit and its write policy both make.
extension SQLConnection {
    /// The UUIDs of the assets among `rowIDs`, by row id; an id no asset has
    /// is left out. Cost: one query, none for no ids.
    func assetUUIDs(rowIDs: [Int64]) throws -> [Int64: String] {
        guard !rowIDs.isEmpty else { return [:] }
        var uuids: [Int64: String] = [:]
        try forEachRow("SELECT id, uuid FROM asset WHERE id IN (\(dialect.elements(of: rowIDs)))") { row in
            uuids[try row[0]] = try row[1]
        }
        return uuids
    }

    /// The error for an asset named by a row id no asset has: one deleted
    /// since it was fetched, named by the UUID its deletion recorded.
    func missingAsset(rowID: Int64) throws -> StoreError {
        let uuid = try fetchOne(
            String.self, sql: "SELECT uuid FROM deleted_object WHERE entity = ? AND row_id = ?",
            arguments: [StoreEntity.asset.rawValue, rowID])
        return .notFound(
            entity: .asset,
            identifier: uuid.map { LocalIdentifier(uuid: $0, entity: .asset).description }
                ?? "the asset of row \(rowID)")
    }
}
