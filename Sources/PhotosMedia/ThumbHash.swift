import Foundation

/// ThumbHash placeholders (Evan Wallace's format): about 25 bytes that a
/// client decodes into a blurred image with the photo's colours and
/// aspect ratio, shown while the thumbnail loads.
///
/// The image, at most 100 × 100, goes to a luminance channel and two
/// colour-difference channels (and alpha when there is any); each is
/// reduced to its lowest DCT frequencies, quantised to 4 bits each.
package enum ThumbHash {
    /// The placeholder of an image file. Cost: a shrink-on-load decode to
    /// 100 × 100 and a few thousand multiplications.
    package static func ofImage(fileAt url: URL) throws(MediaError) -> Data {
        let pixels = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fit, exact: true))
        return encode(pixels)
    }

    /// The placeholder of an image held in memory.
    package static func ofImage(data: Data) throws(MediaError) -> Data {
        let pixels = try ImageRenderer.render(data: data, RenderSpec(targetWidth: 100, targetHeight: 100, mode: .fit, exact: true))
        return encode(pixels)
    }

    /// Encodes pixels of an image at most 100 × 100.
    package static func encode(_ pixels: RGBAPixels) -> Data {
        encode(width: pixels.width, height: pixels.height, rgba: pixels.bytes)
    }

    package static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> Data {
        precondition(w > 0 && h > 0 && w <= 100 && h <= 100 && rgba.count == w * h * 4, "ThumbHash encodes RGBA images up to 100 × 100")
        let count = w * h
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            average.r += alpha / 255 * Double(rgba[i * 4])
            average.g += alpha / 255 * Double(rgba[i * 4 + 1])
            average.b += alpha / 255 * Double(rgba[i * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, Int((luminanceLimit * Double(w) / longest).rounded()))
        let ly = max(1, Int((luminanceLimit * Double(h) / longest).rounded()))

        // Composite atop the average colour, then L (luminance), P (yellow–blue), Q (red–green).
        var l = [Double](repeating: 0, count: count)
        var p = l
        var q = l
        var a = l
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        func encodeChannel(_ channel: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0
            var scale = 0.0
            var ac: [Double] = []
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    var f = 0.0
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(count)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }

        let luminance = encodeChannel(l, max(3, lx), max(3, ly))
        let yellowBlue = encodeChannel(p, 3, 3)
        let redGreen = encodeChannel(q, 3, 3)
        let alpha = hasAlpha ? encodeChannel(a, 5, 5) : nil

        func rounded(_ value: Double) -> Int { Int(value.rounded()) }
        let isLandscape = w > h
        let header24 =
            rounded(63 * luminance.dc) | (rounded(31.5 + 31.5 * yellowBlue.dc) << 6)
            | (rounded(31.5 + 31.5 * redGreen.dc) << 12) | (rounded(31 * luminance.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 =
            (isLandscape ? ly : lx) | (rounded(63 * yellowBlue.scale) << 3) | (rounded(63 * redGreen.scale) << 9)
            | ((isLandscape ? 1 : 0) << 15)
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
            UInt8(header16 & 255), UInt8(header16 >> 8),
        ]
        if let alpha { hash.append(UInt8(rounded(15 * alpha.dc) | (rounded(15 * alpha.scale) << 4))) }
        let factors = [luminance.ac, yellowBlue.ac, redGreen.ac] + (alpha.map { [$0.ac] } ?? [])
        let start = hash.count
        var index = 0
        for f in factors.joined() {
            let slot = start + (index >> 1)
            if slot == hash.count { hash.append(0) }
            hash[slot] |= UInt8(rounded(15 * f)) << UInt8((index & 1) << 2)
            index += 1
        }
        return Data(hash)
    }

    /// The approximate aspect ratio (width / height) a placeholder records.
    package static func aspectRatio(of hash: Data) -> Double? {
        let bytes = [UInt8](hash)
        guard bytes.count >= 5 else { return nil }
        let hasAlpha = bytes[2] & 0x80 != 0
        let isLandscape = bytes[4] & 0x80 != 0
        let lx = isLandscape ? (hasAlpha ? 5 : 7) : Int(bytes[3] & 7)
        let ly = isLandscape ? Int(bytes[3] & 7) : (hasAlpha ? 5 : 7)
        return ly == 0 ? nil : Double(lx) / Double(ly)
    }

    /// The average colour a placeholder records, components 0…1.
    package static func averageColor(of hash: Data) -> (red: Double, green: Double, blue: Double, alpha: Double)? {
        let bytes = [UInt8](hash)
        guard bytes.count >= 5 else { return nil }
        let header = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        let l = Double(header & 63) / 63
        let p = Double((header >> 6) & 63) / 31.5 - 1
        let q = Double((header >> 12) & 63) / 31.5 - 1
        let hasAlpha = header >> 23 != 0
        let alpha = hasAlpha && bytes.count > 5 ? Double(bytes[5] & 15) / 15 : 1
        let b = l - 2.0 / 3.0 * p
        let r = (3 * l - b + q) / 2
        let g = r - q
        return (max(0, min(1, r)), max(0, min(1, g)), max(0, min(1, b)), alpha)
    }
}
