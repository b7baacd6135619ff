import Foundation

/// A token of the predicate format language, with its character offset.
struct PredicateToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case identifier(String)
        /// A reserved word, uppercased: AND, OR, NOT, IN, BETWEEN, YES, NIL...
        case keyword(String)
        case string(String)
        case integer(Int64)
        case real(Double)
        /// A format specifier without its `%`: "@", "K", "d", "ld", "f"...
        case specifier(String)
        /// `$name`, a substitution variable.
        case variable(String)
        /// Operators and punctuation: ( ) { } , & | ! == != < <= > >= && || [ ] -
        case symbol(String)
        case end
    }

    var kind: Kind
    var position: Int
}

/// Splits a predicate format string into tokens.
struct PredicateLexer {
    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
        "ANY", "ALL", "NONE", "SOME", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE", "SELF",
        "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    /// Conversions after `%` and its length modifiers that take an argument.
    private static let conversions: Set<Character> = ["@", "K", "d", "i", "u", "x", "X", "o", "f", "e", "E", "g", "G", "c", "s", "p", "a", "A"]
    private static let lengthModifiers: Set<Character> = ["l", "h", "q", "z", "t", "j", "L"]

    private let characters: [Character]
    private let format: String
    private var index = 0

    init(_ format: String) {
        self.format = format
        characters = Array(format)
    }

    static func tokens(of format: String) throws(PHPredicateError) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ reason: String, at position: Int) -> PHPredicateError {
        PHPredicateError(reason: reason, format: format, position: position)
    }

    private mutating func next() throws(PHPredicateError) -> PredicateToken {
        while index < characters.count, characters[index].isWhitespace {
            index += 1
        }
        let start = index
        guard index < characters.count else { return PredicateToken(kind: .end, position: start) }
        let character = characters[index]

        if character.isLetter || character == "_" || character == "#" {
            return try word(start: start)
        }
        if character.isASCIIDigit {
            return try number(start: start)
        }
        switch character {
        case "\"", "'":
            return try quoted(start: start, quote: character)
        case "%":
            return try specifier(start: start)
        case "$":
            index += 1
            let name = identifierRun()
            guard !name.isEmpty else { throw error("a variable name is missing after $", at: start) }
            return PredicateToken(kind: .variable(name), position: start)
        default:
            return try symbol(start: start)
        }
    }

    private mutating func identifierRun() -> String {
        var text = ""
        while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
            text.append(characters[index])
            index += 1
        }
        return text
    }

    private mutating func word(start: Int) throws(PHPredicateError) -> PredicateToken {
        let escaped = characters[index] == "#"
        if escaped { index += 1 }
        let text = identifierRun()
        guard !text.isEmpty else { throw error("a key name is missing after #", at: start) }
        let upper = text.uppercased()
        if !escaped, Self.keywords.contains(upper) {
            return PredicateToken(kind: .keyword(upper), position: start)
        }
        return PredicateToken(kind: .identifier(text), position: start)
    }

    private mutating func number(start: Int) throws(PHPredicateError) -> PredicateToken {
        var text = ""
        if characters[index] == "0", index + 1 < characters.count, "xXbBoO".contains(characters[index + 1]) {
            let radix = "xX".contains(characters[index + 1]) ? 16 : "bB".contains(characters[index + 1]) ? 2 : 8
            index += 2
            while index < characters.count, characters[index].isHexDigit {
                text.append(characters[index])
                index += 1
            }
            guard let value = Int64(text, radix: radix) else {
                throw error("the number is not a valid base-\(radix) integer", at: start)
            }
            return PredicateToken(kind: .integer(value), position: start)
        }
        var isReal = false
        while index < characters.count {
            let c = characters[index]
            if c.isASCIIDigit {
                text.append(c)
            } else if c == ".", !isReal, index + 1 < characters.count, characters[index + 1].isASCIIDigit {
                isReal = true
                text.append(c)
            } else if c == "e" || c == "E", index + 1 < characters.count,
                characters[index + 1].isASCIIDigit
                    || ((characters[index + 1] == "-" || characters[index + 1] == "+")
                        && index + 2 < characters.count && characters[index + 2].isASCIIDigit)
            {
                isReal = true
                text.append(c)
                text.append(characters[index + 1])
                index += 1
            } else {
                break
            }
            index += 1
        }
        if !isReal, let value = Int64(text) {
            return PredicateToken(kind: .integer(value), position: start)
        }
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is out of range", at: start) }
        return PredicateToken(kind: .real(value), position: start)
    }

    private mutating func quoted(start: Int, quote: Character) throws(PHPredicateError) -> PredicateToken {
        index += 1
        var text = ""
        while index < characters.count {
            let c = characters[index]
            index += 1
            if c == quote {
                return PredicateToken(kind: .string(text), position: start)
            }
            if c == "\\" {
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "0": text.append("\0")
                default: text.append(escaped)
                }
            } else {
                text.append(c)
            }
        }
        throw error("the string is not closed", at: start)
    }

    private mutating func specifier(start: Int) throws(PHPredicateError) -> PredicateToken {
        index += 1
        var text = ""
        while index < characters.count, Self.lengthModifiers.contains(characters[index]), text.count < 2 {
            text.append(characters[index])
            index += 1
        }
        guard index < characters.count, Self.conversions.contains(characters[index]) else {
            throw error("unknown format specifier", at: start)
        }
        text.append(characters[index])
        index += 1
        return PredicateToken(kind: .specifier(text), position: start)
    }

    private mutating func symbol(start: Int) throws(PHPredicateError) -> PredicateToken {
        let c = characters[index]
        let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
        let pairs: [String: String] = [
            "==": "==", "=<": "<=", "=>": ">=", "!=": "!=", "<>": "!=", "<=": "<=",
            ">=": ">=", "&&": "&&", "||": "||",
        ]
        if let next, let symbol = pairs[String([c, next])] {
            index += 2
            return PredicateToken(kind: .symbol(symbol), position: start)
        }
        let singles: [Character: String] = [
            "=": "==", "<": "<", ">": ">", "(": "(", ")": ")", "{": "{", "}": "}",
            ",": ",", "&": "&", "|": "|", "!": "!", "[": "[", "]": "]", "-": "-",
            ".": ".",
        ]
        guard let symbol = singles[c] else {
            throw error("unexpected character '\(c)'", at: start)
        }
        index += 1
        return PredicateToken(kind: .symbol(symbol), position: start)
    }
}

extension Character {
    /// 0 to 9: numbers in a format are ASCII digits, as Foundation reads them.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
