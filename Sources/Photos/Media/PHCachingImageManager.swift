import Foundation
import PhotosStore

/// An image manager that prepares images ahead of requests: give it the
/// assets about to scroll into view, and its later requests for them, with
/// the same size, content mode and options, come from memory.
///
/// Prefetching runs at low priority on the pool image requests share:
/// requests always go first, and stopping a prefetch that has not started
/// cancels it. Images are rendered exactly as the matching request would
/// render them, and kept in this manager's memory cache (96 MB of pixels,
/// least recently used first out).
open class PHCachingImageManager: PHImageManager, @unchecked Sendable {
    /// Whether prefetching renders the images requests ask for (true, the
    /// default) or only quick thumbnails, which keeps fast scrolling light.
    open var allowsCachingHighQualityImages = true

    private struct Prefetch: Hashable {
        var assetIdentifier: String
        var width: Double
        var height: Double
        var contentMode: PHImageContentMode
    }

    private let prefetchLock = NSLock()
    private var prefetches: [Prefetch: ImageWorkScheduler.Job] = [:]

    /// A caching manager with its own memory cache.
    public convenience init() {
        self.init(scheduler: .shared)
    }

    /// A caching manager whose work runs on `scheduler`.
    override init(scheduler: ImageWorkScheduler) {
        super.init(scheduler: scheduler)
    }

    /// Starts preparing images of `assets`. Cost: queues one job per asset not already prepared.
    open func startCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHImageRequestOptions?
    ) {
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        if !allowsCachingHighQualityImages {
            options.deliveryMode = .fastFormat
        }
        for asset in assets {
            let key = Prefetch(
                assetIdentifier: asset.localIdentifier, width: targetSize.width, height: targetSize.height,
                contentMode: contentMode)
            guard prefetchLock.withLock({ prefetches[key] == nil }) else { continue }
            let job = prefetch(asset, targetSize: targetSize, contentMode: contentMode, options: options)
            prefetchLock.withLock { prefetches[key] = job }
        }
    }

    /// Stops preparing images of `assets` with these parameters, and lets
    /// the cache drop those already prepared.
    open func stopCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHImageRequestOptions?
    ) {
        let identifiers = Set(assets.map(\.localIdentifier))
        let stopped = prefetchLock.withLock { () -> [ImageWorkScheduler.Job] in
            let keys = prefetches.keys.filter {
                identifiers.contains($0.assetIdentifier) && $0.width == targetSize.width && $0.height == targetSize.height
                    && $0.contentMode == contentMode
            }
            return keys.compactMap { prefetches.removeValue(forKey: $0) }
        }
        stopped.forEach { $0.cancel() }
        let uuids = Set(assets.compactMap { $0.parsedIdentifier?.uuid })
        cache.removeAll { uuids.contains($0.assetUUID) }
    }

    /// Stops every prefetch and empties the cache.
    open func stopCachingImagesForAllAssets() {
        let stopped = prefetchLock.withLock { () -> [ImageWorkScheduler.Job] in
            defer { prefetches.removeAll() }
            return Array(prefetches.values)
        }
        stopped.forEach { $0.cancel() }
        cache.removeAll { _ in true }
    }
}
