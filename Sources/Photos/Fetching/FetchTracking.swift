import Foundation
import PhotosStore

/// How a fetch result was made, so that a later change can bring it up to
/// date: the query it ran (or how to compute it again) and the change block
/// its contents reflect.
struct FetchTracking: Sendable {
    enum Origin: Sendable {
        /// An asset fetch, refreshed incrementally by the engine.
        case assets(AssetQuery)
        /// A collection fetch, run again when collections change.
        case collections(CollectionQuery)
        /// Collections computed in memory (moments, moment lists, filtered
        /// lists of them): computed again when assets change.
        case computed(@Sendable () -> [PHObject])
    }

    let library: PHPhotoLibrary
    let origin: Origin
    /// The last change block committed when the contents were read.
    let changeBlock: Int64
    let wantsIncrementalChangeDetails: Bool

    init(library: PHPhotoLibrary, origin: Origin, changeBlock: Int64, options: PHFetchOptions?) {
        self.library = library
        self.origin = origin
        self.changeBlock = changeBlock
        wantsIncrementalChangeDetails = options?.wantsIncrementalChangeDetails ?? true
    }

    private init(library: PHPhotoLibrary, origin: Origin, changeBlock: Int64, wantsIncrementalChangeDetails: Bool) {
        self.library = library
        self.origin = origin
        self.changeBlock = changeBlock
        self.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
    }

    /// The same fetch, as of a later change block.
    /// The query of an asset fetch; nil for other origins.
    var assetQuery: AssetQuery? {
        if case .assets(let query) = origin { query } else { nil }
    }

    func advanced(to changeBlock: Int64) -> FetchTracking {
        FetchTracking(
            library: library, origin: origin, changeBlock: changeBlock,
            wantsIncrementalChangeDetails: wantsIncrementalChangeDetails)
    }
}
