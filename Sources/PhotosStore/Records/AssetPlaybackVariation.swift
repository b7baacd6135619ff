/// The effect a Live Photo plays with: Loop, Bounce or Long Exposure.
/// Raw values are stored (`asset.playback_variation`) and are PhotoKit's
/// `PHAsset.PlaybackVariation` raw values.
package enum AssetPlaybackVariation: Int, Sendable, CaseIterable {
    case none = 0
    /// Loop: the video plays over and over, joined where it repeats.
    case autoloop = 1
    /// Bounce: the video plays forward, then backward.
    case mirror = 2
    /// Long Exposure: the video's frames blended into one still.
    case longExposure = 3
}

extension AssetPlaybackStyle {
    /// How a Live Photo whose motion is on plays with `variation`, as
    /// Apple's Photos sets it: Loop and Bounce as a looping video; Long
    /// Exposure, like none, as a Live Photo.
    package init(livePhotoPlaying variation: AssetPlaybackVariation) {
        switch variation {
        case .none, .longExposure: self = .livePhoto
        case .autoloop, .mirror: self = .videoLooping
        }
    }
}
