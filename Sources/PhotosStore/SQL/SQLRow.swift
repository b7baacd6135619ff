import GRDB

/// One row a statement returned, whatever the database: its values by
/// position (and, for the few readers that want them, by column name),
/// decoded with GRDB's conversions, as GRDB's own `Row` decodes them.
package struct SQLRow: SQLColumnReader, Sendable {
    /// The row's values, in the statement's column order.
    package let values: [DatabaseValue]
    /// The columns' names, in the same order (shared by a result's rows).
    package let columns: [String]

    /// A row of `values`, named by `columns` in the same order.
    package init(columns: [String], values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    package func value(at index: Int) -> DatabaseValue { values[index] }

    package func columnName(at index: Int) -> String { columns[index] }

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
