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

    /// The value at `index`; traps when it is NULL or not a `Value`, as
    /// GRDB's `Row` does: the engine's statements know their columns'
    /// types. Ask for an optional type where NULL may come.
    @_disfavoredOverload
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        let value = values[index]
        guard let decoded = Value.fromDatabaseValue(value) else {
            preconditionFailure("column \(index) (\(columns[index])) holds \(value), not \(Value.self)")
        }
        return decoded
    }

    /// The value at `index`, nil when it is NULL; traps when it is neither
    /// NULL nor a `Value`. Asked for as an optional, a value is decoded
    /// here rather than by GRDB's generic `Optional` conformance, which
    /// looks up type metadata on every call.
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        let value = values[index]
        if value.isNull { return nil }
        guard let decoded = Value.fromDatabaseValue(value) else {
            preconditionFailure("column \(index) (\(columns[index])) holds \(value), not \(Value.self)")
        }
        return decoded
    }

    /// The value of the column named `name`; traps when there is none.
    package subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        self[columnIndex(name)]
    }

    private func columnIndex(_ name: String) -> Int {
        guard let index = columns.firstIndex(of: name) else { preconditionFailure("no column \(name) in \(columns)") }
        return index
    }
}
