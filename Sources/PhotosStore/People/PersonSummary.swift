/// A person as a reader sees them: what their grant lets them see of the
/// person's faces, counted.
package struct PersonSummary: Sendable, Hashable {
    /// The longest name a person may be given, in Unicode code points (as JSON Schema counts them).
    package static let maximumNameLength = 200

    package var uuid: String
    package var name: String?
    package var isHidden: Bool
    /// The faces of theirs the reader sees, and the assets those are in.
    package var faceCount: Int
    package var assetCount: Int
    /// The face that stands for them: the largest the detector is surest of.
    package var keyFace: FaceSummary
}

/// A face as a reader sees it.
package struct FaceSummary: Sendable, Hashable {
    package var uuid: String
    package var assetUUID: String
    package var personUUID: String
    /// Its box as fractions of the asset's image as shown, origin top left.
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    package var confidence: Double
    /// Whether someone put it with its person by hand.
    package var isPlacedByHand: Bool
}
