/// How a change set names an existing asset: by its UUID (from a local
/// identifier or an object in hand), or by its row id, when the caller holds
/// a fetch result of the same library. Row ids are never reused (the asset
/// table's keys only grow), so a row id fetched earlier names the same asset
/// or none; a set naming thousands of assets by row id saves looking each
/// UUID up twice, once to name it and once to find it.
package enum AssetReference: Sendable, Hashable {
    case uuid(String)
    case rowID(Int64)
}
