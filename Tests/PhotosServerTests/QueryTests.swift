import Foundation
import HTTPTypes
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Query parameters and optional whitespace, read by bytes, against simple
/// models that read them by characters.
@Suite struct QueryTests {
    /// The model: split by characters, every name and value decoded as a form.
    private static func modelParameter(_ name: String, in text: String) -> String? {
        let decode = { (part: Substring) -> String in
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count == 2 ? decode(parts[1]) : "" }
        }
        return nil
    }

    @Test func parametersAreFoundAndDecodedAsTheModelDoes() {
        var random = SeededRandom(seed: 16)
        let pieces = ["v", "w", "v=", "=", "&", "&&", "+", "%2B", "%76", "%3D", "%26", "1", "é", "v=7", "%", "a b"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let query = Query(text: text[...], headers: [:])
            for name in ["v", "w", "v w", "+"] {
                let model = Self.modelParameter(name, in: text)
                #expect(query.text(name) == model.flatMap { $0.isEmpty ? nil : $0 }, "\(name) in \(text)")
            }
        }
        #expect(Query(text: nil, headers: [:]).text("v") == nil)
    }

    @Test func optionalWhitespaceIsTrimmedAtBothEndsOnly() {
        #expect(" \t Bearer  x \t".trimmingOptionalWhitespace() == "Bearer  x")
        #expect(" \t ".trimmingOptionalWhitespace().isEmpty)
        #expect("".trimmingOptionalWhitespace().isEmpty)
        #expect(" é ".trimmingOptionalWhitespace() == "é")
        #expect("\u{A0}x\u{A0}".trimmingOptionalWhitespace() == "\u{A0}x\u{A0}", "only spaces and tabs are HTTP's")
    }
}
