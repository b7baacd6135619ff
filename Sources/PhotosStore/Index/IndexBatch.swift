import Foundation

/// One batch of an indexer's work, written in one transaction with the
/// position it reaches: a crash loses the batch or keeps all of it, never
/// half, and the indexer resumes from the last batch written.
package struct IndexBatch: Sendable {
    /// The indexer and the lease holder writing.
    package var indexer: String
    package var holder: String
    package var assets: [IndexedAsset]
    /// UUIDs of assets deleted from the library, whose entries go.
    package var removed: [String]
    /// Where the indexer stands once the batch is written.
    package var position: IndexPosition
    /// Whether a whole pass ends with it: entries of assets no longer in the library go too.
    package var endsPass: Bool
    /// When it is written, and how long the lease lasts from then.
    package var now: Date
    package var lease: TimeInterval

    package init(
        indexer: String, holder: String, assets: [IndexedAsset], removed: [String], position: IndexPosition, endsPass: Bool, now: Date,
        lease: TimeInterval
    ) {
        self.indexer = indexer
        self.holder = holder
        self.assets = assets
        self.removed = removed
        self.position = position
        self.endsPass = endsPass
        self.now = now
        self.lease = lease
    }
}
