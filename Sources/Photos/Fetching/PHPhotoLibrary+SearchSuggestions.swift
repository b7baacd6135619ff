import Foundation
import PhotosStore

/// A completion of a search as it is typed (an OpenPhotoKit addition).
public struct SearchSuggestion: Sendable, Hashable {
    /// What the suggestion completes the last word with.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A city, region or country the reader's photos were taken in.
        case place
        /// An album the reader sees.
        case album
        /// One of the search's own words: `favorite`, `video`, a month.
        case filter
    }

    /// What it completes with.
    public var kind: Kind
    /// The name as people read it (`Zürich`, `Summer 2024`).
    public var label: String
    /// The whole search with its last word completed, ready to run.
    public var search: String
}

extension PHPhotoLibrary {
    /// Completions of the last word of `text`: places the reader's photos
    /// were taken, albums it sees, and the search's own filter words, whose
    /// names begin with that word (case and accents aside), places first,
    /// the most photographed first. Empty for an empty last word.
    /// Cost: the places query and the albums fetch; tens of milliseconds
    /// for a library of a hundred thousand photos.
    public func searchSuggestions(for text: String, limit: Int = 8) throws -> [SearchSuggestion] {
        guard text.utf8.count <= SearchQuery.maximumLength else {
            throw PHPhotosError(.limitExceeded, "a search is at most \(SearchQuery.maximumLength) bytes; this one has \(text.utf8.count)")
        }
        // A space after the last word means the next is not begun: nothing to complete.
        guard let last = text.last, !last.isWhitespace else { return [] }
        let trimmed = text.drop(while: \.isWhitespace)
        let split = trimmed.lastIndex(where: \.isWhitespace).map { trimmed.index(after: $0) } ?? trimmed.startIndex
        let head = trimmed[..<split]
        guard let typed = SearchWords.words(String(trimmed[split...])).first, limit > 0 else { return [] }
        var seen = Set<String>()
        var suggestions: [SearchSuggestion] = []
        func offer(_ kind: SearchSuggestion.Kind, _ label: String, _ completion: String) {
            guard suggestions.count < limit, SearchWords.words(label).first?.hasPrefix(typed) == true, seen.insert(completion).inserted else { return }
            suggestions.append(SearchSuggestion(kind: kind, label: label, search: head + completion))
        }
        let places = try self.places()
        var counts: [String: Int] = [:]
        for place in places {
            for name in [place.city, place.region, place.country] where !name.isEmpty { counts[name, default: 0] += place.assetCount }
        }
        for (name, _) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            offer(.place, name, Self.quotedIfNeeded(name))
        }
        let albums = withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).allObjects }
        for album in albums {
            guard let title = album.localizedTitle, !title.isEmpty else { continue }
            offer(.album, title, "album:\"" + title.replacingOccurrences(of: "\"", with: " ") + "\"")
        }
        for word in SearchQuery.kindWords + SearchQuery.months {
            offer(.filter, word, word)
        }
        return suggestions
    }

    private static func quotedIfNeeded(_ name: String) -> String {
        name.contains(where: { !($0.isLetter || $0.isNumber) }) ? "\"" + name.replacingOccurrences(of: "\"", with: " ") + "\"" : name
    }
}
