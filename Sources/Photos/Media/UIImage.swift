import Foundation
import PhotosMedia

/// A decoded image, named as UIKit names it so that code written for Apple
/// platforms compiles. Holds upright 8-bit RGBA pixels at scale 1, so `size`
/// is in pixels. Immutable.
open class UIImage: NSObject, @unchecked Sendable {
    let pixels: RGBAPixels

    init(pixels: RGBAPixels) {
        self.pixels = pixels
    }

    /// Decodes encoded image data (JPEG, PNG, HEIC, WebP, TIFF, GIF...); nil
    /// when the data is not an image. Cost: a full decode.
    public init?(data: Data) {
        guard let pixels = try? ImageCodec.decode(data: data) else { return nil }
        self.pixels = pixels
    }

    /// Decodes an image file; nil when the file cannot be read as an image.
    /// Cost: a full decode.
    public init?(contentsOfFile path: String) {
        guard let pixels = try? ImageCodec.decode(fileAt: URL(fileURLWithPath: path)) else { return nil }
        self.pixels = pixels
    }

    /// Makes an image from upright 8-bit RGBA pixels (`width × height × 4`
    /// bytes, rows top to bottom); nil when the byte count does not match.
    public init?(rgbaPixels: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, rgbaPixels.count == width * height * 4 else { return nil }
        pixels = RGBAPixels(width: width, height: height, bytes: rgbaPixels)
    }

    /// How an image's pixels are turned for display, as UIKit numbers it.
    public enum Orientation: Int, Sendable {
        case up = 0
        case down = 1
        case left = 2
        case right = 3
        case upMirrored = 4
        case downMirrored = 5
        case leftMirrored = 6
        case rightMirrored = 7

        /// The UIKit orientation of an EXIF one.
        public init(_ orientation: CGImagePropertyOrientation) {
            switch orientation {
            case .up: self = .up
            case .upMirrored: self = .upMirrored
            case .down: self = .down
            case .downMirrored: self = .downMirrored
            case .leftMirrored: self = .leftMirrored
            case .right: self = .right
            case .rightMirrored: self = .rightMirrored
            case .left: self = .left
            }
        }
    }

    /// Always `.up`: the pixels are stored upright, orientation applied.
    public var imageOrientation: Orientation { .up }

    /// The size in points, which at scale 1 is the size in pixels.
    public var size: CGSize { CGSize(width: pixels.width, height: pixels.height) }
    /// Always 1: Linux has no display scale.
    public var scale: CGFloat { 1 }

    /// The pixels as RGBA bytes, rows top to bottom.
    public var rgbaPixels: [UInt8] { pixels.bytes }

    /// JPEG data at a quality between 0 and 1; nil if encoding fails.
    /// Transparency is flattened onto white. Cost: a full encode.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        try? ImageCodec.encode(pixels, as: .jpeg(quality: Int((compressionQuality * 100).rounded())))
    }

    /// PNG data; nil if encoding fails. Cost: a full encode.
    public func pngData() -> Data? {
        try? ImageCodec.encode(pixels, as: .png)
    }

    /// Whether any pixel is not fully opaque.
    var hasTransparency: Bool {
        pixels.withUnsafeBytes { bytes in stride(from: 3, to: bytes.count, by: 4).contains { bytes[$0] != 255 } }
    }

    /// The encoding a creation request stores: PNG when transparent, JPEG otherwise.
    func encodedForStorage() -> Data {
        (hasTransparency ? pngData() : jpegData(compressionQuality: 0.92)) ?? Data()
    }
}
