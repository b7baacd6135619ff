import Foundation

/// A value in a predicate, from a literal or a format argument.
indirect enum PredicateValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case date(Date)
    /// A PhotoKit object, compared by its local identifier.
    case object(localIdentifier: String)
    case list([PredicateValue])

    var typeName: String {
        switch self {
        case .null: "nil"
        case .bool: "a boolean"
        case .integer, .real: "a number"
        case .string: "a string"
        case .date: "a date"
        case .object: "a PhotoKit object"
        case .list: "a collection"
        }
    }
}

/// One side of a comparison.
indirect enum PredicateOperand: Equatable, Sendable {
    /// A key such as `creationDate`, with its position in the format string.
    case key(String, position: Int)
    /// `SELF`: the object itself.
    case evaluatedObject(position: Int)
    case value(PredicateValue, position: Int)
    /// A literal aggregate `{a, b}`.
    case aggregate([PredicateOperand], position: Int)
    /// `lhs & rhs` (NSExpression's bitwiseAnd:with:).
    case bitwiseAnd(PredicateOperand, PredicateOperand)
    /// `lhs | rhs` (NSExpression's bitwiseOr:with:).
    case bitwiseOr(PredicateOperand, PredicateOperand)

    var position: Int {
        switch self {
        case .key(_, let position), .evaluatedObject(let position), .value(_, let position), .aggregate(_, let position):
            position
        case .bitwiseAnd(let lhs, _), .bitwiseOr(let lhs, _):
            lhs.position
        }
    }
}

enum PredicateOperator: String, Equatable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    case matches = "MATCHES"
}

/// `[c]` and `[d]` after a string operator.
struct PredicateStringOptions: OptionSet, Equatable, Sendable {
    let rawValue: Int
    static let caseInsensitive = PredicateStringOptions(rawValue: 1)
    static let diacriticInsensitive = PredicateStringOptions(rawValue: 2)
}

/// `ANY`, `ALL`, `NONE` or `SOME` before a comparison.
enum PredicateModifier: String, Equatable, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
    case some = "SOME"
}

/// A parsed predicate.
indirect enum PredicateNode: Equatable, Sendable {
    case constant(Bool)
    case comparison(PredicateComparison)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
}

struct PredicateComparison: Equatable, Sendable {
    var modifier: PredicateModifier?
    var lhs: PredicateOperand
    var op: PredicateOperator
    var options: PredicateStringOptions
    var rhs: PredicateOperand
    /// Where the operator is in the format string.
    var position: Int
}

/// A predicate with the format string it came from, for error messages.
struct ParsedPredicate: Equatable, Sendable {
    var root: PredicateNode
    /// nil for predicates built without a format (`NSPredicate(value:)`, compound ones).
    var format: String?
}
