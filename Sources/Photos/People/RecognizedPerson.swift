import Foundation
import PhotosStore

/// A person the library's indexer grouped faces into (`IndexKind.faces`),
/// as the reader sees them: an OpenPhotoKit addition. Apple's PhotoKit has
/// no public face API; these names are ours, so that no Apple name means
/// something else here.
///
/// People are not change blocks: naming, hiding, merging and moving faces
/// take effect at once and are not in the persistent history.
public struct RecognizedPerson: Sendable, Hashable, Identifiable {
    /// The person's identifier, stable until they are merged into another.
    public let localIdentifier: String
    /// The name someone gave them; nil until then.
    public let name: String?
    /// Whether they are hidden from People (and their name from search).
    public let isHidden: Bool
    /// How many of their faces the reader sees, and in how many assets.
    public let faceCount: Int
    public let assetCount: Int
    /// The face that stands for them: the largest the detector is surest of.
    public let keyFace: RecognizedFace

    public var id: String { localIdentifier }

    init(_ summary: PersonSummary) {
        localIdentifier = summary.uuid
        name = summary.name
        isHidden = summary.isHidden
        faceCount = summary.faceCount
        assetCount = summary.assetCount
        keyFace = RecognizedFace(summary.keyFace)
    }
}
