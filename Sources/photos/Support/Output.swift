import Foundation
import PhotosServer

/// Writing what commands print: lines of text, aligned tables and JSON.
///
/// Text carries names others chose (titles, file names, paths, a client's
/// adjustment format), so every line goes through ``escaped(_:)``: no
/// name can move the cursor, clear or recolour the terminal, or reorder
/// what it shows. JSON escapes control characters itself.
enum Output {
    /// A line of text on standard output, escaped.
    static func line(_ text: String) {
        print(escaped(text))
    }

    /// A line of text on standard error, escaped.
    static func errorLine(_ text: String) {
        FileHandle.standardError.write(Data((escaped(text) + "\n").utf8))
    }

    /// `text` with control characters (C0, DEL, C1) and Unicode's
    /// bidirectional controls shown as escapes: `\n`, `\t`, `\e`,
    /// `\x7F`, `\u{202E}`. Other text, accents and emoji included, is kept.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            case _ where scalar.value <= 0xFF: result += String(format: "\\x%02X", scalar.value)
            default: result += String(format: "\\u{%04X}", scalar.value)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates, and the marks.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Prints rows under a header, each column as wide as its widest cell.
    static func table(_ header: [String], _ rows: [[String]]) {
        let lines = ([header] + rows).map { $0.map(escaped) }
        let widths = header.indices.map { column in
            lines.map { $0[column].count }.max() ?? 0
        }
        for row in lines {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// Prints a JSON value (dictionaries, arrays, strings, numbers, booleans,
    /// NSNull) with sorted keys, one document per call.
    static func json(_ value: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed]) else {
            errorLine("photos: cannot encode the output as JSON")
            return
        }
        print(jsonEscaped(String(decoding: data, as: UTF8.self)))
    }

    /// Prints a value in the JSON the server writes (``JSONBody``), so
    /// that an asset reads the same from `photos … --json` and from `/v1`.
    static func json(encoding value: some Encodable) {
        guard let data = try? JSONBody.encode(value, pretty: true) else {
            errorLine("photos: cannot encode the output as JSON")
            return
        }
        print(jsonEscaped(String(decoding: data, as: UTF8.self)))
    }

    /// Prints a JSON value on one line, for streams of events.
    static func jsonLine(_ value: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return }
        print(jsonEscaped(String(decoding: data, as: UTF8.self)))
    }

    /// JSON text with the control characters JSON allows raw (DEL, C1,
    /// bidirectional controls) written as `\u` escapes: the same document,
    /// safe on a terminal. JSONSerialization escapes the C0 ones inside
    /// strings itself; outside them, they are the document's own layout.
    private static func jsonEscaped(_ text: String) -> String {
        let needsEscape = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && isControl(scalar) }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// A date as ISO 8601 in UTC, or "-".
    static func date(_ date: Date?) -> String {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
    }

    /// A date for JSON: ISO 8601 text, or null.
    static func jsonDate(_ date: Date?) -> Any {
        date.map { JSONBody.dateText($0) as Any } ?? NSNull()
    }

    /// A byte count for people: "12.3 MB".
    static func bytes(_ count: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : String(format: "%.1f %@", value, units[unit])
    }
}
