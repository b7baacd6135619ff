import GRDB

/// A piece of SQL and the values its `?` placeholders stand for, kept
/// together so that each argument travels with the text that uses it.
/// The engine writes every statement it runs on either backend as one.
///
/// Written as a string literal, an interpolated value becomes a
/// placeholder and an argument; other fragments are spliced in with their
/// arguments, and `\(sql:)` splices text as it is (column names and the
/// engine's own constants, never a value from a caller):
///
/// ```swift
/// let condition: SQLFragment = "a.creation_date BETWEEN \(start) AND \(end)"
/// let query: SQLFragment = "SELECT id FROM asset a WHERE \(condition) ORDER BY \(sql: order)"
/// ```
///
/// A backend needs nothing more to run one: SQLite binds ``arguments``
/// to the text's statement, PostgreSQL numbers the placeholders.
/// Cost: building one copies its text and values once; nothing is parsed.
package struct SQLFragment: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The SQL, with `?` where each argument goes.
    package private(set) var text: String
    /// The values of the placeholders in ``text``, in order.
    package private(set) var arguments: SQLArguments

    /// A fragment of `text` whose placeholders take `arguments`.
    package init(sql text: String, arguments: SQLArguments = []) {
        self.text = text
        self.arguments = arguments
    }

    /// A fragment of text alone.
    package init(stringLiteral text: String) {
        self.init(sql: text)
    }

    /// A fragment written with interpolations (see the type's description).
    package init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.text, arguments: stringInterpolation.arguments)
    }

    /// Whether the fragment has no text.
    package var isEmpty: Bool { text.isEmpty }

    /// `lhs` followed by `rhs`, with both arguments.
    package static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var joined = lhs
        joined += rhs
        return joined
    }

    /// Appends `rhs` and its arguments.
    package static func += (lhs: inout SQLFragment, rhs: SQLFragment) {
        lhs.text += rhs.text
        lhs.arguments.append(contentsOf: rhs.arguments)
    }

    /// Builds a fragment's text and arguments from a literal's parts.
    package struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var arguments = SQLArguments()

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A placeholder for `value`; nil binds NULL.
        package mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
            text += "?"
            arguments.append(value)
        }

        /// Another fragment, text and arguments.
        package mutating func appendInterpolation(_ fragment: SQLFragment) {
            text += fragment.text
            arguments.append(contentsOf: fragment.arguments)
        }

        /// Text spliced as it is: a column name or one of the engine's
        /// constants, never a value a caller gave.
        package mutating func appendInterpolation(sql: String) {
            text += sql
        }
    }
}

extension Sequence<SQLFragment> {
    /// The fragments one after another with `separator` between them, their arguments in the same order.
    package func joined(separator: String) -> SQLFragment {
        var joined = SQLFragment(sql: "")
        var first = true
        for fragment in self {
            if !first { joined += SQLFragment(sql: separator) }
            joined += fragment
            first = false
        }
        return joined
    }
}
