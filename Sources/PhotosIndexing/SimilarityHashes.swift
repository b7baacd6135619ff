import Foundation
import Photos
import PhotosStore
import PhotosVision

/// A perceptual hash of each asset's image (``PhotosVision/PerceptualHash``),
/// read from its thumbnail (a video's from its first frame), from which
/// ``PHPhotoLibrary/similarPhotoGroups(maximumDistance:includingDismissed:)`` finds photos that
/// look alike. Costs a thumbnail's decode, which the gallery reuses: a few
/// milliseconds an asset.
struct SimilarityHashes: AssetAnalyzer {
    var kind: IndexKind { .similarity }
    var batchSize: Int { 128 }
    var unavailability: String? { nil }
    /// Its own image manager: the thumbnails it reads never push the gallery's out of memory.
    private let images = PHImageManager()

    func analyze(_ assets: [PHAsset]) -> [IndexedAsset] {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .fastFormat
        options.resizeMode = .fast
        return assets.map { asset in
            var image: UIImage?
            images.requestImage(for: asset, targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFill, options: options) { result, _ in
                image = result
            }
            // An asset whose image cannot be read has no hash: it looks like nothing.
            let hash = image.map { image in
                image.rgbaPixels.withUnsafeBytes { pixels in
                    PerceptualHash.of(rgba: pixels, width: Int(image.size.width), height: Int(image.size.height), bytesPerRow: Int(image.size.width) * 4)
                }
            }
            return IndexedAsset(uuid: asset.uuid, searchText: [:], writesPerceptualHash: true, perceptualHash: hash.map { Int64(bitPattern: $0) })
        }
    }
}
