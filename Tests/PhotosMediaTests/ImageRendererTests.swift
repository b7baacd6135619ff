import Foundation
import Testing
@testable import PhotosMedia

@Suite struct ImageRendererTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func photo(width: Int, height: Int, orientation: Int? = nil) throws -> URL {
        var exif = ExifFields()
        exif.orientation = orientation
        let url = directory.appendingPathComponent("\(UUID().uuidString).jpg")
        try SampleImage.jpeg(width: width, height: height, from: (0, 0, 0), to: (255, 200, 100), exif: exif).write(to: url)
        return url
    }

    private func size(_ pixels: RGBAPixels) -> [Int] { [pixels.width, pixels.height] }

    @Test func fitFillExactAndCoveringSizes() throws {
        let url = try photo(width: 400, height: 300)
        let cases: [(RenderSpec, [Int])] = [
            (RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fit, exact: true), [100, 75]),
            (RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fill, exact: true), [100, 100]),
            (RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fill, exact: false), [133, 100]),
            (RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fit, exact: false), [100, 75]),
            (RenderSpec(targetWidth: 800, targetHeight: 800, mode: .fit, exact: false), [400, 300]),
            (RenderSpec(targetWidth: 800, targetHeight: 600, mode: .fit, exact: true), [800, 600]),
            (RenderSpec(targetWidth: nil, targetHeight: nil, mode: .fit, exact: false), [400, 300]),
            (RenderSpec(targetWidth: 50, targetHeight: 50, mode: .fill, exact: true, crop: (0.5, 0.5, 0.5, 0.5)), [50, 50]),
            (RenderSpec(targetWidth: 60, targetHeight: 60, mode: .fit, exact: true, crop: (0, 0, 0.5, 1)), [40, 60]),
        ]
        for (spec, expected) in cases {
            let probed = size(try ImageRenderer.render(fileAt: url, spec))
            let known = size(try ImageRenderer.render(fileAt: url, sourceWidth: 400, sourceHeight: 300, spec))
            #expect(probed == expected && known == expected, "\(spec): \(probed), \(known)")
        }
    }

    @Test func orientationIsApplied() throws {
        let url = try photo(width: 400, height: 100, orientation: 6)
        let full = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: nil, targetHeight: nil, mode: .fit, exact: false))
        #expect(size(full) == [100, 400])
        let fitted = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: 50, targetHeight: 50, mode: .fit, exact: true))
        #expect(size(fitted) == [13, 50])
    }

    @Test func cropTakesTheNamedRegion() throws {
        // Left half black-ish, right half bright: a crop of the right half is bright.
        let url = try photo(width: 400, height: 300)
        let right = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: 20, targetHeight: 20, mode: .fill, exact: true,
                                                                    crop: (0.75, 0.75, 0.25, 0.25)))
        let left = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: 20, targetHeight: 20, mode: .fill, exact: true,
                                                                   crop: (0, 0, 0.25, 0.25)))
        func brightness(_ pixels: RGBAPixels) -> Int { pixels.withUnsafeBytes { $0.reduce(0) { $0 + Int($1) } } }
        #expect(brightness(right) > brightness(left) * 2)
    }

    @Test func derivativesHaveTheShortEdgeAndFailOnBrokenFiles() throws {
        let url = try photo(width: 1600, height: 1200)
        let derivative = try ImageRenderer.derivative(fileAt: url, shortEdge: 360)
        #expect(derivative.width == 480 && derivative.height == 360)
        let small = try ImageRenderer.derivative(fileAt: try photo(width: 200, height: 100), shortEdge: 360)
        #expect(small.width == 200 && small.height == 100)
        let decoded = try ImageCodec.decode(data: derivative.jpeg)
        #expect(decoded.width == 480 && decoded.height == 360)

        let jpeg = try Data(contentsOf: url)
        let truncated = directory.appendingPathComponent("t.jpg")
        try jpeg.prefix(jpeg.count / 2).write(to: truncated)
        #expect(throws: MediaError.self) { try ImageRenderer.derivative(fileAt: truncated, shortEdge: 360) }
    }

    /// Derivatives of plain JPEGs come from libjpeg at scale: in every
    /// EXIF orientation, the derivative is the upright picture, as libvips
    /// renders it at full size, scaled down.
    @Test func derivativesOfJPEGsInEveryOrientationAreTheUprightPicture() throws {
        func cells(_ pixels: RGBAPixels) -> [Double] {
            // The mean of each channel in a 4 × 4 grid.
            var sums = [Double](repeating: 0, count: 48), counts = [Double](repeating: 0, count: 16)
            pixels.withUnsafeBytes { bytes in
                for y in 0..<pixels.height {
                    for x in 0..<pixels.width {
                        let cell = (y * 4 / pixels.height) * 4 + x * 4 / pixels.width
                        counts[cell] += 1
                        for channel in 0..<3 { sums[cell * 3 + channel] += Double(bytes[(y * pixels.width + x) * 4 + channel]) }
                    }
                }
            }
            return sums.indices.map { sums[$0] / counts[$0 / 3] }
        }
        for orientation in 1...8 {
            let url = try photo(width: 1600, height: 400, orientation: orientation)
            let upright = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: nil, targetHeight: nil, mode: .fit, exact: false))
            let derivative = try ImageRenderer.derivative(fileAt: url, shortEdge: 100)
            let decoded = try ImageCodec.decode(data: derivative.jpeg)
            let expected = orientation >= 5 ? [100, 400] : [400, 100]
            #expect([derivative.width, derivative.height] == expected && size(decoded) == expected, "orientation \(orientation)")
            let difference = zip(cells(upright), cells(decoded)).map { abs($0 - $1) }.max() ?? .infinity
            #expect(difference < 8, "orientation \(orientation): the cells differ by up to \(difference)")
        }
    }

    @Test func aDerivativeCanGiveItsPlaceholderPixelsFromTheSameDecode() throws {
        let url = try photo(width: 1600, height: 1200)
        let derivative = try ImageRenderer.derivative(fileAt: url, shortEdge: 360, placeholder: true)
        let pixels = try #require(derivative.placeholderPixels)
        #expect(pixels.width == 100 && pixels.height == 75, "fits 100 × 100 with the photo's shape")
        #expect(try ImageRenderer.derivative(fileAt: url, shortEdge: 360).placeholderPixels == nil, "only when asked for")
        // The same placeholder, near enough, as one made by decoding the JPEG again.
        let fromJPEG = try ThumbHash.ofImage(data: derivative.jpeg)
        let ours = ThumbHash.encode(pixels)
        let (a, b) = (try #require(ThumbHash.averageColor(of: ours)), try #require(ThumbHash.averageColor(of: fromJPEG)))
        #expect(abs(a.red - b.red) < 0.02 && abs(a.green - b.green) < 0.02 && abs(a.blue - b.blue) < 0.02)
        #expect(ThumbHash.aspectRatio(of: ours) == ThumbHash.aspectRatio(of: fromJPEG))
    }

    @Test func contentHashesTellFilesApart() throws {
        let a = try photo(width: 64, height: 64)
        let copy = directory.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: a, to: copy)
        let b = try photo(width: 64, height: 65)
        let hashA = try ContentHash.ofFile(at: a)
        #expect(hashA.count == 32 && hashA.allSatisfy(\.isHexDigit))
        #expect(try ContentHash.ofFile(at: copy) == hashA)
        #expect(try ContentHash.ofFile(at: b) != hashA)
        #expect(throws: MediaError.self) { try ContentHash.ofFile(at: directory.appendingPathComponent("missing")) }
    }

    @Test func appleContentIdentifierAndUserCommentRoundTrip() throws {
        var exif = ExifFields()
        exif.make = "Apple"
        exif.contentIdentifier = "5F2A7C1E-8B3D-4E6F-9A1B-2C3D4E5F6A7B"
        exif.userComment = "Screenshot"
        let url = directory.appendingPathComponent("live.jpg")
        try SampleImage.jpeg(width: 32, height: 32, from: (0, 0, 0), to: (9, 9, 9), exif: exif).write(to: url)
        let block = try #require(exif.encoded())
        let parsed = try #require(block.withUnsafeBytes { ExifFields(block: $0) })
        #expect(parsed.contentIdentifier == exif.contentIdentifier)
        #expect(parsed.userComment == "Screenshot")
        // exiftool, the reference reader of Apple's MakerNote, agrees.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-s3", "-MediaGroupUUID", "-UserComment", url.path]  // exiftool 12.19+ calls tag 17 MediaGroupUUID
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        #expect(lines == ["5F2A7C1E-8B3D-4E6F-9A1B-2C3D4E5F6A7B", "Screenshot"])
    }
}
