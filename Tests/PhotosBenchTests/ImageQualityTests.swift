import Testing

@testable import photos_bench

/// The SSIM that guards the thumbnail rows: identical renders score 1,
/// and noise, blur or a shifted crop score clearly less.
@Suite struct ImageQualityTests {
    /// A 64 × 64 RGBA picture with detail: a checkerboard of 4-px squares
    /// over a gradient, its origin moved by `shift` pixels.
    private func picture(shift: Int = 0) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let check: Int = (((x + shift) / 4 + y / 4) % 2) * 80
                let value = UInt8(min(255, check + (x + shift) * 2))
                pixels += [value, value, UInt8(y * 3), 255]
            }
        }
        return pixels
    }

    @Test func identicalRendersScoreOne() throws {
        let value = try #require(ImageQuality.ssim(picture(), picture(), width: 64, height: 64))
        #expect(abs(value - 1) < 1e-9)
    }

    @Test func noiseBlurAndAShiftedCropScoreLess() throws {
        var random = SplitMix(state: 3)
        let original = picture()
        let noisy = original.enumerated().map { index, value in
            index % 4 == 3 ? value : UInt8(clamping: Int(value) + Int(random.next() % 121) - 60)
        }
        // A horizontal box blur over 5 pixels.
        let blurred = original.indices.map { index -> UInt8 in
            let (pixel, channel) = (index / 4, index % 4)
            guard channel != 3 else { return 255 }
            let row = pixel / 64
            let column = pixel % 64
            let neighbours = (max(0, column - 2)...min(63, column + 2)).map { Int(original[(row * 64 + $0) * 4 + channel]) }
            return UInt8(neighbours.reduce(0, +) / neighbours.count)
        }
        let shifted = picture(shift: 2)
        for (name, other) in [("noise", noisy), ("blur", blurred), ("a shifted crop", shifted)] {
            let value = try #require(ImageQuality.ssim(original, other, width: 64, height: 64))
            #expect(value < 0.9, "\(name): \(value)")
            #expect(value > -1, "\(name): \(value)")
        }
    }

    @Test func imagesOfOtherSizesAreNotCompared() {
        #expect(ImageQuality.ssim(picture(), Array(picture().prefix(64 * 32 * 4)), width: 64, height: 64) == nil)
        #expect(ImageQuality.ssim([0, 0, 0, 255], [0, 0, 0, 255], width: 1, height: 1) == nil)
    }
}
