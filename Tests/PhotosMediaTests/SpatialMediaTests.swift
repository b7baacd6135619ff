import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

/// Spatial photos and videos found by their boxes. No Debian package makes
/// or ships one, so the boxes Apple's devices write are put into files real
/// encoders made: a `vexu` box (with its `eyes`/`stri`) into the HEVC sample
/// entry of an ffmpeg/x265 MOV, and a `grpl` box holding a `ster` group into
/// the `meta` box of a heif-enc HEIC.
@Suite struct SpatialMediaTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("spatial")
    }

    /// A box of `type` holding `contents`, with a 32-bit size.
    private static func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + contents.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + contents
    }

    /// `bytes` with `inserted` appended to the contents of the box `path`
    /// leads to, each box's own fields (`skipping`, by type) left before its
    /// children, and every enclosing box's size grown to match.
    private static func insert(_ inserted: [UInt8], into bytes: [UInt8], at path: [String], skipping: [String: Int] = [:]) throws -> [UInt8] {
        guard let type = path.first else { return bytes + inserted }
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            try #require(size >= 8 && offset + size <= bytes.count, "a box of \(name) with a 32-bit size")
            if name == type {
                let fields = 8 + (skipping[name] ?? 0)
                let contents = try insert(
                    inserted, into: Array(bytes[offset + fields..<offset + size]), at: Array(path.dropFirst()), skipping: skipping)
                let grown = box(name, Array(bytes[offset + 8..<offset + fields]) + contents)
                return Array(bytes[..<offset]) + grown + Array(bytes[(offset + size)...])
            }
            offset += size
        }
        Issue.record("no \(type) box")
        return bytes
    }

    private func hevcMOV() throws -> URL {
        let url = scratch.url.appendingPathComponent("plain.mov")
        try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1", "-pix_fmt", "yuv420p",
                "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", url.path,
            ])
        return url
    }

    /// Apple's video extended usage: both eyes present (`stri` flags 3).
    private static let videoExtendedUsage = box("vexu", box("eyes", box("stri", [0, 0, 0, 0, 3])))

    @Test func anMVHEVCVideoIsSpatialAndAPlainOneIsNot() throws {
        let plain = try hevcMOV()
        #expect(!SpatialMedia.isSpatial(fileAt: plain.path))
        #expect(!(try MediaProbe.probe(fileAt: plain)).captureTraits.contains(.spatial))
        let spatial = try Self.insert(
            Self.videoExtendedUsage, into: [UInt8](Data(contentsOf: plain)),
            at: ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"], skipping: ["stsd": 8, "hvc1": 78])
        let url = scratch.url.appendingPathComponent("spatial.mov")
        try Data(spatial).write(to: url)
        #expect(SpatialMedia.isSpatial(fileAt: url.path))
        let probed = try MediaProbe.probe(fileAt: url)
        #expect(probed.kind == .video && probed.pixelWidth == 320, "still read as the video it is")
        #expect(probed.captureTraits.contains(.spatial))
    }

    @Test func aHEICWithAStereoGroupIsSpatial() throws {
        let png = scratch.url.appendingPathComponent("still.png")
        try DebianTool.run("vips", ["black", png.path, "64", "48", "--bands", "3"])
        let heic = scratch.url.appendingPathComponent("still.heic")
        try DebianTool.run("heif-enc", ["-q", "50", "-o", heic.path, png.path])
        let plain = try [UInt8](Data(contentsOf: heic))
        #expect(!SpatialMedia.isSpatial(bytes: plain))
        // A stereo pair group: version and flags, group id, two entities (items 1 and 2).
        let pair = Self.box("ster", [0, 0, 0, 0] + [0, 0, 0, 9] + [0, 0, 0, 2] + [0, 0, 0, 1] + [0, 0, 0, 2])
        let spatial = try Self.insert(Self.box("grpl", pair), into: plain, at: ["meta"], skipping: ["meta": 4])
        #expect(SpatialMedia.isSpatial(bytes: spatial))
        // A `ster` anywhere but in the meta box's groups is not one.
        #expect(!SpatialMedia.isSpatial(bytes: plain + pair))
    }

    /// Fuzzed: random bytes, and the spatial video with bytes changed and cut
    /// short, never trap, never visit more than the box limit, and a file
    /// that does not start with `ftyp` is never spatial.
    @Test func damagedAndHostileFilesAnswerWithinTheLimit() throws {
        var random = SeededRandom.fromEnvironment()
        let spatial = try Self.insert(
            Self.videoExtendedUsage, into: [UInt8](Data(contentsOf: try hevcMOV())),
            at: ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"], skipping: ["stsd": 8, "hvc1": 78])
        #expect(SpatialMedia.isSpatial(bytes: spatial))
        for _ in 0..<300 {
            var damaged = spatial
            for _ in 0..<Int.random(in: 1...16, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { damaged = Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &random))) }
            _ = SpatialMedia.isSpatial(bytes: damaged)
            let noise = (0..<Int.random(in: 0...512, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(!SpatialMedia.isSpatial(bytes: noise) || noise.count >= 8 && noise[4..<8].elementsEqual("ftyp".utf8))
        }
        // Hostile sizes: a 64-bit size past the end, a size of zero (to the end) nested, a box smaller than its header.
        let ftyp = Self.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0])
        let huge = [0, 0, 0, 1] + Array("moov".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + huge))
        let toTheEnd = [0, 0, 0, 0] + Array("moov".utf8) + [0, 0, 0, 0] + Array("trak".utf8)
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + toTheEnd))
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + [0, 0, 0, 4] + Array("meta".utf8)))
        // Thousands of empty boxes: the reading stops at the limit.
        var boxes = ISOBoxes(length: 8 * 100_000) { offset, count in
            Array((Self.box("free", []) + Self.box("free", [])).prefix(count))
        }
        _ = boxes.children(of: ISOBoxes.Box(type: "", start: 0, end: boxes.length))
        #expect(boxes.visited == ISOBoxes.boxLimit)
    }
}
