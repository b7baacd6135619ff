import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The stored form of an asset's keywords, and its fast reading, against
/// a JSON decoder: random lists of every kind of text come back whole.
@Suite struct DescriptiveMetadataRecordTests {
    @Test func keywordsComeBackWholeWhateverTheyHold() {
        var generator = SeededRandom.fromEnvironment()
        let pieces = ["a", "Zürich", "東京", "\"", "\\", "/", ",", "\",\"", "[", "]", " ", "🙂", "\u{7}", "x\ny"]
        for _ in 0..<2000 {
            let keywords = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let stored = ExtendedMetadataRecord.stored(keywords: keywords)
            #expect(ExtendedMetadataRecord.keywords(stored: stored) == keywords, "\(keywords)")
            if let stored {
                #expect(ExtendedMetadataRecord.keywords(stored: stored) == (try? JSONDecoder().decode([String].self, from: Data(stored.utf8))))
            }
        }
        #expect(ExtendedMetadataRecord.keywords(stored: nil).isEmpty && ExtendedMetadataRecord.keywords(stored: "not json").isEmpty)
    }

    /// Fuzzed: stored text that no writer made (a damaged or hand-edited
    /// database) is read without trapping, and text the fast reading takes
    /// is split into what lies between its quotes.
    @Test func damagedStoredKeywordsAreReadWithoutTrapping() {
        var generator = SeededRandom.fromEnvironment()
        let pieces = ["[", "]", "\"", ",", "a", "é", "\\", " ", "", "\u{0}"]
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let keywords = ExtendedMetadataRecord.keywords(stored: text)
            #expect(keywords.allSatisfy { !$0.contains("\"") || text.contains("\\") }, "\(text)")
        }
        #expect(ExtendedMetadataRecord.keywords(stored: "[\"\"]") == [""])
        #expect(ExtendedMetadataRecord.keywords(stored: "[\"a\"b\"]") == ["a"])
    }

    @Test func fileTextIsFittedNotRefused() {
        #expect(DescriptiveText.fitted(caption: "  a\u{1B}[31mred\u{7} line\nnext \t ") == "a[31mred line\nnext")
        #expect(DescriptiveText.fitted(caption: String(repeating: "é", count: 10_000))?.utf8.count == DescriptiveText.maximumCaptionBytes)
        #expect(DescriptiveText.fitted(caption: "\u{1B}") == nil)
        let keywords = ["ok", "", "bad\nline", String(repeating: "k", count: 300), "ok"] + (0..<600).map { "k\($0)" }
        let fitted = DescriptiveText.fitted(keywords: keywords)
        #expect(fitted.first == "ok" && fitted.count == DescriptiveText.maximumKeywordCount && Set(fitted).count == fitted.count)
    }
}
