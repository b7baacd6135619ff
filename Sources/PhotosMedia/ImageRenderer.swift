import CPhotosMedia
import Foundation

/// What to render of an image, in pixels of the upright image.
package struct RenderSpec: Sendable, Hashable {
    /// How the image meets the target size.
    package enum Mode: Sendable, Hashable {
        /// Fit inside the target, keeping the aspect ratio.
        case fit
        /// Cover the target, keeping the aspect ratio.
        case fill
    }

    /// nil renders the full size.
    package var targetWidth: Int?
    package var targetHeight: Int?
    package var mode: Mode
    /// True: exactly the fitted size, or the target filled and cropped to
    /// it, scaling up if needed. False: the cheapest size that covers the
    /// target, never scaled up or cropped.
    package var exact: Bool
    /// A crop in unit coordinates of the upright image (origin top left),
    /// applied before fitting or filling; only with `exact`.
    package var crop: (x: Double, y: Double, width: Double, height: Double)?

    package init(
        targetWidth: Int?, targetHeight: Int?, mode: Mode, exact: Bool,
        crop: (x: Double, y: Double, width: Double, height: Double)? = nil
    ) {
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.mode = mode
        self.exact = exact
        self.crop = crop
    }

    package static func == (lhs: RenderSpec, rhs: RenderSpec) -> Bool {
        lhs.targetWidth == rhs.targetWidth && lhs.targetHeight == rhs.targetHeight && lhs.mode == rhs.mode
            && lhs.exact == rhs.exact && lhs.crop.map { [$0.x, $0.y, $0.width, $0.height] } == rhs.crop.map { [$0.x, $0.y, $0.width, $0.height] }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(targetWidth)
        hasher.combine(targetHeight)
        hasher.combine(mode)
        hasher.combine(exact)
        hasher.combine(crop.map { [$0.x, $0.y, $0.width, $0.height] })
    }

    fileprivate func raw(sourceWidth: Int, sourceHeight: Int) -> pm_render_spec {
        var spec = pm_render_spec()
        spec.source_width = Int32(sourceWidth)
        spec.source_height = Int32(sourceHeight)
        spec.target_width = Int32(targetWidth ?? 0)
        spec.target_height = Int32(targetHeight ?? 0)
        spec.fill = mode == .fill ? 1 : 0
        spec.exact = exact ? 1 : 0
        if let crop, exact {
            (spec.crop_x, spec.crop_y, spec.crop_width, spec.crop_height) = (crop.x, crop.y, crop.width, crop.height)
        }
        return spec
    }
}

