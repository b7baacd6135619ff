import Foundation
import GRDB

/// `PHAssetCollectionSubtype` raw values of the smart albums the store computes.
package enum SmartAlbumSubtype {
    package static let panoramas = 201
    package static let videos = 202
    package static let favorites = 203
    package static let timelapses = 204
    package static let allHidden = 205
    package static let recentlyAdded = 206
    package static let bursts = 207
    package static let slomoVideos = 208
    package static let userLibrary = 209
    package static let selfPortraits = 210
    package static let screenshots = 211
    package static let depthEffect = 212
    package static let livePhotos = 213
    package static let animated = 214
    package static let longExposures = 215
    package static let raw = 217
    package static let cinematic = 218
    package static let spatial = 219
    package static let screenRecordings = 220
    /// Apple's Photos gives Recently Deleted this private subtype.
    package static let recentlyDeleted = 1_000_000_201

    /// The smart albums every library has, in the order they are listed.
    /// Raw values are PhotoKit's `PHAssetCollectionSubtype`.
    package static let libraryAlbums: [(subtype: Int, title: String)] = [
        (userLibrary, "Recents"),
        (favorites, "Favorites"),
        (recentlyAdded, "Recently Added"),
        (videos, "Videos"),
        (selfPortraits, "Selfies"),
        (livePhotos, "Live Photos"),
        (depthEffect, "Portrait"),
        (panoramas, "Panoramas"),
        (timelapses, "Time-lapse"),
        (slomoVideos, "Slo-mo"),
        (cinematic, "Cinematic"),
        (bursts, "Bursts"),
        (screenshots, "Screenshots"),
        (screenRecordings, "Screen Recordings"),
        (animated, "Animated"),
        (longExposures, "Long Exposure"),
        (raw, "RAW"),
        (spatial, "Spatial"),
        (allHidden, "Hidden"),
        (recentlyDeleted, "Recently Deleted"),
    ]
}

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
    var naturalOrder = [OrderTerm(expression: "a.creation_date", ascending: true),
                        OrderTerm(expression: "a.id", ascending: true, nullable: false)]

    /// The rule for a subtype; nil for subtypes no library has.
    static func rule(for subtype: Int, now: Date) -> SmartAlbumRule? {
        func subtypeBit(_ bit: Int) -> SmartAlbumRule { SmartAlbumRule(condition: "(a.media_subtypes & \(sql: String(bit))) != 0") }
        switch subtype {
        case SmartAlbumSubtype.userLibrary: return SmartAlbumRule(condition: nil)
        case SmartAlbumSubtype.favorites: return SmartAlbumRule(condition: "a.is_favorite = 1")
        case SmartAlbumSubtype.recentlyAdded:
            let since = now.timeIntervalSince1970 - RetentionWindows.recentlyAdded
            return SmartAlbumRule(condition: "a.added_date >= \(since)",
                                  naturalOrder: [OrderTerm(expression: "a.added_date", ascending: true), OrderTerm(expression: "a.id", ascending: true, nullable: false)])
        case SmartAlbumSubtype.videos: return SmartAlbumRule(condition: "a.media_type = \(sql: String(AssetMediaType.video.rawValue))")
        case SmartAlbumSubtype.selfPortraits: return SmartAlbumRule(condition: "a.is_front_camera = 1")
        case SmartAlbumSubtype.livePhotos: return subtypeBit(MediaSubtypeBit.photoLive)
        case SmartAlbumSubtype.depthEffect: return subtypeBit(MediaSubtypeBit.photoDepthEffect)
        case SmartAlbumSubtype.panoramas: return subtypeBit(MediaSubtypeBit.photoPanorama)
        case SmartAlbumSubtype.timelapses: return subtypeBit(MediaSubtypeBit.videoTimelapse)
        case SmartAlbumSubtype.slomoVideos: return subtypeBit(MediaSubtypeBit.videoHighFrameRate)
        case SmartAlbumSubtype.cinematic: return subtypeBit(MediaSubtypeBit.videoCinematic)
        case SmartAlbumSubtype.bursts: return SmartAlbumRule(condition: "a.burst_identifier IS NOT NULL")
        case SmartAlbumSubtype.screenshots: return subtypeBit(MediaSubtypeBit.photoScreenshot)
        case SmartAlbumSubtype.screenRecordings: return subtypeBit(MediaSubtypeBit.videoScreenRecording)
        case SmartAlbumSubtype.animated: return SmartAlbumRule(condition: "a.playback_style = \(sql: String(PlaybackStyleCode.imageAnimated))")
        case SmartAlbumSubtype.longExposures: return SmartAlbumRule(condition: "a.is_long_exposure = 1")
        case SmartAlbumSubtype.raw: return SmartAlbumRule(condition: "a.has_raw_original = 1")
        case SmartAlbumSubtype.spatial: return subtypeBit(MediaSubtypeBit.spatialMedia)
        case SmartAlbumSubtype.allHidden: return SmartAlbumRule(condition: nil, visibility: .hiddenOnly)
        case SmartAlbumSubtype.recentlyDeleted:
            return SmartAlbumRule(condition: nil, visibility: .trashedOnly,
                                  naturalOrder: [OrderTerm(expression: "a.trashed_date", ascending: true), OrderTerm(expression: "a.id", ascending: true, nullable: false)])
        default: return nil
        }
    }
}

/// `PHAssetPlaybackStyle` values the store's rules test.
package enum PlaybackStyleCode {
    package static let imageAnimated = 2
}

/// `PHAssetMediaSubtype` bits the store's rules test.
package enum MediaSubtypeBit {
    package static let photoPanorama = 1 << 0
    package static let photoHDR = 1 << 1
    package static let photoScreenshot = 1 << 2
    package static let photoLive = 1 << 3
    package static let photoDepthEffect = 1 << 4
    package static let spatialMedia = 1 << 10
    package static let videoStreamed = 1 << 16
    package static let videoHighFrameRate = 1 << 17
    package static let videoTimelapse = 1 << 18
    package static let videoScreenRecording = 1 << 19
    package static let videoCinematic = 1 << 21
}
