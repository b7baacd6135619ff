import Foundation

/// Writing what commands print: aligned text tables and JSON.
enum Output {
    /// Prints rows under a header, each column as wide as its widest cell.
    static func table(_ header: [String], _ rows: [[String]]) {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        for row in [header] + rows {
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
            FileHandle.standardError.write(Data("photos: cannot encode the output as JSON\n".utf8))
            return
        }
        print(String(decoding: data, as: UTF8.self))
    }

    /// Prints a JSON value on one line, for streams of events.
    static func jsonLine(_ value: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return }
        print(String(decoding: data, as: UTF8.self))
    }

    /// A date as ISO 8601 in UTC, or "-".
    static func date(_ date: Date?) -> String {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
    }

    /// A date for JSON: ISO 8601 text, or null.
    static func jsonDate(_ date: Date?) -> Any {
        date.map { ISO8601DateFormatter().string(from: $0) as Any } ?? NSNull()
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
