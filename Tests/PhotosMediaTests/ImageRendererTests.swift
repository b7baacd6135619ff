import CPhotosMedia
import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

@Suite struct ImageRendererTests {
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("render")
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

    /// A derivative the library wrote, rendered to an exact size by libjpeg
    /// and a resize in memory (from its file or from its bytes), comes out
    /// at the size the full libvips pipeline gives, with nearly the same
    /// pixels: fill and fit, wide and tall targets, enlargements, tiny ones
    /// (whose pixels depend on rounding, so only their sizes are compared).
    @Test func derivativesRenderExactlyAsTheFullPipelineDoes() throws {
        let derivative = try ImageRenderer.derivative(fileAt: try photo(width: 640, height: 480), shortEdge: 360)
        #expect(derivative.width == 480 && derivative.height == 360)
        let file = directory.appendingPathComponent("derivative.jpg")
        try derivative.jpeg.write(to: file)
        let targets = [(256, 256), (100, 300), (300, 100), (1000, 1000), (7, 3), (1, 1), (480, 360)]
        for (width, height) in targets {
            for mode in [RenderSpec.Mode.fill, .fit] {
                let spec = RenderSpec(targetWidth: width, targetHeight: height, mode: mode, exact: true)
                let pipeline = try ImageRenderer.render(fileAt: file, spec)
                for rendered in [try ImageRenderer.render(derivativeAt: file, spec), try ImageRenderer.render(derivative: derivative.jpeg, spec)] {
                    #expect(size(rendered) == size(pipeline), "\(spec)")
                    // The pixels of tiny renders depend on where each crops by half a pixel.
                    guard size(rendered) == size(pipeline), min(width, height) >= 16 else { continue }
                    let difference = rendered.withUnsafeBytes { mine in
                        pipeline.withUnsafeBytes { theirs in
                            zip(mine, theirs).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
                        }
                    }
                    #expect(Double(difference) / Double(width * height * 4) < 4, "\(spec): mean difference \(difference)")
                }
            }
        }
        // A size that only needs to cover the target is libjpeg's scaled decode alone from a file.
        let covering = RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fill, exact: false)
        let covered = try ImageRenderer.render(derivativeAt: file, covering)
        #expect(size(covered) == [180, 135])
        #expect(throws: MediaError.self) {
            try ImageRenderer.render(derivative: Data(derivative.jpeg.prefix(200)), RenderSpec(targetWidth: 10, targetHeight: 10, mode: .fill, exact: true))
        }
    }

    /// The resampling behind renders and derivatives: its weights sum to
    /// exactly one, so a flat colour stays exactly that colour at every
    /// size, shrunk or enlarged, down to a single pixel, and at the edges.
    @Test func resamplingKeepsAFlatColourExactly() throws {
        let url = directory.appendingPathComponent("flat.jpg")
        try SampleImage.jpeg(width: 640, height: 480, from: (90, 160, 220), to: (90, 160, 220), exif: ExifFields()).write(to: url)
        let derivative = try ImageRenderer.derivative(fileAt: url, shortEdge: 360)
        let asStored = try ImageRenderer.render(derivative: derivative.jpeg, RenderSpec(targetWidth: 480, targetHeight: 360, mode: .fit, exact: true))
        let colour = asStored.withUnsafeBytes { Array($0.prefix(4)) }
        #expect(asStored.withUnsafeBytes { bytes in (0..<bytes.count).allSatisfy { bytes[$0] == colour[$0 % 4] } }, "the derivative decodes flat")
        for (width, height) in [(256, 256), (1, 1), (7, 3), (3, 7), (479, 359), (481, 361), (1500, 90)] {
            for mode in [RenderSpec.Mode.fill, .fit] {
                let rendered = try ImageRenderer.render(
                    derivative: derivative.jpeg, RenderSpec(targetWidth: width, targetHeight: height, mode: mode, exact: true))
                let off = rendered.withUnsafeBytes { bytes in (0..<bytes.count).filter { bytes[$0] != colour[$0 % 4] }.count }
                #expect(off == 0, "\(width) x \(height) \(mode): \(off) values off the flat colour")
            }
        }
    }

    /// A photo that embeds a colour profile other than sRGB's (Adobe RGB,
    /// ProPhoto, from Debian's `libgs-common`) has its colours converted in
    /// its derivative, as libvips' own transform converts them; one that
    /// embeds sRGB's keeps its values.
    @Test func derivativesAreInSRGBWhateverProfileTheOriginalEmbeds() throws {
        let plain = directory.appendingPathComponent("plain.jpg")
        let stored: [Double] = [200, 120, 60]
        try SampleImage.jpeg(
            width: 640, height: 480, from: (stored[0], stored[1], stored[2]), to: (stored[0], stored[1], stored[2]),
            exif: ExifFields()
        ).write(to: plain)
        // 16 bits a channel too, as raw converters and scanners write TIFF and PNG.
        let sixteen = directory.appendingPathComponent("plain16.v")
        try DebianTool.run("vips", ["colourspace", plain.path, sixteen.path, "rgb16"])
        let profiles = "/usr/share/color/icc/ghostscript/"
        for (name, profile, converts) in [
            ("adobe.jpg", "a98.icc", true), ("prophoto.png", "rommrgb.icc", true),
            ("prophoto.jpg", "rommrgb.icc", true), ("srgb.jpg", "srgb.icc", false),
            ("prophoto16.tif", "rommrgb.icc", true), ("adobe16.png", "a98.icc", true),
            ("plain16.png", nil, false), ("plain16.tif", nil, false),
        ] {
            let tagged = directory.appendingPathComponent(name)
            let source = name.contains("16") ? sixteen : plain
            try DebianTool.run("vips", ["copy", source.path, tagged.path + (profile.map { "[profile=\(profiles + $0)]" } ?? "")])
            let reference = directory.appendingPathComponent("reference-\(name).png")
            if profile != nil {
                try DebianTool.run("vips", ["icc_transform", tagged.path, reference.path, "srgb", "--embedded", "--depth", "8"])
            } else {
                try DebianTool.run("vips", ["colourspace", tagged.path, reference.path, "srgb"])
            }
            let expected = try DebianTool.run("vips", ["getpoint", reference.path, "320", "240"]).split(separator: " ").compactMap { Double($0) }
            #expect(expected.count == 3, "\(name)")

            let derivative = try ImageRenderer.derivative(fileAt: tagged, shortEdge: 360)
            let pixels = try ImageRenderer.render(derivative: derivative.jpeg, RenderSpec(targetWidth: 48, targetHeight: 36, mode: .fit, exact: true))
            let centre = pixels.withUnsafeBytes { bytes in (0..<3).map { Double(bytes[(18 * 48 + 24) * 4 + $0]) } }
            #expect(zip(centre, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(name): \(centre), libvips says \(expected)")
            // The test means something only where converting changes the colour.
            #expect(zip(expected, stored).contains { abs($0 - $1) > 8 } == converts, "\(name): \(expected) from \(stored)")
        }
    }

    /// HEIF and AVIF files may give their colour as H.273 numbers (an nclx
    /// box) rather than a profile: Display P3 or BT.2020 primaries, the PQ
    /// or HLG transfer of HDR. A patch of sRGB (230, 70, 40), encoded here
    /// in each of those (in the direction opposite to the library's) and
    /// written by avifenc, comes back near that colour; read as sRGB, as
    /// libvips alone reads them, none would.
    @Test(arguments: [("p3", 12, 13), ("bt2020", 9, 13), ("pq", 9, 16), ("hlg", 9, 18)])
    func colourGivenAsNumbersIsConvertedToSRGB(name: String, primaries: Int, transfer: Int) throws {
        let wanted: [Double] = [230, 70, 40]
        let linear = wanted.map { value -> Double in
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        // BT.709 linear light to the file's primaries.
        let toP3 = [[0.8225, 0.1774, 0.0], [0.0332, 0.9669, 0.0], [0.0171, 0.0724, 0.9108]]
        let toBT2020 = [[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]]
        let matrix = primaries == 12 ? toP3 : toBT2020
        let converted = matrix.map { row in zip(row, linear).map(*).reduce(0, +) }
        let encoded: [Double] =
            switch transfer {
            case 16:
                converted.map { light in
                    let y = pow(light * 203 / 10000, 2610.0 / 16384)
                    return pow((0.8359375 + 18.8515625 * y) / (1 + 18.6875 * y), 2523.0 / 4096 * 128)
                }
            case 18:
                // Display light at 203 cd/m² white, through the inverse of HLG's OOTF (1,000 cd/m², gamma 1.2) and its OETF.
                { () -> [Double] in
                    let display = converted.map { $0 * 203 / 1000 }
                    let luminance = 0.2627 * display[0] + 0.6780 * display[1] + 0.0593 * display[2]
                    let scene = display.map { $0 * pow(luminance, (1 - 1.2) / 1.2) }
                    return scene.map { e in e <= 1.0 / 12 ? (3 * e).squareRoot() : 0.17883277 * log(12 * e - 0.28466892) + 0.55991073 }
                }()
            default:
                converted.map { v in v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
            }
        // HDR in 10 bits from a 16-bit source, as cameras and phones write it.
        let hdr = transfer != 13
        let stored = encoded.map { String(Int(($0 * (hdr ? 65535 : 255)).rounded())) }
        let patch = directory.appendingPathComponent("\(name).png")
        let avif = directory.appendingPathComponent("\(name).avif")
        let (black, light) = (directory.appendingPathComponent("black.v"), directory.appendingPathComponent("light.v"))
        try DebianTool.run("vips", ["black", black.path, "64", "64", "--bands", "3"])
        try DebianTool.run("vips", ["linear", black.path, light.path, "1 1 1", stored.joined(separator: " ")])
        let cast = directory.appendingPathComponent("cast.v")
        try DebianTool.run("vips", ["cast", light.path, cast.path, hdr ? "ushort" : "uchar"])
        try DebianTool.run("vips", ["copy", cast.path, patch.path, "--interpretation", hdr ? "rgb16" : "srgb"])
        try DebianTool.run("avifenc", ["--min", "0", "--max", "0", "-d", hdr ? "10" : "8", "--cicp", "\(primaries)/\(transfer)/6", patch.path, avif.path])

        let derivative = try ImageRenderer.derivative(fileAt: avif, shortEdge: 360)
        let pixels = try ImageRenderer.render(derivative: derivative.jpeg, RenderSpec(targetWidth: 32, targetHeight: 32, mode: .fit, exact: true))
        let centre = pixels.withUnsafeBytes { bytes in (0..<3).map { Double(bytes[(16 * 32 + 16) * 4 + $0]) } }
        #expect(zip(centre, wanted).allSatisfy { abs($0 - $1) <= 14 }, "\(name): \(centre) for \(wanted), stored as \(stored)")
        let storedBytes = encoded.map { $0 * 255 }
        #expect(zip(storedBytes, wanted).contains { abs($0 - $1) > 14 }, "\(name): the stored values \(storedBytes) would not pass")
    }

    /// A progressive JPEG's DC scans alone decode at an eighth to exactly
    /// the whole file's pixels, from a fraction of its bytes; a derivative
    /// made from a progressive original through them has the size and the
    /// look of one made from the same picture stored plainly. Streams that
    /// do not parse are refused.
    @Test(arguments: [UInt64(1), 2])
    func progressiveFilesAtAnEighthNeedOnlyTheirDCScans(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let (width, height) = (1600, 1200)
        // A gradient with noise, so that the AC scans carry most of the file.
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int.random(in: -40...40, using: &random)
                let offset = (y * width + x) * 4
                bytes[offset] = UInt8(clamping: x * 255 / width + noise)
                bytes[offset + 1] = UInt8(clamping: y * 255 / height + noise)
                bytes[offset + 2] = UInt8(clamping: 128 + noise)
            }
        }
        func encoded(_ suffix: String) throws -> Data {
            var output: UnsafeMutableRawPointer?
            var length = 0
            #expect(pm_encode(bytes, Int32(width), Int32(height), 4, suffix, nil, 0, &output, &length) == 0)
            let pointer = try #require(output)
            defer { pm_free(pointer) }
            return Data(bytes: pointer, count: length)
        }
        let progressive = try encoded(".jpg[Q=90,interlace]")
        let plain = try encoded(".jpg[Q=90]")
        var reduced: UnsafeMutableRawPointer?
        var reducedLength = 0
        #expect(progressive.withUnsafeBytes { pm_jpeg_dc_scans($0.baseAddress, $0.count, &reduced, &reducedLength) } == 0)
        let reducedPointer = try #require(reduced)
        let dcScans = Data(bytes: reducedPointer, count: reducedLength)
        pm_free(reducedPointer)
        #expect(dcScans.count * 4 < progressive.count, "DC scans \(dcScans.count) bytes of \(progressive.count)")

        let whole = directory.appendingPathComponent("progressive.jpg")
        let dcOnly = directory.appendingPathComponent("dc.jpg")
        try progressive.write(to: whole)
        try dcScans.write(to: dcOnly)
        let eighth = RenderSpec(targetWidth: width / 8, targetHeight: height / 8, mode: .fill, exact: false)
        let fromWhole = try ImageRenderer.render(derivativeAt: whole, eighth)
        #expect(size(fromWhole) == [width / 8, height / 8])
        #expect(try ImageRenderer.render(derivativeAt: dcOnly, eighth) == fromWhole)

        let plainFile = directory.appendingPathComponent("plain.jpg")
        try plain.write(to: plainFile)
        let viaDCScans = try ImageRenderer.derivative(fileAt: whole, shortEdge: 150)
        let viaPlain = try ImageRenderer.derivative(fileAt: plainFile, shortEdge: 150)
        #expect(viaDCScans.width == 200 && viaDCScans.height == 150 && viaPlain.width == 200 && viaPlain.height == 150)
        let (mine, theirs) = (try ImageCodec.decode(data: viaDCScans.jpeg), try ImageCodec.decode(data: viaPlain.jpeg))
        let difference = mine.withUnsafeBytes { a in theirs.withUnsafeBytes { b in zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } } }
        #expect(Double(difference) / Double(200 * 150 * 4) < 3)

        for broken in [Data(), Data([0xFF, 0xD8]), plain.prefix(600), Data(progressive.prefix(progressive.count / 2)), Data("not a jpeg".utf8)] {
            var output: UnsafeMutableRawPointer?
            var length = 0
            #expect(broken.withUnsafeBytes { pm_jpeg_dc_scans($0.baseAddress, $0.count, &output, &length) } == -1)
            #expect(output == nil)
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
        let right = try ImageRenderer.render(
            fileAt: url,
            RenderSpec(
                targetWidth: 20, targetHeight: 20, mode: .fill, exact: true,
                crop: (0.75, 0.75, 0.25, 0.25)))
        let left = try ImageRenderer.render(
            fileAt: url,
            RenderSpec(
                targetWidth: 20, targetHeight: 20, mode: .fill, exact: true,
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
            var sums = [Double](repeating: 0, count: 48)
            var counts = [Double](repeating: 0, count: 16)
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
