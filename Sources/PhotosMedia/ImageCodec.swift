import CPhotosMedia
import Foundation

/// Whole-image decoding and encoding with libvips.
package enum ImageCodec {
    /// An encoded format to write.
    package enum Format: Sendable {
        case jpeg(quality: Int)
        case png
        case tiff

        var suffix: String {
            switch self {
            case .jpeg(let quality): ".jpg[Q=\(min(100, max(1, quality)))]"
            case .png: ".png"
            case .tiff: ".tif"
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
        let failure = Vips.run {
            pixels.withUnsafeBytes { bytes in
                (exif ?? Data()).withUnsafeBytes { exifBytes in
                    pm_encode(
                        bytes.bindMemory(to: UInt8.self).baseAddress, Int32(pixels.width), Int32(pixels.height), 4,
                        format.suffix, exifBytes.baseAddress, exifBytes.count, &output, &length)
                }
            }
        }
        guard failure == nil, let output else { throw MediaError(file: "image", reason: failure ?? "libvips returned no image") }
        defer { pm_free(output) }
        return Data(bytes: output, count: length)
    }

    private static func decode(
        label: String,
        _ call: (inout UnsafeMutablePointer<UInt8>?, inout Int32, inout Int32) -> Int32
    ) throws(MediaError) -> RGBAPixels {
        try RGBAPixels.receive(label: label, call)
    }
}

/// Renders sample photos: gradients with real EXIF, for demos, tests and benchmarks.
package enum SampleImage {
    /// A JPEG of a diagonal gradient between two RGB colours (components 0...255).
    package static func jpeg(
        width: Int, height: Int, from: (Double, Double, Double), to: (Double, Double, Double),
        exif: ExifFields? = nil, quality: Int = 85
    ) throws(MediaError) -> Data {
        guard Vips.isReady else { throw MediaError(file: "sample", reason: "libvips failed to initialise") }
        let start = [from.0, from.1, from.2]
        let end = [to.0, to.1, to.2]
        var output: UnsafeMutableRawPointer?
        var length = 0
        let failure = Vips.run { pm_render_gradient_jpeg(Int32(width), Int32(height), start, end, nil, 0, Int32(quality), &output, &length) }
        guard failure == nil, let output else { throw MediaError(file: "sample", reason: failure ?? "libvips returned no image") }
        defer { pm_free(output) }
        let jpeg = Data(bytes: output, count: length)
        guard let block = exif?.encoded() else { return jpeg }
        return JPEGSegments.insertingEXIF(block, into: jpeg)
    }
}

/// Reading and adding the APP1 segment that holds a JPEG's EXIF block.
enum JPEGSegments {
    /// The JPEG with an APP1 segment holding `block` (which starts with
    /// "Exif\0\0") right after its start marker. Written here rather than
    /// by libvips, whose encoder rewrites EXIF through libexif and drops
    /// Apple's MakerNote on the way.
    static func insertingEXIF(_ block: Data, into jpeg: Data) -> Data {
        let segmentLength = block.count + 2
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: [0xFF, 0xE1, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)])
        result.append(block)
        result.append(jpeg.dropFirst(2))
        return result
    }

    /// The EXIF block (starting with "Exif\0\0") of the first EXIF segment
    /// before the image data, and the range of that whole segment.
    static func exif(in jpeg: Data) -> (block: Data, segment: Range<Int>)? {
        let bytes = [UInt8](jpeg.prefix(1 << 20))
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let end = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if marker == 0xDA || end > bytes.count { return nil }
            if marker == 0xE1, end >= offset + 10, Array(bytes[offset + 4..<offset + 10]) == Array("Exif\0\0".utf8) {
                return (Data(bytes[offset + 4..<end]), offset..<end)
            }
            offset = end
        }
        return nil
    }

    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let iptcSignature = Array("Photoshop 3.0\0".utf8)

    /// Calls `visit` with the marker and body of each segment before the
    /// image data of the JPEG at `path`, until it returns false.
    /// Cost: one read of the file's first 512 KiB at most.
    private static func forEachSegment(fileAt path: String, _ visit: (UInt8, ArraySlice<UInt8>) -> Bool) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 1 << 19)) ?? Data())
        guard bytes.starts(with: [0xFF, 0xD8]) else { return }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let end = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if marker == 0xDA || !visit(marker, bytes[(offset + 4)..<min(max(end, offset + 4), bytes.count)]) { return }
            offset = end
        }
    }

    /// Whether the JPEG at `path` has an XMP (APP1) or IPTC (APP13)
    /// segment before its image data: metadata libexif does not read.
    /// Cost: one read of the file's first 512 KiB at most.
    static func hasXMPOrIPTC(fileAt path: String) -> Bool {
        var found = false
        forEachSegment(fileAt: path) { marker, body in
            found = marker == 0xE1 && body.starts(with: xmpSignature) || marker == 0xED && body.starts(with: iptcSignature)
            return !found
        }
        return found
    }

    /// What an XMP packet names when it rates, captions or tags a photo.
    private static let descriptiveXMPNames = ["xmp:Rating", "dc:subject", "dc:description", "dc:title"].map { Array($0.utf8) }

    /// Whether the JPEG at `path` has IPTC (an APP13 segment, which holds
    /// captions and keywords), or XMP naming a rating, subject, description
    /// or title. Cost: one read of the file's first 512 KiB at most.
    static func hasDescriptiveMetadata(fileAt path: String) -> Bool {
        var found = false
        forEachSegment(fileAt: path) { marker, body in
            if marker == 0xED && body.starts(with: iptcSignature) {
                found = true
            } else if marker == 0xE1 && body.starts(with: xmpSignature) {
                found = descriptiveXMPNames.contains { name in body.firstRange(of: name) != nil }
            }
            return !found
        }
        return found
    }

    /// The text of the JPEG's XMP packet; nil when it has none.
    static func xmpPacket(fileAt path: String) -> String? {
        var packet: String?
        forEachSegment(fileAt: path) { marker, body in
            guard marker == 0xE1, body.starts(with: xmpSignature) else { return true }
            packet = String(decoding: body.dropFirst(xmpSignature.count), as: UTF8.self)
            return false
        }
        return packet
    }

    /// The JPEG with `block` as its only EXIF segment.
    static func replacingEXIF(with block: Data, in jpeg: Data) -> Data {
        var jpeg = jpeg
        if let existing = exif(in: jpeg) {
            jpeg.removeSubrange(existing.segment.lowerBound + jpeg.startIndex..<existing.segment.upperBound + jpeg.startIndex)
        }
        return insertingEXIF(block, into: jpeg)
    }
}
