import Foundation
import GRDB

/// How long assets stay in Recently Deleted, and what counts as recently added.
package enum RetentionWindows {
    package static let recentlyDeleted: TimeInterval = 30 * 24 * 3600
    package static let recentlyAdded: TimeInterval = 30 * 24 * 3600
}

/// The membership rule of one smart album, as SQL over the asset table `a`.
struct SmartAlbumRule {
    enum Visibility {
        /// Visible assets, hidden ones only when the fetch asks for them.
        case visible
        /// Only hidden assets (the Hidden album).
        case hiddenOnly
        /// Only assets in Recently Deleted, hidden or not.
        case trashedOnly
    }

    /// What an asset must meet to be in the album; nil: every asset the visibility allows.
    var condition: SQLFragment?
    var visibility: Visibility = .visible
    /// The natural order when the fetch gives no sort descriptors.
    var naturalOrder = [
        OrderTerm(expression: "a.creation_date", ascending: true),
        OrderTerm(expression: "a.id", ascending: true, nullable: false),
    ]

    /// The rule for a subtype.
    static func rule(for subtype: SmartAlbumSubtype, now: Date) -> SmartAlbumRule {
        func subtypeBit(_ bit: AssetMediaSubtypes) -> SmartAlbumRule {
            SmartAlbumRule(condition: "(a.media_subtypes & \(sql: String(bit.rawValue))) != 0")
        }
        switch subtype {
        case .userLibrary: return SmartAlbumRule(condition: nil)
        case .favorites: return SmartAlbumRule(condition: "a.is_favorite = 1")
        case .recentlyAdded:
            let since = now.timeIntervalSince1970 - RetentionWindows.recentlyAdded
            return SmartAlbumRule(
                condition: "a.added_date >= \(since)",
                naturalOrder: [OrderTerm(expression: "a.added_date", ascending: true), OrderTerm(expression: "a.id", ascending: true, nullable: false)])
        case .videos: return SmartAlbumRule(condition: "a.media_type = \(sql: String(AssetMediaType.video.rawValue))")
        case .selfPortraits: return SmartAlbumRule(condition: "a.is_front_camera = 1")
        case .livePhotos: return subtypeBit(.photoLive)
        case .depthEffect: return subtypeBit(.photoDepthEffect)
        case .panoramas: return subtypeBit(.photoPanorama)
        case .timelapses: return subtypeBit(.videoTimelapse)
        case .slomoVideos: return subtypeBit(.videoHighFrameRate)
        case .cinematic: return subtypeBit(.videoCinematic)
        case .bursts: return SmartAlbumRule(condition: "a.burst_identifier IS NOT NULL")
        case .screenshots: return subtypeBit(.photoScreenshot)
        case .screenRecordings: return subtypeBit(.videoScreenRecording)
        case .animated: return SmartAlbumRule(condition: "a.playback_style = \(sql: String(AssetPlaybackStyle.imageAnimated.rawValue))")
        case .longExposures:
            return SmartAlbumRule(
                condition: "(a.is_long_exposure = 1 OR a.playback_variation = \(sql: String(AssetPlaybackVariation.longExposure.rawValue)))")
        case .raw: return SmartAlbumRule(condition: "a.has_raw_original = 1")
        case .spatial: return subtypeBit(.spatialMedia)
        case .allHidden: return SmartAlbumRule(condition: nil, visibility: .hiddenOnly)
        case .recentlyDeleted:
            return SmartAlbumRule(
                condition: nil, visibility: .trashedOnly,
                naturalOrder: [OrderTerm(expression: "a.trashed_date", ascending: true), OrderTerm(expression: "a.id", ascending: true, nullable: false)])
        }
    }
}
