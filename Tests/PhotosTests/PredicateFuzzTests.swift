import Foundation
import Testing

@testable import Photos

/// Generated predicate strings through the throwing API: random token soup
/// and mutations of valid formats. Nothing may crash or hang, and every
/// rejection must say where in the format it went wrong.
@Suite struct PredicateFuzzTests {
    /// A small, seeded generator, so that a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let valid = [
        "mediaType == 1", "favorite == YES AND creationDate > CAST(0, 'NSDate')", "pixelWidth >= 100 OR pixelHeight < 50",
        "NOT (hidden == YES)", "mediaType IN {1, 2}", "duration BETWEEN {1.5, 10}", "localIdentifier BEGINSWITH[c] 'ab'",
        "(mediaSubtypes & 4) != 0", "creationDate == nil", "burstIdentifier != nil AND favorite == NO",
        "pixelWidth > pixelHeight", "TRUEPREDICATE", "localIdentifier LIKE '*001'", "mediaType = 2 && duration > 60 || favorite = 1",
    ]

    static let tokens = [
        "mediaType", "favorite", "creationDate", "pixelWidth", "localIdentifier", "hidden", "title", "SELF", "nosuchkey",
        "==", "=", "!=", "<>", "<", "<=", ">", ">=", "=<", "=>", "IN", "BETWEEN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "[c]", "[cd]", "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", ",", "'", "\"", "'abc'", "\"x\"",
        "1", "-2", "3.5", "1e309", "0x1F", "YES", "NO", "TRUE", "FALSE", "nil", "NULL", "%@", "%d", "%K", "%%", "$var",
        "CAST(0, 'NSDate')", "ANY", "ALL", "SOME", "NONE", "SUBQUERY(", "@count", ".", "&", "|", "\\", "é", "👍", "\u{0}", " ", "  ",
        "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION(", "[", "]", "-", "+", "*", "/", "**", ":", ";",
    ]

    static func soup(_ random: inout SplitMix) -> String {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in tokens.randomElement(using: &random)! }
            .joined(separator: Bool.random(using: &random) ? " " : "")
    }

    static func mutation(_ random: inout SplitMix) -> String {
        var characters = Array(valid.randomElement(using: &random)!)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let index = Int.random(in: 0...characters.count, using: &random)
            let piece = Array(tokens.randomElement(using: &random)!)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: characters.insert(contentsOf: piece, at: index)
            case 1 where !characters.isEmpty: characters.remove(at: min(index, characters.count - 1))
            default: characters.replaceSubrange(index..<min(index + piece.count, characters.count), with: piece)
            }
        }
        return String(characters)
    }

    @Test(.timeLimit(.minutes(2))) func hundredThousandGeneratedFormats() throws {
        var random = SplitMix(state: 0x5EED)
        let memoryBefore = HostileInputTests.residentMegabytes
        var rejected = 0
        var accepted = 0
        for number in 0..<100_000 {
            let format = number.isMultiple(of: 2) ? Self.soup(&random) : Self.mutation(&random)
            do {
                let predicate = try NSPredicate(validatingFormat: format, argumentArray: nil)
                let options = PHFetchOptions()
                options.predicate = predicate
                try options.validate(for: PHAsset.self)
                accepted += 1
            } catch {
                rejected += 1
                guard let position = error.position else {
                    Issue.record("no position for \(format.debugDescription): \(error.reason)")
                    continue
                }
                #expect(
                    (0...format.utf16.count).contains(position) || (0...format.count).contains(position),
                    "position \(position) outside \(format.debugDescription)")
            }
        }
        #expect(HostileInputTests.residentMegabytes - memoryBefore < 200, "memory stays bounded")
        #expect(rejected > 50_000 && accepted > 1_000, "the generator reaches both sides: \(accepted) accepted, \(rejected) rejected")
    }
}
