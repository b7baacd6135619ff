import Foundation

/// File names chosen by clients and cameras, reduced to what is safe to
/// store and to use as the last part of a path.
///
/// A name is data: `../../../x.jpg`, a Windows path, a NUL, a newline or a
/// terminal escape sequence must not reach a path or a terminal as such.
package enum FileName {
    /// The longest name, in UTF-8 bytes, that file systems accept.
    package static let maximumBytes = 255

    /// `name` reduced to a safe last path component, keeping what a person
    /// would recognise: the part after the last `/` or `\`, without terminal
    /// escape sequences, control characters or Unicode's bidirectional
    /// controls, trimmed, and shortened to 255 bytes with its extension
    /// kept. Nil when nothing recognisable is left (an empty name, `.` or
    /// `..`): the caller names the file itself.
    package static func safe(_ name: String) -> String? {
        let visible = String(String.UnicodeScalarView(withoutEscapeSequences(name).unicodeScalars.filter { !isControl($0) }))
        let last = visible.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != ".", trimmed != ".." else { return nil }
        return shortened(trimmed)
    }

    /// A file extension safe to put in a path: 1 to 10 ASCII letters or
    /// digits, lowercased; nil for anything else.
    package static func safeExtension(_ pathExtension: String) -> String? {
        guard (1...10).contains(pathExtension.utf8.count),
            pathExtension.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else { return nil }
        return pathExtension.lowercased()
    }

    /// Whether a scalar is a control character (C0, DEL, C1) or a bidirectional control.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` without ANSI escape sequences: CSI (`ESC [` … a final byte),
    /// OSC (`ESC ]` … BEL or `ESC \`), and two-character escapes.
    private static func withoutEscapeSequences(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)[...]
        var kept = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            guard scalar == "\u{1B}" || scalar == "\u{9B}" else {
                kept.append(scalar)
                continue
            }
            let introducer = scalar == "\u{9B}" ? "[" : scalars.popFirst()
            switch introducer {
            case "[":
                while let next = scalars.popFirst(), !(0x40...0x7E).contains(next.value) {}
            case "]":
                while let next = scalars.popFirst(), next != "\u{07}" {
                    if next == "\u{1B}" {
                        _ = scalars.popFirst()
                        break
                    }
                }
            default:
                break
            }
        }
        return String(kept)
    }

    /// `name` cut to `maximumBytes` UTF-8 bytes, keeping a short extension.
    private static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumBytes else { return name }
        let ext = (name as NSString).pathExtension
        let suffix = ext.isEmpty || ext.utf8.count > 16 ? "" : "." + ext
        var base = String(name.dropLast(suffix.count))
        while base.utf8.count + suffix.utf8.count > maximumBytes {
            base.removeLast()
        }
        return (base + suffix).trimmingCharacters(in: .whitespaces)
    }
}
