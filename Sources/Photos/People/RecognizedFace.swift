import Foundation
import PhotosStore

/// A face the library's indexer found in a photo: an OpenPhotoKit addition
/// (see ``RecognizedPerson``).
public struct RecognizedFace: Sendable, Hashable, Identifiable {
    /// The face's identifier; a face found again after its photo is edited
    /// gets a new one.
    public let localIdentifier: String
    /// The local identifier of the asset it is in.
    public let assetLocalIdentifier: String
    /// The local identifier of the person it belongs to.
    public let personLocalIdentifier: String
    /// Where it is, as fractions of the asset's image as shown (its current
    /// version, oriented), origin top left, as UIKit draws: multiply by an
    /// image's size for its pixels.
    public let normalizedBoundingBox: CGRect
    /// How sure the detector is that it is a face, above 0; faces above 1 are clear.
    public let confidence: Double
    /// Whether someone put it with its person by hand (a move or a split),
    /// rather than the indexer.
    public let isPlacedByHand: Bool

    public var id: String { localIdentifier }

    init(_ summary: FaceSummary) {
        localIdentifier = summary.uuid
        assetLocalIdentifier = LocalIdentifier(uuid: summary.assetUUID, entity: .asset).description
        personLocalIdentifier = summary.personUUID
        normalizedBoundingBox = CGRect(x: summary.x, y: summary.y, width: summary.width, height: summary.height)
        confidence = summary.confidence
        isPlacedByHand = summary.isPlacedByHand
    }
}