/// Renders images for display with libvips, decoding each at the smallest
/// scale that serves the request (JPEG, WebP and HEIF shrink on load).
package enum ImageRenderer {
    /// Renders the image file at `url`, whose upright size is
    /// `sourceWidth × sourceHeight` (0 when unknown: read from the file).
    /// Cost: for a 12-megapixel JPEG and a thumbnail, a 1/8-scale decode
    /// (about 40 ms); for the full size, a full decode.
    package static func render(
        fileAt url: URL, sourceWidth: Int = 0, sourceHeight: Int = 0,
        _ spec: RenderSpec
    ) throws(MediaError) -> RGBAPixels {
        var raw = spec.raw(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        return try RGBAPixels.receive(label: url.path) { pixels, width, height in
            pm_render(url.path, nil, 0, &raw, &pixels, &width, &height)
        }
    }

    /// Renders a derivative the library wrote (an upright JPEG without
    /// metadata). A request that accepts any size covering its target is
    /// served by libjpeg's DCT scaling alone, up to an eighth larger than
    /// needed; an exact size by that decode then a resize in memory (see
    /// ``render(derivative:_:)``); crops go through `render(fileAt:)`.
    /// Cost: for a 480 × 360 thumbnail, under a millisecond, about a
    /// quarter of a libvips pipeline's; exactly 256 × 256, about 3 ms.
    package static func render(derivativeAt url: URL, _ spec: RenderSpec) throws(MediaError) -> RGBAPixels {
        guard spec.crop == nil, let targetWidth = spec.targetWidth, let targetHeight = spec.targetHeight else {
            return try render(fileAt: url, spec)
        }
        let fill: Int32 = spec.mode == .fill ? 1 : 0
        return try RGBAPixels.receive(label: url.path) { pixels, width, height in
            spec.exact
                ? pm_render_derivative(url.path, nil, 0, Int32(targetWidth), Int32(targetHeight), fill, &pixels, &width, &height)
                : pm_decode_jpeg_covering(url.path, nil, 0, Int32(targetWidth), Int32(targetHeight), fill, &pixels, &width, &height)
        }
    }

    /// Renders a derivative the library wrote, held in memory (one just
    /// made): an exact size as ``render(derivativeAt:_:)`` renders it from
    /// its file; any other request as ``render(data:_:)`` does, at the size
    /// that covers the target.
    package static func render(derivative jpeg: Data, _ spec: RenderSpec) throws(MediaError) -> RGBAPixels {
        guard spec.exact, spec.crop == nil, let targetWidth = spec.targetWidth, let targetHeight = spec.targetHeight else {
            return try render(data: jpeg, spec)
        }
        return try RGBAPixels.receive(label: "a derivative") { pixels, width, height in
            jpeg.withUnsafeBytes { buffer in
                pm_render_derivative(
                    nil, buffer.baseAddress, buffer.count, Int32(targetWidth), Int32(targetHeight),
                    spec.mode == .fill ? 1 : 0, &pixels, &width, &height)
            }
        }
    }

    /// Renders an encoded image held in memory.
    package static func render(data: Data, _ spec: RenderSpec) throws(MediaError) -> RGBAPixels {
        var raw = spec.raw(sourceWidth: 0, sourceHeight: 0)
        return try RGBAPixels.receive(label: "image data") { pixels, width, height in
            data.withUnsafeBytes { buffer in
                pm_render(nil, buffer.baseAddress, buffer.count, &raw, &pixels, &width, &height)
            }
        }
    }

    /// A JPEG of the upright image scaled down so that its short edge is
    /// `shortEdge` (smaller images keep their size), without metadata. It
    /// fails on any decode error, so it also proves the file decodes. With
    /// `placeholder`, it also gives the same image at most 100 × 100 for a
    /// ThumbHash, scaled from the derivative's pixels in memory.
    /// Cost: a shrink-on-load decode and a small encode.
    package static func derivative(
        fileAt url: URL, sourceWidth: Int = 0, sourceHeight: Int = 0, shortEdge: Int,
        quality: Int = 82, placeholder: Bool = false
    ) throws(MediaError) -> Derivative {
        guard Vips.isReady else { throw MediaError(file: url.path, reason: "libvips failed to initialise") }
        var output: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var small: UnsafeMutablePointer<UInt8>?
        var smallWidth: Int32 = 0
        var smallHeight: Int32 = 0
        if let failure = Vips.run({
            placeholder
                ? pm_make_derivative(
                    url.path, Int32(sourceWidth), Int32(sourceHeight), Int32(shortEdge), Int32(quality),
                    &output, &length, &width, &height, &small, &smallWidth, &smallHeight)
                : pm_make_derivative(
                    url.path, Int32(sourceWidth), Int32(sourceHeight), Int32(shortEdge), Int32(quality),
                    &output, &length, &width, &height, nil, nil, nil)
        }) {
            throw MediaError(file: url.path, reason: "the image cannot be decoded: \(failure)")
        }
        let pixels = small.map { RGBAPixels(taking: $0, width: Int(smallWidth), height: Int(smallHeight)) }
        guard let output else { throw MediaError(file: url.path, reason: "the image cannot be decoded: libvips returned no image") }
        defer { pm_free(output) }
        return Derivative(jpeg: Data(bytes: output, count: length), width: Int(width), height: Int(height), placeholderPixels: pixels)
    }

    /// What ``derivative(fileAt:sourceWidth:sourceHeight:shortEdge:quality:placeholder:)`` makes.
    package struct Derivative: Sendable {
        /// The encoded image.
        package let jpeg: Data
        /// Its size in pixels, upright.
        package let width: Int
        package let height: Int
        /// The image at most 100 × 100, when asked for.
        package let placeholderPixels: RGBAPixels?
    }
}

/// Content hashes, to recognise a file already in the library.
package enum ContentHash {
    /// The 128-bit XXH3 hash of the file's bytes, as 32 hex digits. Not a
    /// cryptographic hash: it tells identical files apart from different
    /// ones, not from forged ones. Cost: one read of the file, at memory speed.
    package static func ofFile(at url: URL) throws(MediaError) -> String {
        var hex = [CChar](repeating: 0, count: 33)
        guard pm_hash_file(url.path, &hex) == 0 else {
            throw MediaError(file: url.path, reason: "the file cannot be read")
        }
        return String(decoding: hex.prefix(32).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
