import Foundation
import PhotosMedia
import PhotosStore

/// One image request: what it asks for, and rendering it from the best
/// source at hand: the memory cache, a derivative on disk, or the full-size
/// image.
struct ImageRequest {
    /// An image delivered, or the error that kept it back.
    struct Result {
        var image: UIImage?
        /// A stand-in smaller than asked.
        var degraded: Bool
        var error: PHPhotosError?
    }

    let id: PHImageRequestID
    let asset: PHAsset
    let targetSize: CGSize
    let contentMode: PHImageContentMode
    let options: PHImageRequestOptions

    func info(_ result: Result) -> [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [
            PHImageResultRequestIDKey: id, PHImageResultIsDegradedKey: result.degraded,
            PHImageResultIsInCloudKey: false,
        ]
        if let error = result.error { info[PHImageErrorKey] = error }
        return info
    }

    /// The target in pixels; nil asks for the full size.
    private var target: (width: Int, height: Int)? {
        guard targetSize.width > 0, targetSize.height > 0 else { return nil }
        return (max(1, Int(targetSize.width.rounded())), max(1, Int(targetSize.height.rounded())))
    }

    /// The crop, in unit coordinates clamped to the image, for exact requests.
    private var crop: (x: Double, y: Double, width: Double, height: Double)? {
        let rect = options.normalizedCropRect.standardized
        guard options.resizeMode == .exact, target != nil, rect.width > 0, rect.height > 0 else { return nil }
        let x = min(max(Double(rect.minX), 0), 1)
        let y = min(max(Double(rect.minY), 0), 1)
        let width = min(Double(rect.maxX), 1) - x
        let height = min(Double(rect.maxY), 1) - y
        guard width > 0, height > 0, width < 1 || height < 1 else { return nil }
        return (x, y, width, height)
    }

    private var mode: RenderSpec.Mode { contentMode == .aspectFill ? .fill : .fit }

    /// How the final image is rendered from whichever source serves it.
    private var spec: RenderSpec {
        guard let target, options.resizeMode != .none else {
            return RenderSpec(targetWidth: nil, targetHeight: nil, mode: .fit, exact: false)
        }
        return RenderSpec(
            targetWidth: target.width, targetHeight: target.height, mode: mode,
            exact: options.resizeMode == .exact, crop: crop)
    }

    /// A stand-in from the thumbnail: the target's shape at the thumbnail's scale.
    private var standInSpec: RenderSpec {
        RenderSpec(targetWidth: target?.width, targetHeight: target?.height, mode: mode, exact: false)
    }

    /// The short edge, in pixels of the upright source, that the image needs.
    private func neededShortEdge(_ source: ImageSource) -> Double {
        guard let target else { return .infinity }
        let width = Double(max(1, source.width)) * (crop?.width ?? 1)
        let height = Double(max(1, source.height)) * (crop?.height ?? 1)
        let horizontal = Double(target.width) / width
        let vertical = Double(target.height) / height
        let scale = mode == .fill ? max(horizontal, vertical) : min(horizontal, vertical)
        return Double(min(source.width, source.height)) * scale
    }

    /// Renders the request. With `degradedFirst`, a thumbnail stand-in goes
    /// to `degraded` first when the final image needs more work; with
    /// `fastOnly`, an existing thumbnail is the answer even if smaller than
    /// asked (and then marked degraded).
    func render(
        cache: RenderedImageCache, degradedFirst: Bool, fastOnly: Bool,
        degraded: ((Result) -> Void)? = nil
    ) -> Result {
        do throws(PHPhotosError) {
            let source = try ImageSource(asset: asset, version: options.version)
            let kind = target == nil ? nil : source.derivativeKind(servingShortEdge: neededShortEdge(source))
            let key = { (rendition: DerivativeCache.Kind?, spec: RenderSpec, degraded: Bool) in
                RenderedImageCache.Key(
                    assetUUID: asset.record.uuid, contentVersion: asset.record.contentVersion,
                    version: source.isCurrent ? 0 : 1, rendition: rendition, spec: spec, degraded: degraded)
            }
            if let image = cache.image(for: key(kind, spec, false)) {
                return Result(image: image, degraded: false)
            }
            let finalIsReady = kind.map { source.existingDerivative($0) != nil } ?? false
            if (fastOnly || degradedFirst) && kind != .thumbnail && !finalIsReady,
                let standIn = cache.image(for: key(.thumbnail, standInSpec, true))
                    ?? renderExisting(.thumbnail, of: source, standInSpec)
            {
                cache.store(standIn, for: key(.thumbnail, standInSpec, true))
                if fastOnly { return Result(image: standIn, degraded: true) }
                degraded?(Result(image: standIn, degraded: true))
            }
            let image: UIImage
            if let kind, let rendered = renderExisting(kind, of: source, spec) {
                image = rendered
            } else if let kind {
                let jpeg = try source.makeDerivative(kind)
                image = UIImage(pixels: try pixels { () throws(MediaError) in try ImageRenderer.render(derivative: jpeg, spec) })
            } else {
                image = UIImage(
                    pixels: try source.withFullSizeImage { url, width, height throws(PHPhotosError) in
                        try pixels { () throws(MediaError) in
                            try ImageRenderer.render(fileAt: url, sourceWidth: width, sourceHeight: height, spec)
                        }
                    })
            }
            cache.store(image, for: key(kind, spec, false))
            return Result(image: image, degraded: false)
        } catch {
            return Result(image: nil, degraded: false, error: error)
        }
    }

    /// Renders a derivative on disk; nil when there is none, or when it
    /// cannot be read (damaged by a crash, say), which also discards it so
    /// that it is made again.
    private func renderExisting(_ kind: DerivativeCache.Kind, of source: ImageSource, _ spec: RenderSpec) -> UIImage? {
        guard let url = source.existingDerivative(kind) else { return nil }
        do {
            return UIImage(pixels: try ImageRenderer.render(derivativeAt: url, spec))
        } catch {
            source.library.derivatives.discard(url)
            return nil
        }
    }

    /// Runs a libvips render, reporting a failure as an invalid resource of the asset.
    private func pixels(_ render: () throws(MediaError) -> RGBAPixels) throws(PHPhotosError) -> RGBAPixels {
        do {
            return try render()
        } catch {
            throw PHPhotosError(.invalidResource, error.description, identifiers: [asset.localIdentifier])
        }
    }
}
