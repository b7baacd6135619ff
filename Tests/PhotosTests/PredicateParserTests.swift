import Foundation
import Testing

@testable import Photos

@Suite struct PredicateParserTests {
    private func parse(_ format: String, _ arguments: [Any] = []) throws -> PredicateNode {
        try PredicateParser.parse(format, arguments: arguments).root
    }

    /// The parse tree without source positions, to compare formats that differ only in spelling.
    private func shape(_ format: String, _ arguments: [Any] = []) throws -> String {
        String(describing: try parse(format, arguments)).replacing(/position: \d+/, with: "")
    }

    private func key(_ name: String, _ position: Int) -> PredicateOperand { .key(name, position: position) }

    @Test func comparisonsWithEveryOperatorSpelling() throws {
        let spellings: [(String, PredicateOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), ("<=", .lessOrEqual),
            ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
            ("CONTAINS", .contains), ("beginswith", .beginsWith), ("EndsWith", .endsWith), ("LIKE", .like),
        ]
        for (symbol, op) in spellings {
            guard case .comparison(let comparison) = try parse("title \(symbol) 'x'") else {
                Issue.record("\(symbol) did not parse as a comparison")
                continue
            }
            #expect(comparison.op == op, "\(symbol)")
            #expect(comparison.lhs == key("title", 0))
        }
    }

    @Test func logicalOperatorsNestAndBindAsInFoundation() throws {
        let node = try parse("a == 1 OR b == 2 AND NOT c == 3")
        guard case .or(let operands) = node, operands.count == 2, case .and(let conjunction) = operands[1],
            case .not = conjunction[1]
        else {
            Issue.record("unexpected shape \(node)")
            return
        }
        #expect(try shape("a == 1 && b == 2 || !(c == 3)") == shape("a == 1 AND b == 2 OR NOT (c == 3)"))
        #expect(try parse("TRUEPREDICATE") == .constant(true))
        #expect(try parse("falsepredicate") == .constant(false))
    }

    @Test func parenthesesOpenEitherAPredicateOrAnExpression() throws {
        let node = try parse("(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0", [1, 131_072])
        guard case .or(let operands) = node, case .comparison(let first) = operands[0] else {
            Issue.record("unexpected shape \(node)")
            return
        }
        #expect(first.lhs == .bitwiseAnd(key("mediaSubtypes", 1), .value(.integer(1), position: 17)))
        #expect(first.op == .notEqual)
        #expect(try shape("((favorite == YES))") == shape("favorite == YES"))
    }

    @Test func literalsAndArgumentsOfEveryKind() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let node = try parse(
            "d > %@ AND n == %d AND f < %f AND s == %@ AND k == nil AND b == YES AND l IN %@ AND %K == 2",
            [date, 7, 1.5, "x", [1, 2], "pixelWidth"])
        guard case .and(let comparisons) = node else {
            Issue.record("not an AND")
            return
        }
        let values = comparisons.compactMap { node -> PredicateOperand? in
            if case .comparison(let c) = node { return c.rhs }
            return nil
        }
        let parsed: [PredicateValue?] = values.map { if case .value(let v, _) = $0 { return v } else { return nil } }
        let expected: [PredicateValue?] = [
            .date(date), .integer(7), .real(1.5), .string("x"), .null, .bool(true), .list([.integer(1), .integer(2)]), .integer(2),
        ]
        #expect(parsed == expected)
        if case .comparison(let last) = comparisons.last {
            #expect(last.lhs == key("pixelWidth", 84))
        }
        #expect(try shape("x == \"double \\\"quoted\\\"\"") == shape("x == 'double \"quoted\"'"))
        #expect(try shape("x == 0x1F") == shape("x == 31"))
        #expect(try shape("x == -2.5e1") == shape("x == -25.0"))
        #expect(try shape("x IN {1, 2, 3}").contains("aggregate"))
    }

    @Test func optionSetsEnumsAndObjectsAreArguments() throws {
        let node = try parse("a == %@ AND b == %@", [PHAssetMediaSubtype.photoLive, PHAssetMediaType.video])
        guard case .and(let parts) = node, case .comparison(let first) = parts[0], case .comparison(let second) = parts[1] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(first.rhs == .value(.integer(8), position: 5))
        #expect(second.rhs == .value(.integer(2), position: 17))
    }

    @Test func stringOptions() throws {
        guard case .comparison(let comparison) = try parse("title CONTAINS[cd] 'é'") else {
            Issue.record("no comparison")
            return
        }
        #expect(comparison.options == [.caseInsensitive, .diacriticInsensitive])
    }

    @Test func errorsNameTheirPosition() {
        let cases: [(String, [Any], Int)] = [
            ("mediaType == ", [], 13),
            ("mediaType === 1", [], 12),
            ("(mediaType == 1", [], 15),
            ("mediaType == 1 )", [], 15),
            ("title == 'unclosed", [], 9),
            ("mediaType == %d", [], 13),
            ("mediaType == %d", ["one"], 13),
            ("a == 1 AND", [], 10),
            ("a @ 1", [], 2),
            ("a == $var", [], 5),
            ("a == %s", ["x"], 5),
            ("title CONTAINS[x] 'a'", [], 14),
        ]
        for (format, arguments, position) in cases {
            do {
                _ = try PredicateParser.parse(format, arguments: arguments)
                Issue.record("\(format) should not parse")
            } catch {
                #expect(error.position == position, "\(format): \(error)")
                #expect(error.description.contains("position \(position)"))
            }
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let format = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        #expect(throws: PHPredicateError.self) { try PredicateParser.parse(format, arguments: []) }
        let negations = String(repeating: "!", count: 10_000) + "a == 1"
        #expect(throws: PHPredicateError.self) { try PredicateParser.parse(negations, arguments: []) }
        // A chain of bitwise operators nests its operand as deep as parentheses would.
        let chain = "pixelWidth" + String(repeating: " & 1", count: 2_000) + " == 0"
        #expect(throws: PHPredicateError.self) { try PredicateParser.parse(chain, arguments: []) }
        #expect(throws: Never.self) { try PredicateParser.parse("pixelWidth" + String(repeating: " | 1", count: 100) + " == 0", arguments: []) }
    }

    @Test func nsPredicateCarriesItsParsedFormThroughCompounds() throws {
        let a = NSPredicate(format: "favorite == %@", NSNumber(value: true))
        let b = NSPredicate(format: "creationDate > %@", Date(timeIntervalSince1970: 0) as any CVarArg)
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [a, NSCompoundPredicate(notPredicateWithSubpredicate: b)])
        let parsed = try #require(compound.parsedForm)
        guard case .and(let operands) = parsed.root, operands.count == 2, case .not = operands[1] else {
            Issue.record("unexpected \(parsed.root)")
            return
        }
        #expect(NSPredicate(value: false).parsedForm?.root == .constant(false))
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).parsedForm?.root == .and([]))
        #expect(NSPredicate(block: { _, _ in true }).parsedForm?.root == .constant(true))
        #expect(throws: PHPredicateError.self) { try NSPredicate(validatingFormat: "a ==", argumentArray: nil) }
    }

    @Test func sortDescriptorsKeepTheirKey() {
        let descriptor = NSSortDescriptor(key: "creationDate", ascending: false)
        #expect(descriptor.key == "creationDate")
        #expect(!descriptor.ascending)
        #expect((descriptor.reversedSortDescriptor as? NSSortDescriptor)?.key == "creationDate")
        #expect(NSSortDescriptor(keyPath: \PHAsset.pixelWidth, ascending: true).key == nil)
    }
}
