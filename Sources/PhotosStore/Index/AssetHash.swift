/// An asset's perceptual hash, as the indexer stored it (`asset_hash`),
/// with the dismissals it is in (`look_alike_dismissal`).
package struct AssetHash: Sendable, Hashable {
    package var uuid: String
    package var hash: UInt64
    /// The dismissals naming this asset: it is not a look-alike of any
    /// other asset they name.
    package var dismissals: [String]

    package init(uuid: String, hash: UInt64, dismissals: [String] = []) {
        self.uuid = uuid
        self.hash = hash
        self.dismissals = dismissals
    }

    /// Whether someone said `self` and `other` are not look-alikes.
    package func isDismissed(with other: AssetHash) -> Bool {
        !dismissals.isEmpty && !other.dismissals.isEmpty && !Set(dismissals).isDisjoint(with: other.dismissals)
    }
}
