import Foundation

/// Images of known text, the labelled set text reading is measured on:
/// lines of words rendered by libvips (Pango, through the `vips` tool) in
/// fonts Debian ships, each either clean (a screenshot, a scanned page) or
/// photographed-like (turned a few degrees, out of focus, smaller, and
/// saved as a low-quality JPEG, as a phone photo of a page is).
package enum TextSamples {
    /// One image and the words it shows.
    package struct Sample: Sendable {
        package var url: URL
        package var words: [String]
        package var font: String
        package var photographed: Bool
    }

    /// The fonts samples are rendered in: sans, serif, monospace and
    /// display faces from fonts-dejavu-core, fonts-liberation and fonts-urw-base35.
    package static let fonts = [
        "DejaVu Sans", "DejaVu Serif", "Liberation Mono", "Liberation Sans", "Nimbus Roman", "URW Bookman", "C059", "URW Gothic",
    ]

    /// Words of signs, receipts and documents; each sample takes twelve.
    static let vocabulary = [
        "receipt", "plumber", "total", "invoice", "paid", "card", "thank", "visiting", "station", "platform", "exit", "street",
        "market", "coffee", "bakery", "museum", "open", "closed", "monday", "friday", "tickets", "parking", "hotel", "garden",
        "river", "bridge", "north", "south", "welcome", "library", "pharmacy", "number", "order", "delivery", "window", "kitchen",
        "repair", "service", "morning", "evening", "airport", "gate", "boarding", "menu", "dinner", "lunch", "breakfast", "price",
        "1984", "2019", "215", "4711", "300", "72",
    ]

    /// `count` samples in `directory`, fonts taken in turn, each round of
    /// the fonts clean then photographed-like, in turn, at three sizes; the
    /// same `seed` gives the same words.
    /// Cost: five runs of `vips` a sample (about 150 ms).
    package static func make(count: Int, in directory: URL, seed: UInt64 = 46) throws -> [Sample] {
        var random = SeededRandom(seed: seed)
        return try (0..<count).map { index in
            let words = (0..<12).map { _ in random.pick(vocabulary) }
            let lines = stride(from: 0, to: words.count, by: 4).map { words[$0..<$0 + 4].joined(separator: " ") }
            let font = fonts[index % fonts.count]
            let photographed = index / fonts.count % 2 == 1
            let url = directory.appendingPathComponent("text-\(index).\(photographed ? "jpg" : "png")")
            try render(lines.joined(separator: "\n"), font: font, size: 22 + (index / fonts.count % 3) * 6, to: url, photographed: photographed)
            return Sample(url: url, words: words, font: font, photographed: photographed)
        }
    }

    /// A real photograph of a printed page, lit unevenly (scikit-image's
    /// `page.png`, BSD-3-Clause, which `script/bootstrap` takes from Debian's
    /// python3-skimage), and the words of its six whole lines.
    package static let photographedPage = (
        url: URL(fileURLWithPath: "/usr/local/share/openphotokit/skimage-0.19.3/page.png"),
        text: """
        Region-based segmentation
        Let us first determine markers of the coins and the
        background. These markers are pixels that we can label
        unambiguously as either object or background. Here,
        the markers are found at the two extreme parts of the
        histogram of grey values:
        """
    )

    /// The share of `expected` words found among `read` (each word counted
    /// as often as it appears, compared folded as search folds them).
    package static func recall(expected: [String], read: [String]) -> Double {
        var found: [String: Int] = [:]
        for word in read { found[word.lowercased(), default: 0] += 1 }
        var hits = 0
        for word in expected where found[word, default: 0] > 0 {
            found[word]! -= 1
            hits += 1
        }
        return expected.isEmpty ? 1 : Double(hits) / Double(expected.count)
    }

    private static func render(_ text: String, font: String, size: Int, to url: URL, photographed: Bool) throws {
        let work = url.deletingPathExtension().path
        defer {
            for suffix in ["-mask.v", "-ink.v", "-page.v", "-turned.v"] { try? FileManager.default.removeItem(atPath: work + suffix) }
        }
        try DebianTool.run("vips", ["text", work + "-mask.v", text, "--font", "\(font) \(size)", "--dpi", "72"])
        try DebianTool.run("vips", ["invert", work + "-mask.v", work + "-ink.v"])
        let page = photographed ? work + "-page.v" : url.path
        try DebianTool.run("vips", ["embed", work + "-ink.v", page, "48", "40", "1000", "220", "--extend", "white"])
        guard photographed else { return }
        try DebianTool.run("vips", ["similarity", page, work + "-turned.v", "--angle", "3", "--scale", "0.9", "--background", "255"])
        try DebianTool.run("vips", ["gaussblur", work + "-turned.v", url.path + "[Q=55]", "0.9"])
    }
}
