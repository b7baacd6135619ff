import Foundation
import Photos
import PhotosStore
import PhotosVision

/// The faces in each photo, found by ``PhotosVision/FaceRecognizer`` (dlib)
/// in the current version's image fitted in 2,048 pixels (never scaled up),
/// which the store joins to people (``PhotosStore/PersonCentroids``).
/// Videos are left without faces. The models load on first use, so that
/// asking for the index's status loads none.
package final class FacesInPhotos: AssetAnalyzer, @unchecked Sendable {
    var kind: IndexKind { .faces }
    /// A photo takes up to a second or so: a batch ends well within the lease.
    var batchSize: Int { 16 }
    /// The longest side of the image read: faces from about 4 % of it are
    /// found (the detector's 80 pixels).
    package static let longestSide = 2048
    /// Images smaller than this are doubled before detection, so that a
    /// face of 40 of their pixels is found.
    package static let upsampledBelow = 1024

    private let modelDirectory: URL
    /// Its own image manager: the images it reads never push the gallery's out of memory.
    private let images = PHImageManager()
    private let recognizer: LazyModel<FaceRecognizer>

    init(modelDirectory: URL = FaceRecognizer.defaultModelDirectory) {
        self.modelDirectory = modelDirectory
        recognizer = LazyModel { () throws(VisionError) in try FaceRecognizer(modelDirectory: modelDirectory) }
    }

    var unavailability: String? {
        FaceRecognizer.problem(modelDirectory: modelDirectory)?.description
    }

    func analyze(_ assets: [PHAsset]) throws -> [IndexedAsset] {
        let recognizer = try recognizer.get()
        return try assets.map { asset in
            IndexedAsset(uuid: asset.uuid, searchText: [:], writesFaces: true, faces: try faces(in: asset, recognizer))
        }
    }

    /// The faces in the asset's image, as fractions of it; none for a
    /// video, or when its image cannot be read.
    private func faces(in asset: PHAsset, _ recognizer: FaceRecognizer) throws -> [IndexedFace] {
        guard let image = AnalyzedImage.of(asset, longestSide: Self.longestSide, from: images) else { return [] }
        let (width, height) = (Int(image.size.width), Int(image.size.height))
        let found = try image.rgbaPixels.withUnsafeBytes { pixels throws(VisionError) in
            try recognizer.faces(
                inRGBA: pixels, width: width, height: height, bytesPerRow: width * 4, upsample: max(width, height) < Self.upsampledBelow ? 1 : 0)
        }
        return found.map { face in
            let left = max(0, face.x) / Double(width)
            let top = max(0, face.y) / Double(height)
            let right = min(Double(width), face.x + face.width) / Double(width)
            let bottom = min(Double(height), face.y + face.height) / Double(height)
            return IndexedFace(
                x: left, y: top, width: right - left, height: bottom - top, confidence: Double(face.confidence),
                descriptor: FaceDescriptor(face.descriptor))
        }
    }
}
