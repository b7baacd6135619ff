import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Text comparisons match as NSPredicate's do, in time linear in the text
/// and the pattern.
@Suite struct TextMatchingTests {
    /// The backtracking matcher the engine used before, which defines what
    /// `LIKE` means (and takes time proportional to text × pattern).
    private static func model(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0
        var p = 0
        var starPattern = -1
        var starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "\\", p + 1 < pattern.count, pattern[p + 1] == text[t] {
                t += 1
                p += 2
            } else if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] != "\\" && pattern[p] == text[t]) {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                starPattern = p
                starText = t
                p += 1
            } else if starPattern >= 0 {
                p = starPattern + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    @Test(arguments: [1, 2, 3, 4])
    func likeAgreesWithTheBacktrackingMatcher(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", "b", "é", "*", "?", "\\"]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...9, using: &random)).map { _ in ["a", "b", "é", "*", "?"].randomElement(using: &random)! as Unicode.Scalar }
            let pattern = (0..<Int.random(in: 0...7, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            #expect(
                Glob(pattern).matches(text) == Self.model(text, pattern),
                "\(String(String.UnicodeScalarView(text))) LIKE \(String(String.UnicodeScalarView(pattern)))")
        }
    }

    @Test(arguments: [1, 2])
    func containsAgreesWithFoundation(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<10_000 {
            let text = String((0..<Int.random(in: 0...12, using: &random)).map { _ in "aab?".randomElement(using: &random)! })
            let needle = String((0..<Int.random(in: 0...4, using: &random)).map { _ in "aab?".randomElement(using: &random)! })
            let expected = needle.isEmpty || text.contains(needle)
            #expect(TextMatching.evaluate(.contains, [], text, needle) == expected, "\(text) CONTAINS \(needle)")
        }
    }

    @Test func foldingAppliesToBothSides() {
        #expect(TextMatching.evaluate(.like, [.caseInsensitive, .diacriticInsensitive], "Été à Paris", "*ete*PARIS"))
        #expect(TextMatching.evaluate(.contains, [.caseInsensitive], "Summer HOLIDAYS", "holi"))
        #expect(!TextMatching.evaluate(.contains, [], "Summer HOLIDAYS", "holi"))
        #expect(TextMatching.evaluate(.like, [], "a*b", "a\\*b") && !TextMatching.evaluate(.like, [], "axb", "a\\*b"))
        #expect(!TextMatching.evaluate(.like, [], "a\\", "a\\"), "a pattern ending in a lone backslash matches nothing")
    }

    /// What took the backtracking matcher seconds a row: a long title
    /// against a long pattern that almost matches, with and without `?`,
    /// and a long CONTAINS; and a pattern longer than the text.
    @Test func worstCasesOfTheBacktrackingMatcherAnswerRight() {
        let title = String(repeating: "a", count: 1_024)
        #expect(!TextMatching.evaluate(.like, [.caseInsensitive], title, "*" + String(repeating: "a", count: 1_000) + "b"))
        #expect(!TextMatching.evaluate(.like, [], title, "*" + String(repeating: "?a", count: 500) + "b"))
        #expect(TextMatching.evaluate(.like, [], title + "b", "*" + String(repeating: "?a", count: 500) + "b"))
        #expect(!TextMatching.evaluate(.contains, [.caseInsensitive, .diacriticInsensitive], title, String(repeating: "a", count: 1_000) + "b"))
        #expect(!TextMatching.evaluate(.like, [], "short", "*" + String(repeating: "?", count: 4_000)))
    }
}
