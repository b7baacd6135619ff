import GRDB

/// A value read from the catalogue that its column cannot hold: NULL in a
/// column the schema declares NOT NULL, or text where a number belongs.
/// OpenPhotoKit never writes one; the database was edited by another
/// program (SQLite's tables are not `STRICT`) or damaged. Each store turns
/// it into ``StoreError/damaged(path:reason:)`` with its location.
package struct StoredValueError: Error, Sendable, CustomStringConvertible {
    /// The column's name, as the statement selected it.
    package let column: String
    /// What the column held, as SQL would write it (text shortened).
    package let found: String
    /// The Swift type the engine decodes the column as.
    package let expected: String

    /// The error for `value` read from `column` as a `expected`.
    package init(column: String, value: DatabaseValue, expected: Any.Type) {
        self.column = column
        let text = value.description
        found = text.count > 64 ? String(text.prefix(61)) + "..." : text
        self.expected = String(describing: expected)
    }

    package var description: String {
        "the column \(column) holds \(found), which is not a valid \(expected): another program changed the catalogue, or it is damaged"
    }
}
