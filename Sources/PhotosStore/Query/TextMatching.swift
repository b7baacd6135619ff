import Foundation
import GRDB

/// String comparison with NSPredicate's options, shared by SQLite (as the
/// `photos_text` SQL function) and by anything that must agree with it.
package enum TextMatching {
    /// Evaluates `lhs <comparison> rhs` after folding case and/or diacritics.
    package static func evaluate(_ comparison: StoreComparison, _ options: TextOptions, _ lhs: String, _ rhs: String) -> Bool {
        let left = fold(lhs, options)
        let right = fold(rhs, options)
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        case .less: return precedes(left, right)
        case .lessOrEqual: return !precedes(right, left)
        case .greater: return precedes(right, left)
        case .greaterOrEqual: return !precedes(left, right)
        case .contains: return right.isEmpty || left.contains(right)
        case .beginsWith: return left.hasPrefix(right)
        case .endsWith: return left.hasSuffix(right)
        case .like: return wildcardMatch(Array(left.unicodeScalars), Array(right.unicodeScalars))
        }
    }

    static func fold(_ text: String, _ options: TextOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// Byte order of UTF-8, which is SQLite's BINARY collation.
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// `*` matches any run, `?` one scalar, `\` makes the next one literal.
    private static func wildcardMatch(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starPattern = -1, starText = 0
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

    static let codes: [StoreComparison: Int] = [
        .equal: 0, .notEqual: 1, .less: 2, .lessOrEqual: 3, .greater: 4, .greaterOrEqual: 5,
        .contains: 6, .beginsWith: 7, .endsWith: 8, .like: 9,
    ]

    /// `photos_text(comparison, options, lhs, rhs)`: NULL when either side is NULL.
    static let sqlFunction = DatabaseFunction("photos_text", argumentCount: 4, pure: true) { values in
        guard let code = Int.fromDatabaseValue(values[0]),
              let comparison = codes.first(where: { $0.value == code })?.key,
              let options = Int.fromDatabaseValue(values[1]),
              let lhs = String.fromDatabaseValue(values[2]),
              let rhs = String.fromDatabaseValue(values[3]) else {
            return nil
        }
        return evaluate(comparison, TextOptions(rawValue: options), lhs, rhs)
    }
}
