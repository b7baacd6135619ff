import Foundation

/// What an indexer found in one asset: the searchable words of the
/// columns it owns, and, for the indexer that owns places, its place.
package struct IndexedAsset: Sendable, Hashable {
    /// The asset's UUID.
    package var uuid: String
    /// The `asset_search` columns it writes (``SearchIndex/Column``), each
    /// already folded and split by ``SearchWords``.
    package var searchText: [SearchIndex.Column: String]
    /// Whether it writes the asset's place, and the place (nil: none).
    package var writesPlace: Bool
    package var place: IndexedPlace?

    package init(uuid: String, searchText: [SearchIndex.Column: String], writesPlace: Bool = false, place: IndexedPlace? = nil) {
        self.uuid = uuid
        self.searchText = searchText
        self.writesPlace = writesPlace
        self.place = place
    }
}
