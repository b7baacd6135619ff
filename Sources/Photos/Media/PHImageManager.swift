import Foundation
import PhotosMedia
import PhotosStore

/// Delivers assets' images at a size, fast: from derivatives on disk
/// (thumbnails and previews, made at import or on first use) and a memory
/// cache, else from the originals with libvips, decoding at the smallest
/// scale the request needs. All sizes are pixels.
///
/// Asynchronous results are delivered on ``resultHandlerQueue``, a serial
/// background queue unless you set another (`.main` in a program that runs
/// a main loop): Linux programs often run none, so PhotoKit's main-thread
/// delivery would never happen. A request may call its handler twice (a
/// degraded image first, with `PHImageResultIsDegradedKey` true), once, or,
/// when cancelled, not at all. Requests run on a pool with one thread per
/// core shared by every manager.
open class PHImageManager: NSObject, @unchecked Sendable {
    private static let defaultManager = PHImageManager()

    /// The shared manager.
    open class func `default`() -> PHImageManager {
        defaultManager
    }

    /// Where asynchronous results are delivered. An OpenPhotoKit addition.
    public var resultHandlerQueue: DispatchQueue

    let cache: RenderedImageCache
    /// Where this manager's work runs: the process's shared scheduler, or a
    /// scheduler of its own (tests that count what is left to run).
    let scheduler: ImageWorkScheduler
    private let lock = NSLock()
    private var jobs: [PHImageRequestID: ImageWorkScheduler.Job] = [:]
    private static let requestIDs = RequestIDGenerator()

    /// A manager with its own memory cache (96 MB of pixels).
    public override convenience init() {
        self.init(scheduler: .shared)
    }

    /// A manager whose work runs on `scheduler`.
    init(scheduler: ImageWorkScheduler) {
        resultHandlerQueue = DispatchQueue(label: "photos.image-results")
        cache = RenderedImageCache(byteLimit: 96 << 20)
        self.scheduler = scheduler
        super.init()
    }

    // MARK: - Images

    /// Requests an image of `asset` for `targetSize` (pixels; or
    /// ``PHImageManagerMaximumSize`` for the full size) and calls
    /// `resultHandler` with it and an info dictionary.
    ///
    /// With `resizeMode` `.fast` (the default) the image is at least the
    /// target size, at the cheapest scale, not cropped; `.exact` gives
    /// exactly the fitted size or, with `.aspectFill`, the target size
    /// cropped (and `normalizedCropRect` crops first); `.none` gives the
    /// stored rendition that serves the request, unscaled. Smaller images
    /// are not scaled up except by `.exact`. A video's image is its first frame.
    ///
    /// Cost: from a derivative or the memory cache, about a millisecond; from
    /// a 12-megapixel JPEG original without a derivative, one 1/8-scale
    /// decode (about 40 ms), which also leaves a thumbnail for next time.
    ///
    /// A 300-pixel square thumbnail, delivered once, saved as JPEG:
    ///
    /// ```swift
    /// let options = PHImageRequestOptions()
    /// options.deliveryMode = .highQualityFormat
    /// options.resizeMode = .exact
    /// PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 300, height: 300),
    ///                                       contentMode: .aspectFill, options: options) { image, info in
    ///     guard let jpeg = image?.jpegData(compressionQuality: 0.8) else {
    ///         print("no image:", info?[PHImageErrorKey] ?? "unknown error")
    ///         return
    ///     }
    ///     try? jpeg.write(to: URL(fileURLWithPath: "/tmp/thumbnail.jpg"))
    /// }
    /// ```
    @discardableResult
    open func requestImage(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHImageRequestOptions?, resultHandler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let request = ImageRequest(
            id: Self.requestIDs.next(), asset: asset, targetSize: targetSize, contentMode: contentMode,
            options: (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions())
        if request.options.isSynchronous {
            // One call, with the final image, on this thread.
            let result = request.render(cache: cache, degradedFirst: false, fastOnly: false)
            resultHandler(result.image, request.info(result))
            return request.id
        }
        let handler = UncheckedSendable(resultHandler)
        let job = ImageWorkScheduler.Job(priority: .request) { [weak self] in
            self?.run(request, handler: handler.value)
        }
        lock.withLock { jobs[request.id] = job }
        scheduler.submit(job)
        return request.id
    }

    private func run(_ request: ImageRequest, handler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void) {
        let mode = request.options.deliveryMode
        let result = request.render(cache: cache, degradedFirst: mode == .opportunistic, fastOnly: mode == .fastFormat) { degraded in
            self.deliver(request, degraded, to: handler, final: false)
        }
        deliver(request, result, to: handler, final: true)
    }

    /// Delivers a result unless the request was cancelled, before or while
    /// the result was on its way.
    private func deliver(
        _ request: ImageRequest, _ result: ImageRequest.Result, to handler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void,
        final: Bool
    ) {
        guard let job = lock.withLock({ final ? jobs.removeValue(forKey: request.id) : jobs[request.id] }),
            !job.isCancelled
        else { return }
        let handler = UncheckedSendable(handler)
        let image = UncheckedSendable(result.image)
        let info = UncheckedSendable(request.info(result))
        resultHandlerQueue.async {
            guard !job.isCancelled else { return }
            handler.value(image.value, info.value)
        }
    }

    /// Cancels a request: its handler is not called again. Work not started
    /// never runs. Synchronous requests cannot be cancelled.
    open func cancelImageRequest(_ requestID: PHImageRequestID) {
        lock.withLock { jobs.removeValue(forKey: requestID) }?.cancel()
    }

    /// Requests the image's encoded data (the rendering of an edit for the
    /// current version, else the original), its uniform type identifier and
    /// its EXIF orientation, and calls `resultHandler` once.
    /// Cost: reading the file.
    @discardableResult
    open func requestImageDataAndOrientation(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let id = Self.requestIDs.next()
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        let work = { () -> (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]) in
            var info: [AnyHashable: Any] = [
                PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false,
                PHImageResultIsDegradedKey: false,
            ]
            do {
                guard asset.mediaType == .image else {
                    throw PHPhotosError(.requestNotSupportedForAsset, "\(asset.localIdentifier) is not an image", identifiers: [asset.localIdentifier])
                }
                let source = try ImageSource(asset: asset, version: options.version)
                let url = try source.primaryFile()
                let data = try Data(contentsOf: url)
                let orientation = MediaProbe.orientation(ofImageAt: url).flatMap { CGImagePropertyOrientation(rawValue: UInt32($0)) } ?? .up
                return (data, (try? source.primaryResource())?.uniformTypeIdentifier, orientation, info)
            } catch {
                info[PHImageErrorKey] = error as? PHPhotosError ?? PHPhotosError(.missingResource, error.localizedDescription)
                return (nil, nil, .up, info)
            }
        }
        if options.isSynchronous {
            let result = work()
            resultHandler(result.0, result.1, result.2, result.3)
            return id
        }
        let handler = UncheckedSendable(resultHandler)
        let job = ImageWorkScheduler.Job(priority: .request) { [weak self] in
            let (data, type, orientation, info) = work()
            guard let self, self.lock.withLock({ self.jobs.removeValue(forKey: id) }) != nil else { return }
            let delivered = UncheckedSendable(info)
            let bytes = data
            self.resultHandlerQueue.async { handler.value(bytes, type, orientation, delivered.value) }
        }
        lock.withLock { jobs[id] = job }
        scheduler.submit(job)
        return id
    }

