import Foundation

/// Where assets come from, as bits: PhotoKit's `PHAssetSourceType` raw
/// values. An asset stores exactly one (`asset.source_type`); a query asks
/// for any combination.
package struct AssetSourceTypes: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The library's own assets.
    package static let userLibrary = AssetSourceTypes(rawValue: 1 << 0)
    /// Assets of shared albums.
    package static let cloudShared = AssetSourceTypes(rawValue: 1 << 1)
    /// Assets synced from a computer.
    package static let iTunesSynced = AssetSourceTypes(rawValue: 1 << 2)
    /// Every source.
    package static let all: AssetSourceTypes = [.userLibrary, .cloudShared, .iTunesSynced]

    /// Each single source this set holds, for an SQL `IN (…)` list.
    package var sources: [AssetSourceTypes] {
        [.userLibrary, .cloudShared, .iTunesSynced].filter(contains)
    }
}
