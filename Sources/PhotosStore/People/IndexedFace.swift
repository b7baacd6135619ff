/// A face the indexer found in an asset's current image.
package struct IndexedFace: Sendable, Hashable {
    /// Its box as fractions of the image as shown (oriented), origin top
    /// left: x and y from 0 to 1, width and height from 0 to 1.
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    /// The detector's confidence, above 0; larger is surer.
    package var confidence: Double
    package var descriptor: FaceDescriptor

    package init(x: Double, y: Double, width: Double, height: Double, confidence: Double, descriptor: FaceDescriptor) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        self.confidence = confidence
        self.descriptor = descriptor
    }
}
