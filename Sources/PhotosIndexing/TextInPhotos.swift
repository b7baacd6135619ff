import Foundation
import Photos
import PhotosStore
import PhotosVision

/// Text read in each photo by ``PhotosVision/TextRecognizer`` (Tesseract),
/// from the current version's image fitted in 2,048 pixels (never scaled
/// up): what a sign,
/// a receipt, a screenshot or a page says, searchable as `content`.
/// Videos are left without text. The engine starts on first use, so that
/// asking for the index's status loads no model.
package final class TextInPhotos: AssetAnalyzer, @unchecked Sendable {
    var kind: IndexKind { .text }
    /// A photo takes up to a few seconds: a batch ends well within the lease.
    var batchSize: Int { 16 }
    /// The longest side of the image read: screenshots and phone photos of
    /// documents keep their text legible, and a 48-megapixel photo costs
    /// no more than a 12-megapixel one.
    package static let longestSide = 2048

    let languages: [String]
    /// Its own image manager: the images it reads never push the gallery's out of memory.
    private let images = PHImageManager()
    private let lock = NSLock()
    private var recognizer: Result<TextRecognizer, VisionError>?

    init(languages: [String]) {
        self.languages = languages
    }

    var unavailability: String? {
        TextRecognizer.problem(with: languages)?.description
    }

    func analyze(_ assets: [PHAsset]) throws -> [IndexedAsset] {
        let recognizer = try lock.withLock {
            let made = self.recognizer ?? Result { () throws(VisionError) in try TextRecognizer(languages: languages) }
            self.recognizer = made
            return made
        }.get()
        return assets.map { asset in
            IndexedAsset(uuid: asset.uuid, searchText: [.content: SearchWords.document(words(in: asset, recognizer))])
        }
    }

    /// The words read in the asset's image; none for a video, or when its
    /// image cannot be read (its file is gone): the next change to it reads it again.
    private func words(in asset: PHAsset, _ recognizer: TextRecognizer) -> [String] {
        guard asset.mediaType == .image else { return [] }
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        var image: UIImage?
        // Never larger than the photo: scaling up adds no text, only time.
        let longest = max(asset.pixelWidth, asset.pixelHeight)
        let side = CGFloat(longest > 0 ? min(longest, Self.longestSide) : Self.longestSide)
        images.requestImage(for: asset, targetSize: CGSize(width: side, height: side), contentMode: .aspectFit, options: options) { result, _ in
            image = result
        }
        guard let image else { return [] }
        let (width, height) = (Int(image.size.width), Int(image.size.height))
        return image.rgbaPixels.withUnsafeBytes { pixels in
            recognizer.words(inRGBA: pixels, width: width, height: height, bytesPerRow: width * 4).map(\.text)
        }
    }
}
