import Foundation
import GRDB
import NIOCore
import PhotosStore
import PostgresNIO
import Synchronization

/// Turns the engine's statements (GRDB `SQL` values, written with `?`
/// placeholders) into PostgreSQL queries: the text with `$1`, `$2`, … and
/// the arguments as bindings.
///
/// GRDB renders an `SQL` value against a database connection, so each
/// store keeps one empty in-memory SQLite database for that alone: it
/// joins fragments and collects their arguments, and never holds data.
/// Placeholder conversion skips quoted text, quoted names and comments,
/// and is remembered per statement text.
package final class PostgresStatementText: Sendable {
    private let renderer: DatabaseQueue
    private let converted = Mutex<[String: String]>([:])

    /// A renderer with its own empty in-memory SQLite database. Cost: opening it.
    package init() throws(StoreError) {
        do {
            renderer = try DatabaseQueue()
        } catch {
            throw .database("cannot set up the statement renderer: \(error)")
        }
    }

    /// The query an `SQL` value is.
    func render(_ sql: SQL) throws(StoreError) -> PostgresQuery {
        let built: (sql: String, arguments: StatementArguments)
        do {
            built = try renderer.inDatabase { db in try sql.build(db) }
        } catch {
            throw .database("cannot render a statement: \(error)")
        }
        return try Self.query(placeholders(built.sql), arguments: built.arguments)
    }

    /// `sql` with PostgreSQL's placeholders: `?` numbered in order, `?NNN` as `$NNN`.
    func placeholders(_ sql: String) -> String {
        if let known = converted.withLock({ $0[sql] }) { return known }
        let text = Self.convert(sql)
        converted.withLock { cache in
            // Statements are the engine's own, so the cache stays small;
            // the bound only guards against one that is built per call.
            if cache.count > 4096 { cache.removeAll() }
            cache[sql] = text
        }
        return text
    }

    /// A query from converted text and GRDB arguments.
    static func query(_ text: String, arguments: StatementArguments) throws(StoreError) -> PostgresQuery {
        let values = try values(of: arguments)
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value.storage {
            case .null: bindings.appendNull()
            case .int64(let integer): bindings.append(integer)
            case .double(let double): bindings.append(double)
            case .string(let string): bindings.append(string)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// The values of positional arguments. GRDB hands them only to SQLite
    /// statements, so they are read from its stored property by reflection;
    /// a GRDB that stored them otherwise fails here, loudly, in every test.
    private static func values(of arguments: StatementArguments) throws(StoreError) -> [DatabaseValue] {
        if arguments.isEmpty { return [] }
        guard let values = Mirror(reflecting: arguments).descendant("values") as? [DatabaseValue] else {
            throw .database("cannot read the statement's arguments from this version of GRDB")
        }
        return values
    }

    private static func convert(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var next = 1
        var quote: Character?
        var lineComment = false
        let characters = Array(sql)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            defer { index += 1 }
            if lineComment {
                output.append(character)
                if character == "\n" { lineComment = false }
                continue
            }
            if let open = quote {
                output.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                output.append(character)
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                lineComment = true
                output.append(character)
            case "?":
                var digits = ""
                while index + 1 < characters.count, characters[index + 1].isASCII, characters[index + 1].isNumber {
                    digits.append(characters[index + 1])
                    index += 1
                }
                if digits.isEmpty {
                    output += "$\(next)"
                    next += 1
                } else {
                    output += "$" + digits
                }
            default:
                output.append(character)
            }
        }
        return output
    }
}
