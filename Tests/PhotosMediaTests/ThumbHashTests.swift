import Foundation
import Testing

@testable import PhotosMedia

/// ThumbHash placeholders keep an image's colour and shape in ~25 bytes.
@Suite struct ThumbHashTests {
    @Test func aPlainImageKeepsItsColourAndAspect() {
        for (width, height, color) in [(100, 75, (200, 40, 30)), (60, 100, (20, 160, 90)), (50, 50, (30, 60, 220))] {
            let pixel: [UInt8] = [UInt8(color.0), UInt8(color.1), UInt8(color.2), 255]
            let rgba: [UInt8] = (0..<width * height).flatMap { _ in pixel }
            let hash = ThumbHash.encode(width: width, height: height, rgba: rgba)
            #expect(hash.count <= 25, "\(hash.count) bytes")
            let average = ThumbHash.averageColor(of: hash)!
            #expect(
                abs(average.red * 255 - Double(color.0)) < 8 && abs(average.green * 255 - Double(color.1)) < 8
                    && abs(average.blue * 255 - Double(color.2)) < 8, "\(average) for \(color)")
            #expect(average.alpha == 1)
            let ratio = ThumbHash.aspectRatio(of: hash)!
            #expect(abs(ratio - Double(width) / Double(height)) < 0.35, "\(ratio) for \(width)×\(height)")
        }
    }

    @Test func transparencyIsRecorded() {
        let (red, clear): ([UInt8], [UInt8]) = ([255, 0, 0, 255], [0, 0, 0, 0])
        let rgba: [UInt8] = (0..<40 * 40).flatMap { index in index % 2 == 0 ? red : clear }
        let hash = ThumbHash.encode(width: 40, height: 40, rgba: rgba)
        let average = ThumbHash.averageColor(of: hash)!
        #expect(average.alpha < 0.8 && average.alpha > 0.2)
        #expect(average.red > 0.8)
    }

    @Test func aFileIsDecodedSmallAndHashed() throws {
        let jpeg = try SampleImage.jpeg(width: 640, height: 480, from: (250, 0, 0), to: (250, 0, 0))
        let hash = try ThumbHash.ofImage(data: jpeg)
        #expect(hash.count > 5 && hash.count <= 25)
        #expect((ThumbHash.averageColor(of: hash)?.red ?? 0) > 0.85)
        #expect(abs(ThumbHash.aspectRatio(of: hash)! - 4.0 / 3.0) < 0.2)
    }
}
