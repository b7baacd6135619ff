import Foundation
import Testing

@testable import PhotosStore

/// The stored form of an asset's keywords, and its fast reading, against
/// a JSON decoder: random lists of every kind of text come back whole.
@Suite struct DescriptiveMetadataRecordTests {
    @Test func keywordsComeBackWholeWhateverTheyHold() {
        var generator = SystemRandomNumberGenerator()
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

    @Test func fileTextIsFittedNotRefused() {
        #expect(DescriptiveText.fitted(caption: "  a\u{1B}[31mred\u{7} line\nnext \t ") == "a[31mred line\nnext")
        #expect(DescriptiveText.fitted(caption: String(repeating: "é", count: 10_000))?.utf8.count == DescriptiveText.maximumCaptionBytes)
        #expect(DescriptiveText.fitted(caption: "\u{1B}") == nil)
        let keywords = ["ok", "", "bad\nline", String(repeating: "k", count: 300), "ok"] + (0..<600).map { "k\($0)" }
        let fitted = DescriptiveText.fitted(keywords: keywords)
        #expect(fitted.first == "ok" && fitted.count == DescriptiveText.maximumKeywordCount && Set(fitted).count == fitted.count)
    }
}
