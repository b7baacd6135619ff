import Foundation

/// What a search asks of the index and of the assets' dates and albums
/// (``SearchQuery``), as a fetch's scope (``AssetScope/search(_:)``).
package struct SearchMatch: Sendable, Hashable {
    /// Each a run of folded words, all in order, the last a word beginning;
    /// every term must match somewhere in an asset's indexed text.
    package var terms: [[String]] = []
    /// Places, any of which the asset's place must be (each folded words).
    package var places: [[String]] = []
    /// People, any of whom must be in the asset (each folded words).
    package var people: [[String]] = []
    /// Album titles, any of which must hold the asset.
    package var albums: [String] = []
    /// Years, any of which the asset was taken in, in its local time.
    package var years: [Int] = []
    /// Months (1 to 12), any of which the asset was taken in, in its local time.
    package var months: [Int] = []
    /// Words of `terms` a search typed alone, each with the words of the
    /// index near it (``SearchTerms``), which it also matches: filled in
    /// when the search as typed finds nothing.
    package var corrections: [String: [String]] = [:]
    /// Whether a part names what nothing can be (an album titled with a control character).
    package var matchesNothing = false

    package init() {}

    /// Whether it asks nothing.
    package var isEmpty: Bool {
        terms.isEmpty && places.isEmpty && people.isEmpty && albums.isEmpty && years.isEmpty && months.isEmpty && !matchesNothing
    }

    /// The words typed alone that ``SearchTerms`` may correct.
    package var correctableWords: [String] {
        SearchTerms.correctable(terms.filter { $0.count == 1 }.map { $0[0] })
    }

    /// Whether it matches words in the full-text index.
    package var usesTextIndex: Bool { !(terms.isEmpty && places.isEmpty && people.isEmpty) }
}
