/// How an asset plays. Raw values are stored (`asset.playback_style`) and
/// are PhotoKit's `PHAsset.PlaybackStyle` raw values.
package enum AssetPlaybackStyle: Int, Sendable, CaseIterable {
    case unsupported = 0
    case image = 1
    case imageAnimated = 2
    case livePhoto = 3
    case video = 4
    case videoLooping = 5
}
