import Foundation

/// Typo tolerance: the words of the index near a word a search typed, so
/// that a search that found nothing (`baech`) finds what it meant (`beach`).
///
/// Each backend keeps the index's vocabulary its own way, read by
/// ``SearchIndex``: SQLite through an `fts5vocab` table over the FTS5
/// index, PostgreSQL in `search_term`, kept by a trigger. Near means within
/// one edit (a letter added, dropped, changed, or two swapped) for words of
/// four to seven letters and two for longer ones; shorter words are never
/// corrected, and a correction keeps the first letter, as people rarely
/// mistype it, which keeps the candidates read to a slice of the vocabulary;
/// numbers are never corrected.
package enum SearchTerms {
    /// The most corrections kept for one word, nearest first.
    static let maximumCorrections = 8
    /// The shortest word corrected.
    static let minimumLength = 4

    /// The edits a word of `length` letters may be from a correction.
    static func allowedEdits(_ length: Int) -> Int {
        length < minimumLength ? 0 : length < 8 ? 1 : 2
    }

    /// The words among `words` a search may correct: those long enough,
    /// with a letter. A number is never corrected: a file number that is
    /// not in the library must not find its neighbour (`0043` is not `0042`).
    package static func correctable(_ words: [String]) -> [String] {
        words.filter { word in allowedEdits(word.unicodeScalars.count) > 0 && word.unicodeScalars.contains { CharacterSet.letters.contains($0) } }
    }

    /// Of `candidates`, those within the allowed edits of `word` (not the
    /// word itself), nearest first, then alphabetically, at most ``maximumCorrections``.
    static func nearest(to word: String, among candidates: [String]) -> [String] {
        let typed = Array(word.unicodeScalars)
        let limit = allowedEdits(typed.count)
        guard limit > 0 else { return [] }
        var found: [(distance: Int, term: String)] = []
        for candidate in candidates where candidate != word {
            let scalars = Array(candidate.unicodeScalars)
            guard abs(scalars.count - typed.count) <= limit, let distance = editDistance(typed, scalars, limit: limit) else { continue }
            found.append((distance, candidate))
        }
        return found.sorted { ($0.distance, $0.term) < ($1.distance, $1.term) }.prefix(maximumCorrections).map(\.term)
    }

    /// The optimal-string-alignment distance between `a` and `b` (insertions,
    /// deletions, substitutions and swaps of neighbours), or nil when it is
    /// over `limit`. Cost: `a.count × b.count` steps at most, stopping early.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previousPrevious[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
