import Foundation

/// Spatial photos and videos as Apple's devices write them. No Debian
/// package makes or ships one, so Apple's boxes are put into files real
/// encoders made: a `vexu` box (with its `eyes`/`stri`) into the HEVC sample
/// entry of an ffmpeg/x265 MOV, and a `grpl` box holding a `ster` group into
/// the `meta` box of a heif-enc HEIC, whose item locations are moved by the
/// bytes inserted before them so that it still decodes.
package enum SpatialFiles {
    /// Why a file could not be made spatial.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A plain x265 MOV of one second at 320×240, and the same with Apple's
    /// video extended usage (both eyes) in its sample entry, in `folder`.
    package static func video(in folder: URL) throws -> (plain: URL, spatial: URL) {
        let plain = folder.appendingPathComponent("plain-\(UUID().uuidString).mov")
        try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1", "-pix_fmt", "yuv420p",
                "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", plain.path,
            ])
        let bytes = try insert(
            videoExtendedUsage, into: [UInt8](Data(contentsOf: plain)),
            at: ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"], skipping: ["stsd": 8, "hvc1": 78])
        let spatial = folder.appendingPathComponent("spatial-\(UUID().uuidString).mov")
        try Data(bytes).write(to: spatial)
        return (plain, spatial)
    }

    /// A plain heif-enc HEIC of 64×48 made from a libvips image, and the same
    /// with a stereo pair group in its `meta` box, in `folder`.
    package static func photo(in folder: URL) throws -> (plain: URL, spatial: URL) {
        let png = folder.appendingPathComponent("still-\(UUID().uuidString).png")
        try DebianTool.run("vips", ["gaussnoise", png.path, "64", "48"])
        let plain = folder.appendingPathComponent("plain-\(UUID().uuidString).heic")
        try DebianTool.run("heif-enc", ["-q", "50", "-o", plain.path, png.path])
        let bytes = try [UInt8](Data(contentsOf: plain))
        let group = box("grpl", stereoPair)
        let spatial = folder.appendingPathComponent("spatial-\(UUID().uuidString).heic")
        try Data(try movingItemLocations(of: insert(group, into: bytes, at: ["meta"], skipping: ["meta": 4]), by: group.count))
            .write(to: spatial)
        return (plain, spatial)
    }

    /// Apple's video extended usage: both eyes present (`stri` flags 3).
    package static let videoExtendedUsage = box("vexu", box("eyes", box("stri", [0, 0, 0, 0, 3])))

    /// A stereo pair group: version and flags, group id 9, two entities
    /// (items 1 and 2).
    package static let stereoPair = box("ster", [0, 0, 0, 0] + [0, 0, 0, 9] + [0, 0, 0, 2] + [0, 0, 0, 1] + [0, 0, 0, 2])

    /// A box of `type` holding `contents`, with a 32-bit size.
    package static func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + contents.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + contents
    }

    /// `bytes` with `inserted` appended to the contents of the box `path`
    /// leads to, each box's own fields (`skipping`, by type) left before its
    /// children, and every enclosing box's size grown to match.
    package static func insert(_ inserted: [UInt8], into bytes: [UInt8], at path: [String], skipping: [String: Int] = [:]) throws -> [UInt8] {
        guard let type = path.first else { return bytes + inserted }
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(integer(bytes, at: offset, size: 4))
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8 && offset + size <= bytes.count else { throw Failure(description: "a box of \(name) without a 32-bit size") }
            if name == type {
                let fields = 8 + (skipping[name] ?? 0)
                let contents = try insert(inserted, into: Array(bytes[offset + fields..<offset + size]), at: Array(path.dropFirst()), skipping: skipping)
                let grown = box(name, Array(bytes[offset + 8..<offset + fields]) + contents)
                return Array(bytes[..<offset]) + grown + Array(bytes[(offset + size)...])
            }
            offset += size
        }
        throw Failure(description: "no \(type) box")
    }

    /// A HEIF file's item locations (its `meta`/`iloc` box) moved `delta`
    /// bytes on, for items located by file offset: what inserting `delta`
    /// bytes before the media data takes. ISO/IEC 23008-12's `iloc`,
    /// versions 0 to 2.
    static func movingItemLocations(of bytes: [UInt8], by delta: Int) throws -> [UInt8] {
        guard let iloc = boxContents(["meta", "iloc"], in: bytes, skipping: ["meta": 4]) else {
            throw Failure(description: "no meta/iloc box")
        }
        var moved = bytes
        var cursor = iloc.lowerBound
        func read(_ size: Int) throws -> (offset: Int, value: UInt64) {
            guard cursor + size <= iloc.upperBound else { throw Failure(description: "an iloc box cut short") }
            defer { cursor += size }
            return (cursor, integer(bytes, at: cursor, size: size))
        }
        func move(_ field: (offset: Int, value: UInt64), size: Int) {
            let value = field.value + UInt64(delta)
            for index in 0..<size { moved[field.offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - index))) }
        }
        let version = try read(4).value >> 24
        let sizes = try read(2).value
        let offsetSize = Int(sizes >> 12 & 15)
        let lengthSize = Int(sizes >> 8 & 15)
        let baseOffsetSize = Int(sizes >> 4 & 15)
        let indexSize = version >= 1 ? Int(sizes & 15) : 0
        let itemCount = try read(version < 2 ? 2 : 4).value
        for _ in 0..<itemCount {
            _ = try read(version < 2 ? 2 : 4)
            let constructionMethod = version >= 1 ? try read(2).value & 15 : 0
            _ = try read(2)
            let baseOffset = try read(baseOffsetSize)
            let extentCount = try read(2).value
            let locatedInFile = constructionMethod == 0
            if locatedInFile && baseOffsetSize > 0 { move(baseOffset, size: baseOffsetSize) }
            for _ in 0..<extentCount {
                _ = try read(indexSize)
                let extentOffset = try read(offsetSize)
                _ = try read(lengthSize)
                if locatedInFile && baseOffsetSize == 0 && offsetSize > 0 { move(extentOffset, size: offsetSize) }
            }
        }
        return moved
    }

    /// Where the contents of the box `path` leads to lie in `bytes`, after
    /// its own fields (`skipping`, by type); nil when there is no such box.
    private static func boxContents(_ path: [String], in bytes: [UInt8], within range: Range<Int>? = nil, skipping: [String: Int]) -> Range<Int>? {
        let range = range ?? 0..<bytes.count
        guard let type = path.first else { return range }
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(integer(bytes, at: offset, size: 4))
            guard size >= 8, offset + size <= range.upperBound else { return nil }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
                let contents = (offset + 8 + (skipping[type] ?? 0))..<(offset + size)
                return boxContents(Array(path.dropFirst()), in: bytes, within: contents, skipping: skipping)
            }
            offset += size
        }
        return nil
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        bytes[offset..<offset + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
