import Foundation
import GRDB

/// Where the SQL of SQLite and PostgreSQL differ, in the few places the
/// engine needs: lists bound as one argument, and the place of NULLs in an
/// order. Everything else the engine writes is SQL both accept.
///
/// A list travels as one argument, so that a statement's text does not
/// change with the list's length (SQLite caches it, and neither database
/// meets its limit on arguments): a JSON array, or for ids on PostgreSQL
/// an array literal, which it unnests at about half the cost of JSON.
package enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// The integer part of a number that is never negative (its floor), as
    /// an integer: SQLite's cast truncates, PostgreSQL's would round.
    package func wholePart(of expression: String) -> String {
        switch self {
        case .sqlite: "CAST(\(expression) AS INTEGER)"
        case .postgres: "CAST(floor(\(expression)) AS int8)"
        }
    }

    /// A subquery selecting the ids of a list, `SELECT value …`.
    package func elements(of ids: [Int64]) -> SQLFragment {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(Self.json(ids)))"
        case .postgres: "SELECT unnest(CAST(\(Self.arrayLiteral(ids)) AS int8[]))"
        }
    }

    /// A subquery selecting the texts of a list, `SELECT value …`.
    package func elements(of texts: [String]) -> SQLFragment {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(Self.json(texts)))"
        case .postgres: "SELECT value FROM jsonb_array_elements_text(\(Self.json(texts))::jsonb) AS e(value)"
        }
    }

    /// A list of ids as a table named `alias`, with columns `value` and
    /// `key`, which grows with the position in the list.
    package func table(of ids: [Int64], alias: TableAlias) -> SQLFragment {
        switch self {
        case .sqlite:
            "json_each(\(Self.json(ids))) \(alias)"
        case .postgres:
            "unnest(CAST(\(Self.arrayLiteral(ids)) AS int8[])) WITH ORDINALITY AS \(alias)(value, key)"
        }
    }

    /// A list of texts as a table named `alias`, with columns `value` and `key`.
    package func table(of texts: [String], alias: TableAlias) -> SQLFragment {
        switch self {
        case .sqlite:
            "json_each(\(Self.json(texts))) \(alias)"
        case .postgres:
            "(SELECT value, key FROM jsonb_array_elements_text(\(Self.json(texts))::jsonb) WITH ORDINALITY AS e(value, key)) \(alias)"
        }
    }

    /// The texts of a JSON array a row holds in `column` (NULL: none), as a
    /// table named `alias` with one column, `value`, for a subquery's FROM.
    package func elements(ofJSONColumn column: String, alias: TableAlias) -> String {
        switch self {
        case .sqlite: "json_each(\(column)) \(alias)"
        case .postgres: "jsonb_array_elements_text(\(column)::jsonb) AS \(alias)(value)"
        }
    }

    /// An ORDER BY direction that puts NULL first when ascending and last
    /// when descending, as SQLite does by itself (PostgreSQL does the
    /// opposite). SQLite gets the bare direction, which its planner matches
    /// against indexes; so does PostgreSQL for an expression that is never
    /// NULL, whose index then serves the order read forwards or backwards.
    package func direction(ascending: Bool, nullable: Bool = true) -> String {
        switch (self, ascending) {
        case (.sqlite, true): "ASC"
        case (.sqlite, false): "DESC"
        case (.postgres, true): nullable ? "ASC NULLS FIRST" : "ASC"
        case (.postgres, false): nullable ? "DESC NULLS LAST" : "DESC"
        }
    }

    /// PostgreSQL's literal of an array of integers, `{1,2,3}`.
    static func arrayLiteral(_ ids: [Int64]) -> String {
        list(ids, between: UInt8(ascii: "{"), and: UInt8(ascii: "}"))
    }

    /// A JSON array of ids, `[1,2,3]`.
    package static func json(_ ids: [Int64]) -> String {
        list(ids, between: UInt8(ascii: "["), and: UInt8(ascii: "]"))
    }

    /// `ids` in decimal, separated by commas, between two brackets. Digits
    /// are written into one buffer: numbers need no escaping, and making a
    /// string of each and joining them took as long as SQLite then took to
    /// look up a chunk of rows by their ids.
    private static func list(_ ids: [Int64], between open: UInt8, and close: UInt8) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count * 8 + 2)
        bytes.append(open)
        for (index, id) in ids.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if id < 0 { bytes.append(UInt8(ascii: "-")) }
            let first = bytes.count
            var magnitude = id.magnitude
            repeat {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            bytes[first...].reverse()
        }
        bytes.append(close)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON array of values, the one argument a list travels as.
    package static func json<T: Encodable>(_ values: [T]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A JSON array of texts, `["a","b"]`. Written into one buffer,
    /// escaping only what JSON must (quotation mark, reverse solidus,
    /// control characters): `JSONEncoder` took longer to write the UUIDs
    /// of thousands of assets than SQLite took to trash them.
    package static func json(_ texts: [String]) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(texts.reduce(2) { $0 + $1.utf8.count + 3 })
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
