import CPhotosMedia
import Foundation

/// 8-bit RGBA pixels, upright (orientation applied), rows top to bottom.
package struct RGBAPixels: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// width × height × 4 bytes.
    package var bytes: [UInt8]

    package init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "RGBA pixels need width × height × 4 bytes")
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// Whole-image decoding and encoding with libvips.
package enum ImageCodec {
    /// An encoded format to write.
    package enum Format: Sendable {
        case jpeg(quality: Int)
        case png

        var suffix: String {
            switch self {
            case .jpeg(let quality): ".jpg[Q=\(min(100, max(1, quality)))]"
            case .png: ".png"
            }
        }
    }

    /// Decodes the image file at `url`. Cost: a full decode of the image.
    package static func decode(fileAt url: URL) throws(MediaError) -> RGBAPixels {
        try decode(label: url.path) { pixels, width, height in
            pm_decode_rgba(url.path, nil, 0, &pixels, &width, &height)
        }
    }

    /// Decodes an encoded image held in memory. Cost: a full decode of the image.
    package static func decode(data: Data) throws(MediaError) -> RGBAPixels {
        try decode(label: "image data") { pixels, width, height in
            data.withUnsafeBytes { buffer in
                pm_decode_rgba(nil, buffer.baseAddress, buffer.count, &pixels, &width, &height)
            }
        }
    }

    /// Encodes pixels, with an optional EXIF block. Cost: a full encode.
    package static func encode(_ pixels: RGBAPixels, as format: Format, exif: Data? = nil) throws(MediaError) -> Data {
        guard Vips.isReady else { throw MediaError(file: "image", reason: "libvips failed to initialise") }
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = pixels.bytes.withUnsafeBufferPointer { bytes in
            (exif ?? Data()).withUnsafeBytes { exifBytes in
                pm_encode(bytes.baseAddress, Int32(pixels.width), Int32(pixels.height), 4, format.suffix,
                          exifBytes.baseAddress, exifBytes.count, &output, &length)
            }
        }
        guard status == 0, let output else { throw MediaError(file: "image", reason: Vips.takeError()) }
        defer { pm_free(output) }
        return Data(bytes: output, count: length)
    }

    private static func decode(
        label: String,
        _ call: (inout UnsafeMutablePointer<UInt8>?, inout Int32, inout Int32) -> Int32
    ) throws(MediaError) -> RGBAPixels {
        guard Vips.isReady else { throw MediaError(file: label, reason: "libvips failed to initialise") }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        guard call(&pixels, &width, &height) == 0, let pixels else {
            throw MediaError(file: label, reason: "the image cannot be decoded: \(Vips.takeError())")
        }
        defer { pm_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return RGBAPixels(width: Int(width), height: Int(height),
                          bytes: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}

/// Renders sample photos: gradients with real EXIF, for demos, tests and benchmarks.
package enum SampleImage {
    /// A JPEG of a diagonal gradient between two RGB colours (components 0...255).
    package static func jpeg(width: Int, height: Int, from: (Double, Double, Double), to: (Double, Double, Double),
                             exif: ExifFields? = nil, quality: Int = 85) throws(MediaError) -> Data {
        guard Vips.isReady else { throw MediaError(file: "sample", reason: "libvips failed to initialise") }
        let block = exif?.encoded() ?? Data()
        let start = [from.0, from.1, from.2]
        let end = [to.0, to.1, to.2]
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = block.withUnsafeBytes { exifBytes in
            pm_render_gradient_jpeg(Int32(width), Int32(height), start, end,
                                    exifBytes.baseAddress, exifBytes.count, Int32(quality), &output, &length)
        }
        guard status == 0, let output else { throw MediaError(file: "sample", reason: Vips.takeError()) }
        defer { pm_free(output) }
        return Data(bytes: output, count: length)
    }
}
