import Foundation

/// Parses the NSPredicate format language PhotoKit clients use, binding
/// format arguments (`%@`, `%K`, `%d`...) as it goes.
///
/// Grammar (keywords are case-insensitive):
///
///     predicate  := and ( (OR | ||) and )*
///     and        := not ( (AND | &&) not )*
///     not        := (NOT | !) not | TRUEPREDICATE | FALSEPREDICATE
///                 | '(' predicate ')' | comparison
///     comparison := [ANY | ALL | NONE | SOME] expression operator ['[' c|d|cd ']'] expression
///     expression := term ( ('&' | '|') term )*
///     term       := '(' expression ')' | '{' [expression (',' expression)*] '}'
///                 | CAST '(' expression ',' string ')'
///                 | key ('.' key)* | SELF | string | ['-'] number
///                 | YES | NO | TRUE | FALSE | NIL | NULL | %@ | %K | %d | %f ...
struct PredicateParser {
    private let format: String
    private let tokens: [PredicateToken]
    private let arguments: [Any]
    private var index = 0
    private var argumentIndex = 0
    private var depth = 0

    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 128

    static func parse(_ format: String, arguments: [Any]) throws(PHPredicateError) -> ParsedPredicate {
        var parser = PredicateParser(format: format, tokens: try PredicateLexer.tokens(of: format), arguments: arguments)
        let root = try parser.predicate()
        guard parser.current.kind == .end else {
            throw parser.error("unexpected \(parser.describe(parser.current)) after the end of the predicate")
        }
        return ParsedPredicate(root: root, format: format)
    }

    private init(format: String, tokens: [PredicateToken], arguments: [Any]) {
        self.format = format
        self.tokens = tokens
        self.arguments = arguments
    }

    // MARK: - Tokens

    private var current: PredicateToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func take(keyword: String) -> Bool {
        guard current.kind == .keyword(keyword) else { return false }
        advance()
        return true
    }

