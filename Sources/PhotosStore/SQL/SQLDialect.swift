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

    /// A subquery selecting the ids of a list, `SELECT value …`.
    package func elements(of ids: [Int64]) -> SQL {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(Self.json(ids)))"
        case .postgres: "SELECT unnest(CAST(\(Self.arrayLiteral(ids)) AS int8[]))"
        }
    }

    /// A subquery selecting the texts of a list, `SELECT value …`.
    package func elements(of texts: [String]) -> SQL {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(Self.json(texts)))"
        case .postgres: "SELECT value FROM jsonb_array_elements_text(\(Self.json(texts))::jsonb) AS e(value)"
        }
    }

    /// A list of ids as a table named `alias`, with columns `value` and
    /// `key`, which grows with the position in the list.
    package func table(of ids: [Int64], alias: String) -> SQL {
        switch self {
        case .sqlite:
            "json_each(\(Self.json(ids))) \(sql: alias)"
        case .postgres:
            "unnest(CAST(\(Self.arrayLiteral(ids)) AS int8[])) WITH ORDINALITY AS \(sql: alias)(value, key)"
        }
    }

    /// A list of texts as a table named `alias`, with columns `value` and `key`.
    package func table(of texts: [String], alias: String) -> SQL {
        switch self {
        case .sqlite:
            "json_each(\(Self.json(texts))) \(sql: alias)"
        case .postgres:
            "(SELECT value, key FROM jsonb_array_elements_text(\(Self.json(texts))::jsonb) WITH ORDINALITY AS e(value, key)) \(sql: alias)"
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
        var text = "{"
        text.reserveCapacity(ids.count * 8 + 2)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += String(id)
        }
        return text + "}"
    }

    /// A JSON array of ids, written directly: numbers need no escaping,
    /// and a list of one or a thousand ids is written in microseconds.
    package static func json(_ ids: [Int64]) -> String {
        "[" + ids.lazy.map(String.init).joined(separator: ",") + "]"
    }

    /// A JSON array of values, the one argument a list travels as.
    package static func json<T: Encodable>(_ values: [T]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