    /// The data, type and orientation as UIKit names it. Superseded by
    /// ``requestImageDataAndOrientation(for:options:resultHandler:)``.
    @available(*, deprecated, renamed: "requestImageDataAndOrientation(for:options:resultHandler:)")
    @discardableResult
    open func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, UIImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        requestImageDataAndOrientation(for: asset, options: options) { data, type, orientation, info in
            resultHandler(data, type, UIImage.Orientation(orientation), info)
        }
    }

    // MARK: - Video

    /// Requests the file of a video asset (the rendering of an edit for
    /// `.current`, else the original), which lies inside the library: read
    /// it, do not change it. Calls `resultHandler` once, on
    /// ``resultHandlerQueue``. An OpenPhotoKit stand-in for
    /// `requestAVAsset(forVideo:)`, since Linux has no AVFoundation.
    @discardableResult
    open func requestVideoFileURL(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (URL?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let id = Self.requestIDs.next()
        let version: PHImageRequestOptionsVersion = options?.version == .original ? .original : .current
        let handler = UncheckedSendable(resultHandler)
        resultHandlerQueue.async {
            var info: [AnyHashable: Any] = [PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false]
            do {
                guard asset.mediaType == .video else {
                    throw PHPhotosError(.requestNotSupportedForAsset, "\(asset.localIdentifier) is not a video", identifiers: [asset.localIdentifier])
                }
                handler.value(try ImageSource(asset: asset, version: version).primaryFile(), info)
            } catch {
                info[PHImageErrorKey] = error
                handler.value(nil, info)
            }
        }
        return id
    }

    /// Requests the bytes of a video asset's file. Prefer
    /// ``requestVideoFileURL(forVideo:options:resultHandler:)`` for long
    /// videos: this reads the whole file into memory.
    @discardableResult
    open func requestVideoData(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (Data?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = UncheckedSendable(resultHandler)
        return requestVideoFileURL(forVideo: asset, options: options) { url, info in
            var info = info ?? [:]
            var data: Data?
            if let url {
                do {
                    data = try Data(contentsOf: url, options: .mappedIfSafe)
                } catch {
                    info[PHImageErrorKey] = PHPhotosError(.missingResource, error.localizedDescription)
                }
            }
            handler.value(data, info)
        }
    }

    // MARK: - Prefetching

    /// Renders into this manager's cache, at low priority, the images the
    /// requests would deliver; a later request with the same parameters is
    /// served from memory. Returns the jobs, to cancel.
    func prefetch(
        _ asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHImageRequestOptions?
    ) -> ImageWorkScheduler.Job {
        let request = ImageRequest(
            id: PHInvalidImageRequestID, asset: asset, targetSize: targetSize, contentMode: contentMode,
            options: (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions())
        let job = ImageWorkScheduler.Job(priority: .prefetch) { [weak self] in
            guard let self else { return }
            _ = request.render(cache: cache, degradedFirst: false, fastOnly: options?.deliveryMode == .fastFormat)
        }
        scheduler.submit(job)
        return job
    }
}

/// Hands out request IDs, from 1, across every manager.
final class RequestIDGenerator: @unchecked Sendable {
    private let lock = NSLock()
    private var last: PHImageRequestID = 0

    func next() -> PHImageRequestID {
        lock.withLock {
            last = last == .max ? 1 : last + 1
            return last
        }
    }
}