    private mutating func take(symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func expect(symbol: String, _ what: String) throws(PHPredicateError) {
        guard take(symbol: symbol) else { throw error("expected \(what) but found \(describe(current))") }
    }

    private func error(_ reason: String, at position: Int? = nil) -> PHPredicateError {
        PHPredicateError(reason: reason, format: format, position: position ?? current.position)
    }

    private func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .identifier(let name): "'\(name)'"
        case .keyword(let word): word
        case .string(let text): "the string \"\(text)\""
        case .integer(let value): "the number \(value)"
        case .real(let value): "the number \(value)"
        case .specifier(let text): "%\(text)"
        case .variable(let name): "$\(name)"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the format"
        }
    }

    private mutating func enter() throws(PHPredicateError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("the predicate is nested too deeply") }
    }

    // MARK: - Predicates

    private mutating func predicate() throws(PHPredicateError) -> PredicateNode {
        try enter()
        defer { depth -= 1 }
        var operands = [try conjunction()]
        while take(keyword: "OR") || take(symbol: "||") {
            operands.append(try conjunction())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func conjunction() throws(PHPredicateError) -> PredicateNode {
        var operands = [try negation()]
        while take(keyword: "AND") || take(symbol: "&&") {
            operands.append(try negation())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func negation() throws(PHPredicateError) -> PredicateNode {
        if take(keyword: "NOT") || take(symbol: "!") {
            try enter()
            defer { depth -= 1 }
            return .not(try negation())
        }
        if take(keyword: "TRUEPREDICATE") { return .constant(true) }
        if take(keyword: "FALSEPREDICATE") { return .constant(false) }
        guard current.kind == .symbol("(") else { return try comparison() }

        // "(" opens either a nested predicate or an expression such as
        // "(mediaSubtypes & 4) != 0": try the predicate, then the comparison,
        // and report the failure that got further.
        let start = (index, argumentIndex)
        let nestedFailure: PHPredicateError
        do {
            advance()
            let nested = try predicate()
            try expect(symbol: ")", "')'")
            return nested
        } catch {
            nestedFailure = error
        }
        (index, argumentIndex) = start
        do {
            return try comparison()
        } catch {
            throw (nestedFailure.position ?? 0) > (error.position ?? 0) ? nestedFailure : error
        }
    }

    private mutating func comparison() throws(PHPredicateError) -> PredicateNode {
        var modifier: PredicateModifier?
        if case .keyword(let word) = current.kind, let found = PredicateModifier(rawValue: word) {
            modifier = found
            advance()
        }
        let lhs = try expression()
        let operatorPosition = current.position
        let op = try comparisonOperator()
        let options = try stringOptions()
        let rhs = try expression()
        return .comparison(
            PredicateComparison(
                modifier: modifier, lhs: lhs, op: op, options: options, rhs: rhs,
                position: operatorPosition))
    }

    private mutating func comparisonOperator() throws(PHPredicateError) -> PredicateOperator {
        let symbols: [String: PredicateOperator] = [
            "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
        ]
        switch current.kind {
        case .symbol(let symbol) where symbols[symbol] != nil:
            advance()
            return symbols[symbol]!
        case .keyword(let word) where PredicateOperator(rawValue: word) != nil:
            advance()
            return PredicateOperator(rawValue: word)!
        default:
            throw error("expected a comparison operator (==, !=, <, >, IN, BETWEEN, CONTAINS...) but found \(describe(current))")
        }
    }

    private mutating func stringOptions() throws(PHPredicateError) -> PredicateStringOptions {
        guard current.kind == .symbol("[") else { return [] }
        let start = current.position
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw error("expected string options such as [c], [d] or [cd]")
        }
        var options: PredicateStringOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n", "l": break  // normalized and locale-sensitive: comparisons already are
            default: throw error("unknown string option '\(letter)'; use c, d or cd", at: start)
            }
        }
        advance()
        try expect(symbol: "]", "']' after the string options")
        return options
    }

    // MARK: - Expressions

    private mutating func expression() throws(PHPredicateError) -> PredicateOperand {
        try enter()
        // Each operator of a chain nests the operand one level deeper, as parentheses do.
        var chained = 1
        defer { depth -= chained }
        var result = try term()
        while true {
            if take(symbol: "&") {
                try enter()
                chained += 1
                result = .bitwiseAnd(result, try term())
            } else if take(symbol: "|") {
                try enter()
                chained += 1
                result = .bitwiseOr(result, try term())
            } else {
                return result
            }
        }
    }

    private mutating func term() throws(PHPredicateError) -> PredicateOperand {
        let token = current
        let position = token.position
        switch token.kind {
        case .symbol("("):
            advance()
            let inner = try expression()
            try expect(symbol: ")", "')'")
            return inner
        case .symbol("{"):
            advance()
            var elements: [PredicateOperand] = []
            if !take(symbol: "}") {
                repeat {
                    elements.append(try expression())
                } while take(symbol: ",")
                try expect(symbol: "}", "'}' or ','")
            }
            return .aggregate(elements, position: position)
        case .symbol("-"):
            advance()
            switch current.kind {
            case .integer(let value):
                advance()
                return .value(.integer(-value), position: position)
            case .real(let value):
                advance()
                return .value(.real(-value), position: position)
            default:
                throw error("expected a number after '-'")
            }
        case .identifier(let name) where name.uppercased() == "CAST" && tokens[index + 1].kind == .symbol("("):
            advance()
            return try cast(at: position)
        case .identifier(var name):
            advance()
            while current.kind == .symbol(".") {
                advance()
                guard case .identifier(let part) = current.kind else { throw error("expected a key after '.'") }
                name += "." + part
                advance()
            }
            return .key(name, position: position)
        case .keyword("SELF"):
            advance()
            return .evaluatedObject(position: position)
        case .keyword("YES"), .keyword("TRUE"):
            advance()
            return .value(.bool(true), position: position)
        case .keyword("NO"), .keyword("FALSE"):
            advance()
            return .value(.bool(false), position: position)
        case .keyword("NIL"), .keyword("NULL"):
            advance()
            return .value(.null, position: position)
        case .string(let text):
            advance()
            return .value(.string(text), position: position)
        case .integer(let value):
            advance()
            return .value(.integer(value), position: position)
        case .real(let value):
            advance()
            return .value(.real(value), position: position)
        case .specifier(let conversion):
            advance()
            return try argument(conversion, position: position)
        case .variable(let name):
            throw error("substitution variables such as $\(name) are not supported; pass the value as a format argument")
        default:
            throw error("expected a key or a value but found \(describe(token))")
        }
    }

    /// `CAST(value, "NSDate")` (seconds since 2001, as `predicateFormat`
    /// writes dates), `CAST(value, "NSNumber")` and `CAST(value, "NSString")`.
    private mutating func cast(at position: Int) throws(PHPredicateError) -> PredicateOperand {
        try expect(symbol: "(", "'(' after CAST")
        let operand = try expression()
        try expect(symbol: ",", "',' and a type name in CAST")
        guard case .string(let type) = current.kind else { throw error("expected a type name such as \"NSDate\" in CAST") }
        advance()
        try expect(symbol: ")", "')' after CAST's type")
        guard case .value(let value, let valuePosition) = operand else {
            throw error("CAST converts a value, not a key", at: operand.position)
        }
        switch (type, value) {
        case ("NSDate", .integer(let seconds)): return .value(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))), position: position)
        case ("NSDate", .real(let seconds)): return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)), position: position)
        case ("NSDate", .date): return .value(value, position: position)
        case ("NSNumber", .integer), ("NSNumber", .real): return .value(value, position: position)
        case ("NSNumber", .string(let text)):
            if let integer = Int64(text) { return .value(.integer(integer), position: position) }
            if let real = Double(text) { return .value(.real(real), position: position) }
            throw error("\"\(text)\" is not a number", at: valuePosition)
        case ("NSString", .string): return .value(value, position: position)
        case ("NSString", .integer(let integer)): return .value(.string(String(integer)), position: position)
        case ("NSString", .real(let real)): return .value(.string(String(real)), position: position)
        default:
            throw error(
                "CAST cannot make \(value.typeName) into \(type); it converts numbers to NSDate, and to and from NSNumber and NSString",
                at: position)
        }
    }

    private mutating func argument(_ conversion: String, position: Int) throws(PHPredicateError) -> PredicateOperand {
        guard argumentIndex < arguments.count else {
            throw error("the format needs more arguments than the \(arguments.count) given", at: position)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let ordinal = argumentIndex
        guard let value = PredicateArgument.value(of: argument) else {
            throw error("argument \(ordinal) (\(type(of: argument))) cannot be used in a predicate", at: position)
        }
        switch conversion.last! {
        case "K":
            guard case .string(let key) = value else {
                throw error("argument \(ordinal) for %K must be a key name string, not \(value.typeName)", at: position)
            }
            return .key(key, position: position)
        case "@":
            return .value(value, position: position)
        case "d", "i", "u", "x", "X", "o":
            switch value {
            case .integer, .bool: return .value(value, position: position)
            case .real(let real) where real.rounded() == real: return .value(.integer(Int64(real)), position: position)
            default: throw error("argument \(ordinal) for %\(conversion) must be an integer, not \(value.typeName)", at: position)
            }
        case "f", "e", "E", "g", "G", "a", "A":
            switch value {
            case .integer(let integer): return .value(.real(Double(integer)), position: position)
            case .real: return .value(value, position: position)
            default: throw error("argument \(ordinal) for %\(conversion) must be a number, not \(value.typeName)", at: position)
            }
        default:
            throw error("the format specifier %\(conversion) is not supported; use %@, %K, %d or %f", at: position)
        }
    }
}
