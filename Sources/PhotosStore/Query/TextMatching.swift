import Foundation
import GRDB
import Synchronization

/// String comparison with NSPredicate's options, shared by SQLite (as the
/// `photos_text` SQL function) and by anything that must agree with it.
///
/// Every comparison costs time linear in the text and the pattern: a
/// pattern is folded and compiled once (``Pattern``), then matched without
/// backtracking: `CONTAINS` by Knuth–Morris–Pratt, `LIKE` by its literal
/// pieces in order (the leftmost place of each is the right one, since
/// `*` takes anything in between), a piece holding `?` by a bit-parallel
/// search. A row costs its own text's folding and one pass over it.
package enum TextMatching {
    /// Evaluates `lhs <comparison> rhs` after folding case and/or diacritics.
    package static func evaluate(_ comparison: StoreComparison, _ options: TextOptions, _ lhs: String, _ rhs: String) -> Bool {
        Pattern(comparison, options, rhs).matches(lhs)
    }

    static func fold(_ text: String, _ options: TextOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// The right-hand side of one comparison, folded and compiled once, to
    /// be matched against any number of texts.
    package struct Pattern: Sendable {
        let comparison: StoreComparison
        let options: TextOptions
        private let folded: String
        private let compiled: Compiled

        private enum Compiled: Sendable {
            case plain
            case contains([Glob.Element])
            case like(Glob)
        }

        package init(_ comparison: StoreComparison, _ options: TextOptions, _ rhs: String) {
            self.comparison = comparison
            self.options = options
            folded = fold(rhs, options)
            switch comparison {
            case .contains: compiled = .contains(folded.unicodeScalars.map(Glob.Element.scalar))
            case .like: compiled = .like(Glob(Array(folded.unicodeScalars)))
            default: compiled = .plain
            }
        }

        package func matches(_ lhs: String) -> Bool {
            let left = fold(lhs, options)
            switch comparison {
            case .equal: return left == folded
            case .notEqual: return left != folded
            case .less: return precedes(left, folded)
            case .lessOrEqual: return !precedes(folded, left)
            case .greater: return precedes(folded, left)
            case .greaterOrEqual: return !precedes(left, folded)
            case .beginsWith: return left.hasPrefix(folded)
            case .endsWith: return left.hasSuffix(folded)
            case .contains, .like:
                let text = Array(left.unicodeScalars)
                switch compiled {
                case .contains(let needle): return Glob.find(needle, in: text, from: 0) != nil
                case .like(let glob): return glob.matches(text)
                case .plain: return false
                }
            }
        }
    }

    /// Byte order of UTF-8, which is SQLite's BINARY collation.
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    static let codes: [StoreComparison: Int] = [
        .equal: 0, .notEqual: 1, .less: 2, .lessOrEqual: 3, .greater: 4, .greaterOrEqual: 5,
        .contains: 6, .beginsWith: 7, .endsWith: 8, .like: 9,
    ]

    /// The patterns compiled lately, so that a statement's rows share one:
    /// SQLite hands the function its arguments anew for each row.
    private static let patterns = Mutex<[PatternKey: Pattern]>([:])
    private static let maximumPatterns = 64

    private struct PatternKey: Hashable {
        let code: Int
        let options: Int
        let rhs: String
    }

    private static func pattern(code: Int, comparison: StoreComparison, options: Int, rhs: String) -> Pattern {
        let key = PatternKey(code: code, options: options, rhs: rhs)
        if let pattern = patterns.withLock({ $0[key] }) { return pattern }
        let pattern = Pattern(comparison, TextOptions(rawValue: options), rhs)
        patterns.withLock { patterns in
            if patterns.count >= maximumPatterns { patterns.removeAll(keepingCapacity: true) }
            patterns[key] = pattern
        }
        return pattern
    }

    /// `photos_text(comparison, options, lhs, rhs)`: NULL when either side is NULL.
    package static let sqlFunction = DatabaseFunction("photos_text", argumentCount: 4, pure: true) { values in
        guard let code = Int.fromDatabaseValue(values[0]),
            let comparison = codes.first(where: { $0.value == code })?.key,
            let options = Int.fromDatabaseValue(values[1]),
            let lhs = String.fromDatabaseValue(values[2]),
            let rhs = String.fromDatabaseValue(values[3])
        else {
            return nil
        }
        return pattern(code: code, comparison: comparison, options: options, rhs: rhs).matches(lhs)
    }
}

/// A `LIKE` pattern compiled: `*` matches any run, `?` one scalar, `\`
/// makes the next one literal (a `\` at the very end matches nothing). The
/// pieces between stars are matched in order: the first at the start, the
/// last at the end, each other at its leftmost place after the one before,
/// which is where the one before leaves the most room. Time linear in the
/// text (times a word per 64 scalars of a piece that holds `?`).
struct Glob: Sendable {
    enum Element: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case any
    }

    /// The pieces between stars; with no star at all, one piece the whole
    /// text must be.
    private let pieces: [[Element]]
    private let hasStar: Bool
    /// A pattern ending in a lone `\` matches nothing.
    private let matchesNothing: Bool
    /// The fewest scalars a text must have to match.
    private let minimumLength: Int

    init(_ pattern: [Unicode.Scalar]) {
        var pieces: [[Element]] = [[]]
        var hasStar = false
        var matchesNothing = false
        var index = 0
        while index < pattern.count {
            let scalar = pattern[index]
            switch scalar {
            case "*":
                hasStar = true
                if !pieces[pieces.count - 1].isEmpty || pieces.count == 1 { pieces.append([]) }
            case "?":
                pieces[pieces.count - 1].append(.any)
            case "\\":
                index += 1
                if index < pattern.count { pieces[pieces.count - 1].append(.scalar(pattern[index])) } else { matchesNothing = true }
            default:
                pieces[pieces.count - 1].append(.scalar(scalar))
            }
            index += 1
        }
        self.pieces = pieces
        self.hasStar = hasStar
        self.matchesNothing = matchesNothing
        minimumLength = pieces.reduce(0) { $0 + $1.count }
    }

    func matches(_ text: [Unicode.Scalar]) -> Bool {
        guard !matchesNothing, text.count >= minimumLength else { return false }
        guard hasStar else { return text.count == pieces[0].count && Self.matches(pieces[0], text, at: 0) }
        let first = pieces[0]
        let last = pieces[pieces.count - 1]
        guard Self.matches(first, text, at: 0), text.count - last.count >= first.count,
            Self.matches(last, text, at: text.count - last.count)
        else { return false }
        var position = first.count
        let end = text.count - last.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = Self.find(piece, in: text[..<end], from: position) else { return false }
            position = found + piece.count
        }
        return position <= end
    }

    private static func matches(_ piece: [Element], _ text: [Unicode.Scalar], at start: Int) -> Bool {
        guard start >= 0, start + piece.count <= text.count else { return false }
        for (offset, element) in piece.enumerated() {
            if case .scalar(let scalar) = element, text[start + offset] != scalar { return false }
        }
        return true
    }

    /// The leftmost start at or after `from` where `piece` matches `text`;
    /// nil when there is none. Knuth–Morris–Pratt for a piece of scalars
    /// only; a bit-parallel (shift-and) search for one holding `?`.
    static func find(_ piece: [Element], in text: ArraySlice<Unicode.Scalar>, from: Int) -> Int? {
        guard !piece.isEmpty else { return from }
        guard from + piece.count <= text.endIndex else { return nil }
        return piece.contains(.any) ? shiftAnd(piece, text, from: from) : knuthMorrisPratt(piece, text, from: from)
    }

    static func find(_ piece: [Element], in text: [Unicode.Scalar], from: Int) -> Int? {
        find(piece, in: text[...], from: from)
    }

    private static func knuthMorrisPratt(_ piece: [Element], _ text: ArraySlice<Unicode.Scalar>, from: Int) -> Int? {
        let needle = piece.map { element -> Unicode.Scalar in
            if case .scalar(let scalar) = element { return scalar }
            return "\0"
        }
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<max(1, needle.count) {
            while length > 0, needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for index in from..<text.endIndex {
            while matched > 0, text[index] != needle[matched] { matched = failure[matched - 1] }
            if text[index] == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
        }
        return nil
    }

    /// Baeza-Yates and Gonnet's shift-and: bit i of the state says the
    /// first i + 1 elements match ending here; a word per 64 elements.
    private static func shiftAnd(_ piece: [Element], _ text: ArraySlice<Unicode.Scalar>, from: Int) -> Int? {
        let words = (piece.count + 63) / 64
        var anyMask = [UInt64](repeating: 0, count: words)
        var masks: [Unicode.Scalar: [UInt64]] = [:]
        for (index, element) in piece.enumerated() {
            switch element {
            case .any: anyMask[index / 64] |= 1 << UInt64(index % 64)
            case .scalar(let scalar): masks[scalar, default: [UInt64](repeating: 0, count: words)][index / 64] |= 1 << UInt64(index % 64)
            }
        }
        var state = [UInt64](repeating: 0, count: words)
        let last = (word: (piece.count - 1) / 64, bit: UInt64(1) << UInt64((piece.count - 1) % 64))
        for index in from..<text.endIndex {
            let mask = masks[text[index]]
            var carry: UInt64 = 1
            for word in 0..<words {
                let next = (state[word] << 1) | carry
                carry = state[word] >> 63
                state[word] = next & ((mask?[word] ?? 0) | anyMask[word])
            }
            if state[last.word] & last.bit != 0 { return index - piece.count + 1 }
        }
        return nil
    }
}
