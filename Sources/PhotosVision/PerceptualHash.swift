/// A 64-bit difference hash of an image (dHash): the image averaged down
/// to 9 × 8 grey cells, each bit saying whether a cell is brighter than its
/// right-hand neighbour. Resaving, rescaling, recompressing or a light edit
/// changes few bits; another scene changes about half. Two photos whose
/// hashes differ in a few bits (``distance(_:_:)``) look alike.
package enum PerceptualHash {
    /// The hash of `width × height` RGBA pixels (`bytesPerRow` bytes a row).
    /// Cost: one pass over the pixels.
    package static func of(rgba pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> UInt64 {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * height else { return 0 }
        var sums = [Double](repeating: 0, count: 9 * 8)
        var counts = [Int](repeating: 0, count: 9 * 8)
        for y in 0..<height {
            let row = y * 8 / height
            for x in 0..<width {
                let offset = y * bytesPerRow + x * 4
                // Rec. 601 luma: what the eye sees as brightness.
                let luma = 0.299 * Double(pixels[offset]) + 0.587 * Double(pixels[offset + 1]) + 0.114 * Double(pixels[offset + 2])
                let cell = row * 9 + x * 9 / width
                sums[cell] += luma
                counts[cell] += 1
            }
        }
        let means = zip(sums, counts).map { $1 > 0 ? $0 / Double($1) : 0 }
        var hash: UInt64 = 0
        for row in 0..<8 {
            for column in 0..<8 where means[row * 9 + column] > means[row * 9 + column + 1] {
                hash |= 1 << UInt64(row * 8 + column)
            }
        }
        return hash
    }

    /// How many bits two hashes differ in, from 0 (alike) to 64.
    package static func distance(_ a: UInt64, _ b: UInt64) -> Int {
        (a ^ b).nonzeroBitCount
    }
}
