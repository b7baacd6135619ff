import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

/// Spatial photos and videos found by their boxes, in files real encoders
/// made with Apple's boxes put in (``SpatialFiles``).
@Suite struct SpatialMediaTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("spatial")
    }

    /// What the probe reads of `spatial`, having checked that it, and not
    /// the `plain` file it was made from, is spatial by its boxes and to the probe.
    private static func probeSpatial(_ spatial: URL, beside plain: URL) throws -> MediaMetadata {
        #expect(!SpatialMedia.isSpatial(fileAt: plain.path))
        #expect(!(try MediaProbe.probe(fileAt: plain)).captureTraits.contains(.spatial))
        #expect(SpatialMedia.isSpatial(fileAt: spatial.path))
        let probed = try MediaProbe.probe(fileAt: spatial)
        #expect(probed.captureTraits.contains(.spatial))
        return probed
    }

    @Test func anMVHEVCVideoIsSpatialAndAPlainOneIsNot() throws {
        let (plain, spatial) = try SpatialFiles.video(in: scratch.url)
        let probed = try Self.probeSpatial(spatial, beside: plain)
        #expect(probed.kind == .video && probed.pixelWidth == 320, "still read as the video it is")
    }

    @Test func aHEICWithAStereoGroupIsSpatialAndStillDecodes() throws {
        let (plain, spatial) = try SpatialFiles.photo(in: scratch.url)
        let probed = try Self.probeSpatial(spatial, beside: plain)
        #expect(probed.kind == .image && probed.pixelWidth == 64 && probed.pixelHeight == 48, "still read as the photo it is")
        let decoded = try ImageCodec.decode(data: Data(contentsOf: spatial))
        let original = try ImageCodec.decode(data: Data(contentsOf: plain))
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded == original, "the same pixels as before")
        // A `ster` anywhere but in the meta box's groups is not one.
        #expect(!SpatialMedia.isSpatial(bytes: try [UInt8](Data(contentsOf: plain)) + SpatialFiles.stereoPair))
    }

    /// Fuzzed: random bytes, and the spatial video with bytes changed and cut
    /// short, never trap, never visit more than the box limit, and a file
    /// that does not start with `ftyp` is never spatial.
    @Test func damagedAndHostileFilesAnswerWithinTheLimit() throws {
        var random = SeededRandom.fromEnvironment()
        let spatial = try [UInt8](Data(contentsOf: SpatialFiles.video(in: scratch.url).spatial))
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
        let ftyp = SpatialFiles.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0])
        let huge = [0, 0, 0, 1] + Array("moov".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + huge))
        let toTheEnd = [0, 0, 0, 0] + Array("moov".utf8) + [0, 0, 0, 0] + Array("trak".utf8)
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + toTheEnd))
        #expect(!SpatialMedia.isSpatial(bytes: ftyp + [0, 0, 0, 4] + Array("meta".utf8)))
        // Thousands of empty boxes: the reading stops at the limit.
        var boxes = ISOBoxes(length: 8 * 100_000) { offset, count in
            Array((SpatialFiles.box("free", []) + SpatialFiles.box("free", [])).prefix(count))
        }
        _ = boxes.children(of: ISOBoxes.Box(type: "", start: 0, end: boxes.length))
        #expect(boxes.visited == ISOBoxes.boxLimit)
    }
}
