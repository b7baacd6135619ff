import GRDB

/// One row a statement returned, whatever the database: its values by
/// position (and, for the few readers that want them, by column name),
/// decoded with GRDB's conversions, as GRDB's own `Row` decodes them.
package struct SQLRow: Sendable {
    /// The row's values, in the statement's column order.
    package let values: [DatabaseValue]
    /// The columns' names, in the same order (shared by a result's rows).
    package let columns: [String]

    /// A row of `values`, named by `columns` in the same order.
    package init(columns: [String], values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value at `index`. Ask for an optional type where NULL may come.
    /// The engine's statements know their columns' types, so a NULL here,
    /// or a value that is not a `Value`, was written into the database by
    /// something else: it throws rather than trapping, and the store
    /// reports the library as damaged.
    @_disfavoredOverload
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws(StoredValueError) {
            let value = values[index]
            guard let decoded = Value.fromDatabaseValue(value) else {
                throw StoredValueError(column: columns[index], value: value, expected: Value.self)
            }
            return decoded
        }
    }

    /// The value at `index`, nil when it is NULL; throws when it is neither
    /// NULL nor a `Value`. Asked for as an optional, a value is decoded
    /// here rather than by GRDB's generic `Optional` conformance, which
    /// looks up type metadata on every call.
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        get throws(StoredValueError) {
            let value = values[index]
            if value.isNull { return nil }
            guard let decoded = Value.fromDatabaseValue(value) else {
                throw StoredValueError(column: columns[index], value: value, expected: Value.self)
            }
            return decoded
        }
    }

    /// The value of the column named `name`; traps when the statement
    /// selected no such column, which is a mistake in the engine.
    package subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        get throws(StoredValueError) { try self[columnIndex(name)] }
    }

    private func columnIndex(_ name: String) -> Int {
        guard let index = columns.firstIndex(of: name) else { preconditionFailure("no column \(name) in \(columns)") }
        return index
    }
}
