import GRDB

/// A row of a query's result whose columns are decoded one at a time, as
/// they are asked for, with GRDB's conversions: a kept ``SQLRow``, or the
/// row a statement stands on while ``SQLConnection/forEachRow(_:_:)``
/// hands it over, read in place.
package protocol SQLColumnReader {
    /// The value of the column at `index`, as the database holds it.
    func value(at index: Int) -> DatabaseValue
    /// The name of the column at `index`, as the statement selected it
    /// (for the error about a value the column cannot hold).
    func columnName(at index: Int) -> String
}

extension SQLColumnReader {
    /// The value at `index`. Ask for an optional type where NULL may come.
    /// The engine's statements know their columns' types, so a NULL here,
    /// or a value that is not a `Value`, was written into the database by
    /// something else: it throws rather than trapping, and the store
    /// reports the library as damaged.
    @_disfavoredOverload @inline(__always)
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws(StoredValueError) {
            let value = value(at: index)
            guard let decoded = Value.fromDatabaseValue(value) else {
                throw StoredValueError(column: columnName(at: index), value: value, expected: Value.self)
            }
            return decoded
        }
    }

    /// The value at `index`, nil when it is NULL; throws when it is neither
    /// NULL nor a `Value`. Asked for as an optional, a value is decoded
    /// here rather than by GRDB's generic `Optional` conformance, which
    /// looks up type metadata on every call. Both are inlined where they
    /// are read, so that `Value` is known there: through an existential
    /// reader they would otherwise run unspecialized, building metadata
    /// for each column read.
    @inline(__always)
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        get throws(StoredValueError) {
            let value = value(at: index)
            if value.isNull { return nil }
            guard let decoded = Value.fromDatabaseValue(value) else {
                throw StoredValueError(column: columnName(at: index), value: value, expected: Value.self)
            }
            return decoded
        }
    }
}
