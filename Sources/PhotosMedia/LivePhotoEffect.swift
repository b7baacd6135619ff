import Foundation

/// The effect Apple's Photos plays a Live Photo with, as the files it
/// exports say: the `.AAE` sidecar beside the photo (``AppleAdjustments``),
/// or the key Photos writes in a video it rendered with one. The library
/// makes it the asset's `PHAsset.PlaybackVariation`.
package enum LivePhotoEffect: Sendable, Hashable, CaseIterable {
    /// Loop: the video plays over and over, joined where it repeats.
    case loop
    /// Bounce: the video plays forward, then back.
    case bounce
    /// Long Exposure: the video's frames blended into one still.
    case longExposure

    /// The QuickTime metadata key (`mdta`) Photos writes in a video it
    /// rendered with an effect: its value is PhotoKit's playback variation
    /// (1 Loop, 2 Bounce, 3 Long Exposure). exiftool calls it `ApplePhotosVariationIdentifier`.
    static let videoMetadataKey = "com.apple.photos.variation-identifier"

    /// The effect a rendered video's ``videoMetadataKey`` names; nil for none or a value that is not one.
    init?(variationIdentifier text: String) {
        switch text.trimmingCharacters(in: .whitespaces) {
        case "1": self = .loop
        case "2": self = .bounce
        case "3": self = .longExposure
        default: return nil
        }
    }
}
