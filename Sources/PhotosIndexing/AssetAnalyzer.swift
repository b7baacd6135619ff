import Foundation
import Photos
import PhotosStore

/// One kind of understanding the indexer runs over every asset, with a
/// position in the library's history of its own (`indexer_state`), so
/// that a slow kind (reading text) never holds back a fast one (places).
protocol AssetAnalyzer: Sendable {
    /// Its name in `indexer_state`, fixed once shipped.
    var name: String { get }
    /// What it finds in each asset, in the same order.
    func analyze(_ assets: [PHAsset]) -> [IndexedAsset]
}
