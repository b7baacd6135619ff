import Foundation

/// What an asset's media is. Raw values are stored (`asset.media_type`) and
/// are PhotoKit's `PHAssetMediaType` raw values.
package enum AssetMediaType: Int, Sendable, CaseIterable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3
}
