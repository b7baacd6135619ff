import Foundation

/// What an indexer found in one asset: the searchable words of the
/// columns it owns, and, for the indexers that own them, its place and its
/// perceptual hash, or its faces.
package struct IndexedAsset: Sendable, Hashable {
    /// The asset's UUID.
    package var uuid: String
    /// The `asset_search` columns it writes (``SearchIndex/Column``), each
    /// already folded and split by ``SearchWords``.
    package var searchText: [SearchIndex.Column: String]
    /// Whether it writes the asset's place, and the place (nil: none).
    package var writesPlace: Bool
    package var place: IndexedPlace?
    /// Whether it writes the asset's perceptual hash (`asset_hash`), and the
    /// hash's bits (nil: its image could not be read).
    package var writesPerceptualHash: Bool
    package var perceptualHash: Int64?
    /// Whether it writes the asset's faces (`face`, joined to people), and the faces.
    package var writesFaces: Bool
    package var faces: [IndexedFace]

    package init(
        uuid: String, searchText: [SearchIndex.Column: String], writesPlace: Bool = false, place: IndexedPlace? = nil,
        writesPerceptualHash: Bool = false, perceptualHash: Int64? = nil, writesFaces: Bool = false, faces: [IndexedFace] = []
    ) {
        self.uuid = uuid
        self.searchText = searchText
        self.writesPlace = writesPlace
        self.place = place
        self.writesPerceptualHash = writesPerceptualHash
        self.perceptualHash = perceptualHash
        self.writesFaces = writesFaces
        self.faces = faces
    }
}
