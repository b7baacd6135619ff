/// How alike two renders of a picture are, so that a thumbnail row cannot
/// buy speed with quality: the structural similarity index (SSIM, Wang et
/// al. 2004) of their luma, averaged over 8 × 8 windows 4 pixels apart.
/// 1 is identical; blur, strong noise or a crop a few pixels off score
/// clearly less (below 0.9 on a detailed picture). Cost: linear in the
/// pixels.
enum ImageQuality {
    /// The mean SSIM of two 8-bit RGBA images of the same size; nil when
    /// their sizes differ or they are smaller than one window.
    static func ssim(_ first: [UInt8], _ second: [UInt8], width: Int, height: Int) -> Double? {
        let window = 8
        let step = 4
        guard first.count == width * height * 4, second.count == first.count, width >= window, height >= window else { return nil }
        let (a, b) = (luma(first), luma(second))
        // The constants that keep the ratio stable where a window is flat, for 8-bit values.
        let (c1, c2) = (pow2(0.01 * 255), pow2(0.03 * 255))
        var total = 0.0
        var windows = 0
        for top in stride(from: 0, through: height - window, by: step) {
            for left in stride(from: 0, through: width - window, by: step) {
                var (sumA, sumB, sumAA, sumBB, sumAB) = (0.0, 0.0, 0.0, 0.0, 0.0)
                for y in top..<top + window {
                    for x in left..<left + window {
                        let (p, q) = (a[y * width + x], b[y * width + x])
                        sumA += p
                        sumB += q
                        sumAA += p * p
                        sumBB += q * q
                        sumAB += p * q
                    }
                }
                let n = Double(window * window)
                let (meanA, meanB) = (sumA / n, sumB / n)
                let varianceA = sumAA / n - meanA * meanA
                let varianceB = sumBB / n - meanB * meanB
                let covariance = sumAB / n - meanA * meanB
                let numerator: Double = (2 * meanA * meanB + c1) * (2 * covariance + c2)
                let denominator: Double = (meanA * meanA + meanB * meanB + c1) * (varianceA + varianceB + c2)
                total += numerator / denominator
                windows += 1
            }
        }
        return total / Double(windows)
    }

    /// BT.601 luma of each pixel.
    private static func luma(_ rgba: [UInt8]) -> [Double] {
        stride(from: 0, to: rgba.count, by: 4).map { index -> Double in
            let red: Double = 0.299 * Double(rgba[index])
            let green: Double = 0.587 * Double(rgba[index + 1])
            let blue: Double = 0.114 * Double(rgba[index + 2])
            return red + green + blue
        }
    }

    private static func pow2(_ value: Double) -> Double { value * value }
}
