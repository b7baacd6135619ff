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
    /// The value of the column at `index` when it holds an integer; nil
    /// when it holds anything else, NULL included. Integers are most of
    /// what long reads decode, and a reader that asks the database for one
    /// directly builds no ``DatabaseValue`` on the way.
    func integer(at index: Int) -> Int64?
    /// The value of the column at `index` when it holds text; nil when it
    /// holds anything else, NULL included. Read directly for the same
    /// reason as ``integer(at:)``.
    func text(at index: Int) -> String?
    /// The value of the column at `index` when it holds a floating-point
    /// number; nil when it holds anything else, NULL included. Read
    /// directly for the same reason as ``integer(at:)``.
    func real(at index: Int) -> Double?
    /// `body` called with the UTF-8 bytes of the column at `index` when it
    /// holds text, and what it returns; nil when the column holds anything
    /// else, NULL included. The bytes are valid only during the call. A
    /// reader that lends the database's own bytes spares a decoder that
    /// only scans the text the `String` it would otherwise allocate.
    func withUTF8Text<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result?
}

extension SQLColumnReader {
    /// The value at `index`. Ask for an optional type where NULL may come.
    /// The engine's statements know their columns' types, so a NULL here,
    /// or a value that is not a `Value`, was written into the database by
    /// something else: it throws rather than trapping, and the store
    /// reports the library as damaged.
    @_disfavoredOverload @inline(__always)
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws(StoredValueError) { try decode(index) }
    }

    /// The integer at `index`, read without a ``DatabaseValue`` when the
    /// column holds one (see ``integer(at:)``); any other value is decoded
    /// as the generic subscript does, so it converts or throws alike.
    @inline(__always)
    package subscript(_ index: Int) -> Int64 {
        get throws(StoredValueError) {
            if let integer = integer(at: index) { return integer }
            return try decode(index)
        }
    }

    /// The integer at `index` as an `Int`, read as ``subscript(_:)-(Int)->Int64``.
    @inline(__always)
    package subscript(_ index: Int) -> Int {
        get throws(StoredValueError) {
            if let integer = integer(at: index), let value = Int(exactly: integer) { return value }
            return try decode(index)
        }
    }

    /// The integer at `index` as a `Bool` (any integer but 0 is true), read
    /// as ``subscript(_:)-(Int)->Int64``.
    @inline(__always)
    package subscript(_ index: Int) -> Bool {
        get throws(StoredValueError) {
            if let integer = integer(at: index) { return integer != 0 }
            return try decode(index)
        }
    }

    /// The text at `index`, read without a ``DatabaseValue`` when the
    /// column holds text (see ``text(at:)``); any other value is decoded as
    /// the generic subscript does.
    @inline(__always)
    package subscript(_ index: Int) -> String {
        get throws(StoredValueError) {
            if let text = text(at: index) { return text }
            return try decode(index)
        }
    }

    /// The text at `index` when the column holds text; the default asks
    /// for the ``DatabaseValue``.
    package func text(at index: Int) -> String? {
        if case .string(let text) = value(at: index).storage { return text }
        return nil
    }

    /// The integer at `index` when the column holds one; the default asks
    /// for the ``DatabaseValue``.
    package func integer(at index: Int) -> Int64? {
        if case .int64(let integer) = value(at: index).storage { return integer }
        return nil
    }

    /// The text at `index` lent as UTF-8 bytes; the default reads it with
    /// ``text(at:)``.
    package func withUTF8Text<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard var text = text(at: index) else { return nil }
        return text.withUTF8(body)
    }

    /// The floating-point number at `index` when the column holds one; the
    /// default asks for the ``DatabaseValue``.
    package func real(at index: Int) -> Double? {
        if case .double(let real) = value(at: index).storage { return real }
        return nil
    }

    /// The text at `index`, nil when it is NULL, read as
    /// ``subscript(_:)-(Int)->String``; any other value is decoded as the
    /// generic optional subscript does, so it converts or throws alike.
    @inline(__always)
    package subscript(_ index: Int) -> String? {
        get throws(StoredValueError) {
            if let text = text(at: index) { return text }
            return try decodeOptional(index)
        }
    }

    /// The floating-point number at `index`, nil when it is NULL, read
    /// without a ``DatabaseValue`` when the column holds one (see
    /// ``real(at:)``); any other value (an integer, say) is decoded as the
    /// generic optional subscript does.
    @inline(__always)
    package subscript(_ index: Int) -> Double? {
        get throws(StoredValueError) {
            if let real = real(at: index) { return real }
            return try decodeOptional(index)
        }
    }

    /// The floating-point number at `index`, read as ``subscript(_:)-(Int)->Double?``.
    @inline(__always)
    package subscript(_ index: Int) -> Double {
        get throws(StoredValueError) {
            if let real = real(at: index) { return real }
            return try decode(index)
        }
    }

    /// The value at `index` decoded with GRDB's conversion to `Value`;
    /// throws for NULL or a value that is not a `Value`.
    @inline(__always)
    private func decode<Value: DatabaseValueConvertible>(_ index: Int) throws(StoredValueError) -> Value {
        let value = value(at: index)
        guard let decoded = Value.fromDatabaseValue(value) else {
            throw StoredValueError(column: columnName(at: index), value: value, expected: Value.self)
        }
        return decoded
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
        get throws(StoredValueError) { try decodeOptional(index) }
    }

    /// The value at `index` decoded with GRDB's conversion to `Value`; nil
    /// for NULL, and throws for a value that is not a `Value`.
    @inline(__always)
    private func decodeOptional<Value: DatabaseValueConvertible>(_ index: Int) throws(StoredValueError) -> Value? {
        let value = value(at: index)
        if value.isNull { return nil }
        guard let decoded = Value.fromDatabaseValue(value) else {
            throw StoredValueError(column: columnName(at: index), value: value, expected: Value.self)
        }
        return decoded
    }
}
