/// How a change set names an existing asset: by its UUID (from a local
/// identifier or an object in hand), or by its row id, when the caller holds
/// a fetch result of the same library. Row ids are never reused (the asset
/// table's keys only grow), so a row id fetched earlier names the same asset
/// or none; a set naming thousands of assets by row id saves looking each
/// UUID up twice, once to name it and once to find it.
package enum AssetReference: Sendable, Hashable {
    /// The asset with this UUID, the form every client can name.
    case uuid(String)
    /// The asset stored in this row of the library that made the set.
    case rowID(Int64)
}

extension AssetReference {
    /// The UUIDs and the row ids among `assets`, each in order.
    static func split(_ assets: [AssetReference]) -> (uuids: [String], rowIDs: [Int64]) {
        var uuids: [String] = []
        var rowIDs: [Int64] = []
        for asset in assets {
            switch asset {
            case .uuid(let uuid): uuids.append(uuid)
            case .rowID(let rowID): rowIDs.append(rowID)
            }
        }
        return (uuids, rowIDs)
    }
}
