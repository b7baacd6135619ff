import Foundation
import Photos
import PhotosVision

/// What the analyzers that read pixels share: the image they read, and a
/// model loaded once, on first use.
enum AnalyzedImage {
    /// The current version's image of `asset` fitted in `longestSide`
    /// pixels, never enlarged (scaling up finds nothing more, only costs);
    /// nil for a video, or when its image cannot be read (its file is gone):
    /// the next change to it reads it again.
    static func of(_ asset: PHAsset, longestSide: Int, from images: PHImageManager) -> UIImage? {
        guard asset.mediaType == .image else { return nil }
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        var image: UIImage?
        let longest = max(asset.pixelWidth, asset.pixelHeight)
        let side = CGFloat(longest > 0 ? min(longest, longestSide) : longestSide)
        images.requestImage(for: asset, targetSize: CGSize(width: side, height: side), contentMode: .aspectFit, options: options) { result, _ in
            image = result
        }
        return image
    }
}

/// A model loaded on first use, and kept, or the error loading it gave,
/// so that asking an analyzer whether it can run loads nothing.
final class LazyModel<Model>: @unchecked Sendable {
    private let load: () throws(VisionError) -> Model
    private let lock = NSLock()
    private var loaded: Result<Model, VisionError>?

    init(_ load: @escaping () throws(VisionError) -> Model) {
        self.load = load
    }

    /// The model, loaded now if it was not yet.
    func get() throws(VisionError) -> Model {
        try lock.withLock {
            let made = loaded ?? Result { () throws(VisionError) in try load() }
            loaded = made
            return made
        }.get()
    }
}
