import Foundation

/// How text becomes the words a search matches, on both sides: what the
/// indexer stores and what a query asks for are folded and split by this
/// one rule, so that SQLite's and PostgreSQL's full-text indexes, which
/// would split text each in their own way, only ever see words joined by
/// single spaces.
///
/// A word is a run of letters and digits; everything else separates words
/// (`IMG_0042.JPG` is `img 0042 jpg`). Case and diacritics are folded away
/// (`Zürich` is `zurich`), as people type without them.
package enum SearchWords {
    /// The longest word kept: longer runs are cut, so that no value can
    /// make a term the index must hold at any length.
    package static let maximumWordLength = 64

    /// The words of `text`, folded, in order. Cost: one pass over the text.
    package static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var words: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(String(current.prefix(maximumWordLength)))
                current = ""
            }
        }
        if !current.isEmpty { words.append(String(current.prefix(maximumWordLength))) }
        return words
    }

    /// `texts`' words as one stored column: folded, joined by single spaces.
    package static func document(_ texts: [String]) -> String {
        texts.flatMap(words).joined(separator: " ")
    }
}
