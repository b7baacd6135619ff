import Foundation
import GRDB

/// One ORDER BY term of a fetch: an SQL expression and its direction.
struct OrderTerm: Sendable, Hashable {
    var expression: String
    var ascending: Bool
    /// Whether the expression can be NULL. Only then does PostgreSQL need
    /// telling where NULLs go; saying it for a NOT NULL column (a row id,
    /// a position) would stop an index whose order differs there from
    /// serving the ORDER BY, and PostgreSQL would sort every row instead.
    var nullable = true
}

/// Compares values and sort keys exactly as SQLite's ORDER BY does: NULL
/// before numbers before text before blobs; integers and reals by value;
/// text by its bytes (the BINARY collation).
enum SQLOrdering {
    static func compare(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Int {
        func rank(_ value: DatabaseValue) -> Int {
            switch value.storage {
            case .null: 0
            case .int64, .double: 1
            case .string: 2
            case .blob: 3
            }
        }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right ? -1 : 1 }
        switch (lhs.storage, rhs.storage) {
        case (.int64(let a), .int64(let b)):
            return a == b ? 0 : a < b ? -1 : 1
        case (.int64, .double), (.double, .int64), (.double, .double):
            let (a, b) = (Double.fromDatabaseValue(lhs)!, Double.fromDatabaseValue(rhs)!)
            return a == b ? 0 : a < b ? -1 : 1
        case (.string(let a), .string(let b)):
            return a.utf8.elementsEqual(b.utf8) ? 0 : a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        case (.blob(let a), .blob(let b)):
            return a == b ? 0 : a.lexicographicallyPrecedes(b) ? -1 : 1
        default:
            return 0
        }
    }

    /// Whether the key `lhs` sorts before `rhs` under the terms' directions.
    static func precedes(_ lhs: [DatabaseValue], _ rhs: [DatabaseValue], terms: [OrderTerm]) -> Bool {
        for (index, term) in terms.enumerated() {
            let order = compare(lhs[index], rhs[index])
            if order != 0 { return term.ascending ? order < 0 : order > 0 }
        }
        return false
    }
}
