import Foundation
import Photos
import PhotosStore

/// One kind of understanding the indexer runs over every asset, with a
/// position in the library's history of its own (`indexer_state`), so
/// that a slow kind (reading text) never holds back a fast one (places).
protocol AssetAnalyzer: Sendable {
    /// What it understands; its raw value names it in `indexer_state`.
    var kind: IndexKind { get }
    /// Assets it reads per batch, each batch one transaction: small enough
    /// that a batch ends well within the lease.
    var batchSize: Int { get }
    /// Why it cannot run on this machine (its model is not installed), or
    /// nil when it can. Cost: a file check at most.
    var unavailability: String? { get }
    /// What it finds in each asset, in the same order. Throws
    /// ``PhotosVision/VisionError`` when its model cannot run at all.
    func analyze(_ assets: [PHAsset]) throws -> [IndexedAsset]
}
