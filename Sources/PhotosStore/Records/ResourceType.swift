import Foundation

/// What one stored file of an asset is. Raw values are stored
/// (`resource.type`) and are PhotoKit's `PHAssetResourceType` raw values.
package enum ResourceType: Int, Sendable, CaseIterable {
    case photo = 1
    case video = 2
    case audio = 3
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19

    /// The original's primary file: its photo or its video.
    package static let originals: [ResourceType] = [.photo, .video]
    /// The renderings of an edit.
    package static let renderings: [ResourceType] = [.fullSizePhoto, .fullSizeVideo]
    /// What an edit adds and a revert removes: renderings, adjustment data and adjustment bases.
    package static let edits: [ResourceType] = [
        .fullSizePhoto, .fullSizeVideo, .adjustmentData, .adjustmentBasePhoto,
        .fullSizePairedVideo, .adjustmentBasePairedVideo, .adjustmentBaseVideo,
    ]

    /// A list for an SQL `IN (…)`: the raw values, comma-separated.
    package static func sqlList(_ types: [ResourceType]) -> String {
        types.map { String($0.rawValue) }.joined(separator: ", ")
    }
}
