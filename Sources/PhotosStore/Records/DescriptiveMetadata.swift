import Foundation

/// How many stars a person gave an asset. Raw values are stored
/// (`asset.rating`) and are PhotoKit's `PHAsset.Rating` raw values.
package enum AssetRating: Int, Sendable, CaseIterable, Comparable {
    case unset = 0
    case oneStar = 1
    case twoStars = 2
    case threeStars = 3
    case fourStars = 4
    case fiveStars = 5

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which original of a RAW+JPEG asset renders it when unedited and is the
/// base of its edits. Raw values are stored (`asset.original_resource_choice`)
/// and are PhotoKit's `PHAsset.OriginalResourceChoice` raw values.
package enum AssetOriginalResourceChoice: Int, Sendable, CaseIterable {
    /// The JPEG or HEIC: every asset's, unless chosen otherwise.
    case compressed = 0
    /// The camera raw file, the asset's alternate photo.
    case raw = 1
}

/// An asset's caption and keywords, which PhotoKit reads apart from the
/// asset's other properties (`PHAssetExtendedMetadata`): stored in the
/// asset's row (`asset.caption`, `asset.keywords`) but selected only when
/// asked, on demand or with a fetch that prefetches them.
package struct ExtendedMetadataRecord: Sendable, Equatable {
    /// The caption; nil when there is none (an empty caption is none).
    package var caption: String?
    /// The keywords, each once, in the order they were added.
    package var keywords: [String]

    package init(caption: String? = nil, keywords: [String] = []) {
        self.caption = caption
        self.keywords = keywords
    }

    /// The two columns, after a row's others, as ``init(caption:keywords:)``
    /// reads them back from `SQLColumnReader` positions.
    static let columns = ["caption", "keywords"]

    /// Decodes the two columns at `index` and `index + 1` of a row; the
    /// keywords are read from the column's bytes where the reader lends
    /// them, without the `String` of their JSON.
    init(row: any SQLColumnReader, at index: Int) throws(StoredValueError) {
        caption = try row[index]
        if let keywords = row.withUTF8Text(at: index + 1, Self.keywords(storedUTF8:)) {
            self.keywords = keywords
        } else {
            keywords = Self.keywords(stored: try row[index + 1])
        }
    }

    /// The keywords a stored `asset.keywords` holds; none for NULL or text
    /// that is not a JSON array of strings (written by nothing but this type).
    package static func keywords(stored: String?) -> [String] {
        guard var stored else { return [] }
        return stored.withUTF8(keywords(storedUTF8:))
    }

    /// The keywords the UTF-8 bytes of a stored `asset.keywords` hold, as
    /// ``keywords(stored:)`` reads them; invalid UTF-8 is repaired.
    static func keywords(storedUTF8 bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        // Without a backslash no keyword holds an escape, nor a quote (which
        // JSON escapes): the array splits at its quotes, at a fraction of a
        // decoder's cost, which an enumeration of every asset pays per row.
        if bytes.count >= 4, bytes[0] == UInt8(ascii: "["), bytes[1] == quote, bytes[bytes.count - 2] == quote,
            bytes[bytes.count - 1] == UInt8(ascii: "]"), let quotes = count(quote, unless: backslash, in: bytes)
        {
            // `["a","b"]`: each keyword lies between a pair of quotes.
            var keywords: [String] = []
            keywords.reserveCapacity(quotes / 2)
            var index = 0
            while let open = bytes[index...].firstIndex(of: quote) {
                guard let close = bytes[(open + 1)...].firstIndex(of: quote) else { break }
                keywords.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self))
                index = close + 1
            }
            return keywords
        }
        guard let keywords = try? JSONDecoder().decode([String].self, from: Data(bytes)) else { return [] }
        return keywords
    }

    /// How many times `byte` occurs in `bytes`; nil when `stop` occurs, in
    /// the same one pass.
    private static func count(_ byte: UInt8, unless stop: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 0
        for candidate in bytes {
            if candidate == stop { return nil }
            if candidate == byte { count += 1 }
        }
        return count
    }

    /// The stored form of `keywords`: a JSON array, or NULL for none.
    package static func stored(keywords: [String]) -> String? {
        guard !keywords.isEmpty, let data = try? JSONEncoder().encode(keywords) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The limits on the text of an asset's caption and keywords, as the
/// library takes them: words a person reads, bounded so that no asset's
/// description costs more than one should to store, send or search.
package enum DescriptiveText {
    /// The most UTF-8 bytes a caption may have: a few pages of text.
    package static let maximumCaptionBytes = 16 * 1024
    /// The most UTF-8 bytes one keyword may have.
    package static let maximumKeywordBytes = 256
    /// The most keywords one asset may have.
    package static let maximumKeywordCount = 500

    /// Refuses a caption past ``maximumCaptionBytes`` or holding a control
    /// character other than a line break or tab.
    package static func check(caption: String) throws(StoreError) {
        guard caption.utf8.count <= maximumCaptionBytes else {
            throw .editNotAllowed("a caption is \(caption.utf8.count) bytes of UTF-8; at most \(maximumCaptionBytes) are taken")
        }
        if let control = caption.unicodeScalars.first(where: { FileName.isControl($0) && $0 != "\n" && $0 != "\t" }) {
            throw .editNotAllowed("a caption holds the control character \(describe(control)), which is not taken")
        }
    }

    /// Refuses an empty keyword, one past ``maximumKeywordBytes``, or one
    /// holding a control character.
    package static func check(keyword: String) throws(StoreError) {
        guard !keyword.isEmpty else { throw .editNotAllowed("a keyword is empty") }
        guard keyword.utf8.count <= maximumKeywordBytes else {
            throw .editNotAllowed("a keyword is \(keyword.utf8.count) bytes of UTF-8; at most \(maximumKeywordBytes) are taken")
        }
        if let control = keyword.unicodeScalars.first(where: FileName.isControl) {
            throw .editNotAllowed("a keyword holds the control character \(describe(control)), which is not taken")
        }
    }

    /// A caption a file recorded, made one the library takes: its control
    /// characters (but line breaks and tabs) taken out, cut at a character
    /// boundary to ``maximumCaptionBytes``; nil when nothing is left.
    package static func fitted(caption: String) -> String? {
        let visible = String(String.UnicodeScalarView(caption.unicodeScalars.filter { !FileName.isControl($0) || $0 == "\n" || $0 == "\t" }))
        var fitted = ""
        var bytes = 0
        for character in visible {
            bytes += character.utf8.count
            guard bytes <= maximumCaptionBytes else { break }
            fitted.append(character)
        }
        let trimmed = fitted.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Keywords a file recorded, made a list the library takes: those it
    /// would refuse left out, each once, at most ``maximumKeywordCount``.
    package static func fitted(keywords: [String]) -> [String] {
        var seen = Set<String>()
        return Array(keywords.filter { (try? check(keyword: $0)) != nil && seen.insert($0).inserted }.prefix(maximumKeywordCount))
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(scalar.value, radix: 16, uppercase: true)
    }
}
