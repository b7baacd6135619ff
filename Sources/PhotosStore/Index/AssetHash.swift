/// An asset's perceptual hash, as the indexer stored it (`asset_hash`).
package struct AssetHash: Sendable, Hashable {
    package var uuid: String
    package var hash: UInt64

    package init(uuid: String, hash: UInt64) {
        self.uuid = uuid
        self.hash = hash
    }
}
