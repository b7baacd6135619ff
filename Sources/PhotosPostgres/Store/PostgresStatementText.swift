import Foundation
import GRDB
import NIOCore
import PhotosStore
import PostgresNIO
import Synchronization

/// Turns the engine's statements (``SQLFragment`` values, written with `?`
/// placeholders) into PostgreSQL queries: the text with `$1`, `$2`, … and
/// the arguments as bindings. Placeholder conversion skips quoted text,
/// quoted names and comments, and is remembered per statement text.
package final class PostgresStatementText: Sendable {
    private let converted = Mutex<[String: String]>([:])

    /// A converter with nothing remembered yet. Cost: none.
    package init() {}

    /// The query a fragment is.
    func render(_ sql: SQLFragment) -> PostgresQuery {
        Self.query(placeholders(sql.text), arguments: sql.arguments)
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

    /// A query from converted text and the values of its placeholders.
    static func query(_ text: String, arguments: SQLArguments) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
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
