import Foundation

/// A search as people type it, parsed: free words that the indexed text
/// must hold, and filters. The one query language of `photos search`,
/// `GET /v1/search`, the gallery's search box and
/// `PHAsset.fetchAssets(matchingSearch:options:)`.
///
/// - Words match, as word beginnings, anything the indexer stored of an
///   asset: caption, keywords, file name, camera and lens, place, people's
///   names and text read in the image. Every word must match.
///   `"new york"` in quotes matches the words in that order.
/// - `place:paris`, `person:anna` (or `people:`), `album:summer`: the words
///   must be the asset's place or a person's name, or the album's title
///   (the whole title, ignoring case and diacritics). Quote a value with
///   spaces: `place:"new york"`.
/// - A year (`2019`, or `year:2019`) and a month name (`june`, or
///   `month:6`), in the time the photo was taken where it was taken.
/// - `favorite`, `video`, `photo`, `screenshot`, `live` (each also as
///   `is:…`), `rating>=4` (or `>`, `<=`, `<`, `=`, `rating:4`).
/// - `within:S,W,N,E`: taken inside that box of latitudes and longitudes
///   (``LocationBounds``, edges included), as a map's cluster names its
///   photos.
///
/// Anything else, including a filter whose value does not parse, is words.
/// Several years, months, places, people or albums are alternatives; the
/// other parts must all hold. Cost: one pass over the text.
package struct SearchQuery: Sendable, Hashable {
    /// The longest query text taken, in UTF-8 bytes.
    package static let maximumLength = 1_000
    /// The most parts (words, phrases and filters) a query may have.
    package static let maximumParts = 32

    /// The index matches.
    package var match = SearchMatch()
    /// Conditions on the assets' own columns.
    package var filters: [StoreFilter<AssetAttribute>] = []

    /// Whether the query asks for nothing at all (empty or only spaces).
    package var isEmpty: Bool { match.isEmpty && filters.isEmpty }

    /// Parses `text`. Throws `limitExceeded` for text over
    /// ``maximumLength`` or with more than ``maximumParts`` parts.
    package init(_ text: String) throws(StoreError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw .limitExceeded("a search is at most \(Self.maximumLength) bytes; this one has \(text.utf8.count)")
        }
        let parts = Self.parts(of: text)
        guard parts.count <= Self.maximumParts else {
            throw .limitExceeded("a search has at most \(Self.maximumParts) words and filters; this one has \(parts.count)")
        }
        for part in parts { add(part) }
    }

    /// The asset fetch this query is, newest first among equally good
    /// matches; `limit` 0 for all.
    package func assetQuery(limit: Int = 0) -> AssetQuery {
        AssetQuery(scope: .search(match), filter: filters.isEmpty ? .all : .and(filters), limit: limit)
    }

    // MARK: - Parsing

    /// One space-separated part: `key` when it is `key:value` or
    /// `key<op>value`, and whether its value was quoted.
    private struct Part {
        var key: String?
        var comparison: String?
        var value: String
        var quoted: Bool
    }

    /// Splits on spaces outside quotes; a quote opens after a key's colon too.
    private static func parts(of text: String) -> [Part] {
        var parts: [Part] = []
        var characters = Substring(text)
        while true {
            characters = characters.drop(while: \.isWhitespace)
            guard !characters.isEmpty else { break }
            if characters.first == "\"" {
                let body = characters.dropFirst()
                let end = body.firstIndex(of: "\"") ?? body.endIndex
                parts.append(Part(value: String(body[..<end]), quoted: true))
                characters = end == body.endIndex ? body[end...] : body[body.index(after: end)...]
                continue
            }
            let end = characters.firstIndex(where: \.isWhitespace) ?? characters.endIndex
            var token = characters[..<end]
            characters = characters[end...]
            // `key:"a value with spaces"`.
            if let colon = token.firstIndex(of: ":"), token[token.index(after: colon)...].first == "\"" {
                let afterQuote = token.index(colon, offsetBy: 2)
                if let close = token[afterQuote...].firstIndex(of: "\"") {
                    parts.append(Part(key: String(token[..<colon]).lowercased(), value: String(token[afterQuote..<close]), quoted: true))
                    continue
                }
                let rest = token[afterQuote...] + characters
                let close = rest.firstIndex(of: "\"") ?? rest.endIndex
                parts.append(Part(key: String(token[..<colon]).lowercased(), value: String(rest[..<close]), quoted: true))
                let remainder = close == rest.endIndex ? "" : rest[rest.index(after: close)...]
                characters = Substring(remainder)
                continue
            }
            if let range = token.range(of: #"^[A-Za-z]+(>=|<=|>|<|=|:)"#, options: .regularExpression) {
                let key = token[range].prefix(while: \.isLetter)
                let comparison = token[key.endIndex..<range.upperBound]
                parts.append(Part(key: key.lowercased(), comparison: String(comparison), value: String(token[range.upperBound...]), quoted: false))
                continue
            }
            token = token.trimmingPrefix("\"")
            parts.append(Part(value: String(token), quoted: false))
        }
        return parts
    }

    /// The month names a search takes, January first.
    package static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]
    private static let shortMonths = months.map { String($0.prefix(3)) }
    /// The years a four-digit word is taken to be: photographs' own.
    private static let years = 1826...2199

    private mutating func add(_ part: Part) {
        let value = part.value
        switch (part.key, part.comparison) {
        case ("place", ":"), ("person", ":"), ("people", ":"), ("album", ":"):
            addFilter(key: part.key!, value: value)
        case ("place", nil), ("person", nil), ("people", nil), ("album", nil):
            addFilter(key: part.key!, value: value)
        case ("year", ":"), ("year", "="):
            if let year = Int(value), Self.years.contains(year) { match.years.append(year) } else { addWords(part) }
        case ("month", ":"), ("month", "="):
            if let month = Self.month(value) { match.months.append(month) } else { addWords(part) }
        case ("within", ":"):
            if let bounds = LocationBounds(searchValue: value) { filters.append(Self.within(bounds)) } else { addWords(part) }
        case ("is", ":"):
            if let filter = Self.kind(value.lowercased()) { filters.append(filter) } else { addWords(part) }
        case ("rating", let comparison?):
            guard let stars = Int64(value), (0...5).contains(stars) else { return addWords(part) }
            let operators: [String: StoreComparison] = [">=": .greaterOrEqual, "<=": .lessOrEqual, ">": .greater, "<": .less, "=": .equal, ":": .equal]
            filters.append(.compare(.attribute(.rating), operators[comparison]!, .value(.integer(stars)), []))
        default:
            if part.key == nil && !part.quoted {
                let lowered = value.lowercased()
                if let year = Int(lowered), lowered.count == 4, Self.years.contains(year) { return match.years.append(year) }
                if let month = Self.months.firstIndex(of: lowered) { return match.months.append(month + 1) }
                if let filter = Self.kind(lowered) { return filters.append(filter) }
            }
            addWords(part)
        }
    }

    private mutating func addFilter(key: String, value: String) {
        switch key {
        case "album":
            let title = value.trimmingCharacters(in: .whitespaces)
            // No title holds a control character (CollectionTitle), and PostgreSQL refuses NUL in text: such a name is no album's.
            if title.unicodeScalars.contains(where: FileName.isControl) {
                match.matchesNothing = true
            } else if !title.isEmpty {
                match.albums.append(title)
            }
        default:
            let words = SearchWords.words(value)
            guard !words.isEmpty else { return }
            if key == "place" { match.places.append(words) } else { match.people.append(words) }
        }
    }

    /// The part as it was typed, as one term: a quoted phrase's words, or
    /// a word that splits (`IMG_0042` is `img 0042`), in order.
    private mutating func addWords(_ part: Part) {
        let text = part.quoted ? part.value : [part.key, part.comparison, part.value].compactMap { $0 }.joined()
        let words = SearchWords.words(text)
        if !words.isEmpty { match.terms.append(words) }
    }

    private static func month(_ value: String) -> Int? {
        if let number = Int(value), (1...12).contains(number) { return number }
        let lowered = value.lowercased()
        return (months.firstIndex(of: lowered) ?? shortMonths.firstIndex(of: lowered)).map { $0 + 1 }
    }

    /// The kind words a search takes (each also has a plural or spelling
    /// ``kind(_:)`` takes), as suggestions offer them.
    package static let kindWords = ["favorite", "video", "photo", "screenshot", "live"]

    /// The filters the kind words name.
    private static func kind(_ word: String) -> StoreFilter<AssetAttribute>? {
        switch word {
        case "favorite", "favorites", "favourite", "favourites":
            .compare(.attribute(.isFavorite), .equal, .value(.integer(1)), [])
        case "video", "videos":
            .compare(.attribute(.mediaType), .equal, .value(.integer(Int64(AssetMediaType.video.rawValue))), [])
        case "photo", "photos":
            .compare(.attribute(.mediaType), .equal, .value(.integer(Int64(AssetMediaType.image.rawValue))), [])
        case "screenshot", "screenshots":
            subtype(.photoScreenshot)
        case "live":
            subtype(.photoLive)
        default:
            nil
        }
    }

    /// The filter `within:` is: latitude and longitude inside the box.
    private static func within(_ bounds: LocationBounds) -> StoreFilter<AssetAttribute> {
        func compare(_ attribute: AssetAttribute, _ comparison: StoreComparison, _ degrees: Double) -> StoreFilter<AssetAttribute> {
            .compare(.attribute(attribute), comparison, .value(.real(degrees)), [])
        }
        return .and([
            compare(.latitude, .greaterOrEqual, bounds.south), compare(.latitude, .lessOrEqual, bounds.north),
            compare(.longitude, .greaterOrEqual, bounds.west), compare(.longitude, .lessOrEqual, bounds.east),
        ])
    }

    private static func subtype(_ subtype: AssetMediaSubtypes) -> StoreFilter<AssetAttribute> {
        .compare(.bitwiseAnd(.attribute(.mediaSubtypes), .value(.integer(Int64(subtype.rawValue)))), .notEqual, .value(.integer(0)), [])
    }
}
