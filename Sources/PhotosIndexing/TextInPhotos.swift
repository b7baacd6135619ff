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
    private let recognizer: LazyModel<TextRecognizer>

    init(languages: [String]) {
        self.languages = languages
        recognizer = LazyModel { () throws(VisionError) in try TextRecognizer(languages: languages) }
    }

    var unavailability: String? {
        TextRecognizer.problem(with: languages)?.description
    }

    func analyze(_ assets: [PHAsset]) throws -> [IndexedAsset] {
        let recognizer = try recognizer.get()
        return assets.map { asset in
            IndexedAsset(uuid: asset.uuid, searchText: [.content: SearchWords.document(words(in: asset, recognizer))])
        }
    }

    /// The words read in the asset's image; none for a video, or when its image cannot be read.
    private func words(in asset: PHAsset, _ recognizer: TextRecognizer) -> [String] {
        guard let image = AnalyzedImage.of(asset, longestSide: Self.longestSide, from: images) else { return [] }
        let (width, height) = (Int(image.size.width), Int(image.size.height))
        return image.rgbaPixels.withUnsafeBytes { pixels in
            recognizer.words(inRGBA: pixels, width: width, height: height, bytesPerRow: width * 4).map(\.text)
        }
    }
}
