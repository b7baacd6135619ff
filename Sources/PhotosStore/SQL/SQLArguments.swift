import GRDB

/// The values bound to a statement's `?` placeholders, in order: what
/// either backend binds, SQLite through its C API and PostgreSQL as
/// `$1`, `$2`, …. Written as an array literal of any values the database
/// stores (`[id, name, nil]`), as GRDB's arguments are.
package struct SQLArguments: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The values, first placeholder first.
    package private(set) var values: [DatabaseValue]

    /// Arguments from values already converted.
    package init(_ values: [DatabaseValue] = []) {
        self.values = values
    }

    /// Arguments from any values the database stores; nil binds NULL.
    package init(_ values: some Sequence<(any DatabaseValueConvertible)?>) {
        self.values = values.map { $0?.databaseValue ?? .null }
    }

    /// Arguments from any values the database stores; nil binds NULL.
    package init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        values = elements.map { $0?.databaseValue ?? .null }
    }

    /// Whether there is nothing to bind.
    package var isEmpty: Bool { values.isEmpty }

    /// Adds one value after the others.
    package mutating func append(_ value: (any DatabaseValueConvertible)?) {
        values.append(value?.databaseValue ?? .null)
    }

    /// Adds `other`'s values after these.
    package mutating func append(contentsOf other: SQLArguments) {
        values += other.values
    }

    /// `lhs`' values, then `rhs`'.
    package static func + (lhs: SQLArguments, rhs: SQLArguments) -> SQLArguments {
        SQLArguments(lhs.values + rhs.values)
    }

    /// Appends `rhs`' values.
    package static func += (lhs: inout SQLArguments, rhs: SQLArguments) {
        lhs.append(contentsOf: rhs)
    }

    /// GRDB's form of the same values, for a statement SQLite runs through GRDB.
    package var statementArguments: StatementArguments { StatementArguments(values) }
}

extension SQLArguments: CustomStringConvertible {
    /// The values as SQL literals in brackets, `[1, 'x', NULL]` as GRDB writes them.
    package var description: String {
        "[" + values.map(\.description).joined(separator: ", ") + "]"
    }
}
