import Foundation

/// How much of the library the index covers, for `photos index status`.
package struct IndexCoverage: Sendable, Hashable {
    /// Assets outside Recently Deleted.
    package var assets: Int64
    /// Those with an `asset_search` row.
    package var searchable: Int64
    /// Those with a place.
    package var located: Int64

    package init(assets: Int64, searchable: Int64, located: Int64) {
        self.assets = assets
        self.searchable = searchable
        self.located = located
    }
}
