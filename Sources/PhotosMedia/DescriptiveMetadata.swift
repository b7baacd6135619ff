import Foundation

/// What a person wrote about a photo, as files and sidecars record it: a
/// rating (XMP's `xmp:Rating`), a caption (`dc:description`, IPTC's
/// Caption-Abstract, else the title: `dc:title`, IPTC's ObjectName, or
/// Google Takeout's description) and keywords (`dc:subject`, IPTC's
/// Keywords). darktable, digiKam, Lightroom and Apple's Photos write these.
package struct DescriptiveMetadata: Sendable, Equatable {
    /// Stars, 1 to 5; nil when unrated (XMP's 0), rejected (-1) or out of range.
    package var rating: Int?
    package var caption: String?
    /// Each once, in the order the file lists them.
    package var keywords: [String] = []

    package init(rating: Int? = nil, caption: String? = nil, keywords: [String] = []) {
        self.rating = rating
        self.caption = caption
        self.keywords = keywords
    }

    /// Whether it says nothing.
    package var isEmpty: Bool { rating == nil && caption == nil && keywords.isEmpty }

    /// The exiftool tags it is read from, by family-0 group.
    static let tags = [
        "XMP:Rating", "XMP:Description", "XMP:Title", "XMP:Subject", "IPTC:Keywords", "IPTC:Caption-Abstract", "IPTC:ObjectName",
    ]

    /// Reads it from exiftool's answer for ``tags`` (`-n`, `-G0`).
    init(exifTool fields: [String: Any]) {
        func text(_ tag: String) -> String? {
            guard let value = fields[tag] else { return nil }
            return Self.cleaned(value as? String ?? "\(value)")
        }
        func list(_ tag: String) -> [String] {
            switch fields[tag] {
            case let values as [Any]: values.compactMap { Self.cleaned($0 as? String ?? "\($0)") }
            case let value?: Self.cleaned(value as? String ?? "\(value)").map { [$0] } ?? []
            case nil: []
            }
        }
        rating = (fields["XMP:Rating"] as? NSNumber).map(\.intValue).flatMap { (1...5).contains($0) ? $0 : nil }
        caption = text("XMP:Description") ?? text("IPTC:Caption-Abstract") ?? text("XMP:Title") ?? text("IPTC:ObjectName")
        let subjects = list("XMP:Subject")
        keywords = Self.unique(subjects.isEmpty ? list("IPTC:Keywords") : subjects)
    }

    /// `text` trimmed; nil when nothing is left.
    static func cleaned(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `keywords` each once, in order.
    static func unique(_ keywords: [String]) -> [String] {
        var seen = Set<String>()
        return keywords.filter { seen.insert($0).inserted }
    }
}
