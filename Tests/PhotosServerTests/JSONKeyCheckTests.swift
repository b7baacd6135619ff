import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Request bodies that name a key twice, or nest without end, are found in
/// one pass, whatever their escapes and however deep.
@Suite struct JSONKeyCheckTests {
    @Test func findsDuplicatesThroughEscapesAndAtAnyLevel() {
        #expect(JSONKeyCheck.check(Array(#"{"a": 1, "a": 2}"#.utf8)) == .duplicateKey("a"))
        #expect(JSONKeyCheck.check(Array(#"{"a": 1, "\u0061": 2}"#.utf8)) == .duplicateKey("a"))
        #expect(JSONKeyCheck.check(Array(#"{"x": [{"k": "a", "k": "b"}]}"#.utf8)) == .duplicateKey("k"))
        #expect(JSONKeyCheck.check(Array(#"{"é": 1, "\u00e9": 2}"#.utf8)) == .duplicateKey("é"))
        #expect(JSONKeyCheck.check(Array(#"{"a": {"a": 1}, "b": ["a", "a"], "c": "a"}"#.utf8)) == nil)
        #expect(JSONKeyCheck.check(Array(#"{"a\"": 1, "a": 2}"#.utf8)) == nil)
        #expect(JSONKeyCheck.check(Array(String(repeating: "[", count: 1_000_000).utf8)) == .tooDeep)
        #expect(JSONKeyCheck.check(Array("{\"a\": \"\\".utf8)) == nil, "not JSON: the decoder says why")
    }

    /// Random nested values, some with a key repeated: the check finds a
    /// duplicate exactly when Foundation's parser, given the same text,
    /// keeps fewer keys than the text names.
    @Test(arguments: [1, 2, 3])
    func agreesWithAModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let keys = ["a", "b", "\\u0061", "\\\"q", "é", "\\u00e9", "x\\ny"]
        func value(_ depth: Int, _ duplicate: inout Bool) -> String {
            switch depth > 4 ? 0 : Int.random(in: 0...3, using: &random) {
            case 0: return ["1", "true", "null", "\"a\"", "\"\\u0061\""].randomElement(using: &random)!
            case 1: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1, &duplicate) }.joined(separator: ",") + "]"
            default:
                let chosen = (0..<Int.random(in: 0...4, using: &random)).map { _ in keys.randomElement(using: &random)! }
                let decoded = chosen.map { (try? JSONSerialization.jsonObject(with: Data("\"\($0)\"".utf8), options: .fragmentsAllowed)) as? String ?? $0 }
                if Set(decoded).count < decoded.count { duplicate = true }
                return "{" + chosen.map { "\"\($0)\": " + value(depth + 1, &duplicate) }.joined(separator: ", ") + "}"
            }
        }
        for _ in 0..<2_000 {
            var duplicate = false
            let text = value(0, &duplicate)
            let found = JSONKeyCheck.check(Array(text.utf8))
            #expect((found != nil) == duplicate, "\(text)")
        }
    }
}
