/// The smart albums the store computes, with PhotoKit's
/// `PHAssetCollectionSubtype` raw values, which `collection.subtype` stores.
/// Each case is named as PhotoKit's, without its `smartAlbum` prefix.
package enum SmartAlbumSubtype: Int, Sendable, CaseIterable {
    case panoramas = 201
    case videos = 202
    case favorites = 203
    case timelapses = 204
    case allHidden = 205
    case recentlyAdded = 206
    case bursts = 207
    case slomoVideos = 208
    case userLibrary = 209
    case selfPortraits = 210
    case screenshots = 211
    case depthEffect = 212
    case livePhotos = 213
    case animated = 214
    case longExposures = 215
    case raw = 217
    case cinematic = 218
    case spatial = 219
    case screenRecordings = 220
    /// Apple's Photos gives Recently Deleted this private subtype.
    case recentlyDeleted = 1_000_000_201

    /// The smart albums every library has, in the order they are listed.
    package static let libraryAlbums: [(subtype: SmartAlbumSubtype, title: String)] = [
        (.userLibrary, "Recents"),
        (.favorites, "Favorites"),
        (.recentlyAdded, "Recently Added"),
        (.videos, "Videos"),
        (.selfPortraits, "Selfies"),
        (.livePhotos, "Live Photos"),
        (.depthEffect, "Portrait"),
        (.panoramas, "Panoramas"),
        (.timelapses, "Time-lapse"),
        (.slomoVideos, "Slo-mo"),
        (.cinematic, "Cinematic"),
        (.bursts, "Bursts"),
        (.screenshots, "Screenshots"),
        (.screenRecordings, "Screen Recordings"),
        (.animated, "Animated"),
        (.longExposures, "Long Exposure"),
        (.raw, "RAW"),
        (.spatial, "Spatial"),
        (.allHidden, "Hidden"),
        (.recentlyDeleted, "Recently Deleted"),
    ]
}
