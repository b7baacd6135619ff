/// What Foundation's `JSONDecoder` does not refuse in a request body: an
/// object naming one key twice (it keeps one of them, so a client and the
/// server could read two different requests from one body), and nesting
/// deeper than any body of this API needs.
///
/// One pass over the bytes with a stack of its own, so that no body, however
/// deep, recurses. Bytes that are not JSON pass: the decoder reports them
/// with a better message. Cost: linear in the body, one set of keys per
/// object open at a time.
enum JSONKeyCheck {
    /// What the check found wrong.
    enum Finding: Equatable {
        case duplicateKey(String)
        case tooDeep
    }

    /// No request body of this API nests deeper than this.
    static let maximumDepth = 32

    static func check(_ bytes: some Collection<UInt8>) -> Finding? {
        var scanner = Scanner(bytes: Array(bytes))
        return scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        /// The keys of each object open, innermost last; nil for an array.
        var open: [Set<String>?] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func run() -> Finding? {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < JSONKeyCheck.maximumDepth else { return .tooDeep }
                    open.append(byte == UInt8(ascii: "{") ? [] : nil)
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !open.isEmpty else { return nil }
                    open.removeLast()
                    position += 1
                case UInt8(ascii: "\""):
                    guard let text = string() else { return nil }
                    // A string in an object is a key when a colon follows it.
                    if open.last != nil, let keys = open.last!, nextSignificant() == UInt8(ascii: ":") {
                        if keys.contains(text) { return .duplicateKey(text) }
                        open[open.count - 1]!.insert(text)
                    }
                default:
                    position += 1
                }
            }
            return nil
        }

        private func nextSignificant() -> UInt8? {
            var index = position
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return index < bytes.count ? bytes[index] : nil
        }

        /// The string starting at `position`, its escapes decoded; moves past
        /// its closing quote. Nil when it does not end or has a bad escape.
        private mutating func string() -> String? {
            position += 1
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flushRaw() {
                units.append(contentsOf: String(decoding: raw, as: UTF8.self).utf16)
                raw.removeAll(keepingCapacity: true)
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flushRaw()
                    return String(decoding: units, as: UTF16.self)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return nil }
                    let escaped = bytes[position]
                    position += 1
                    flushRaw()
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(escaped))
                    case UInt8(ascii: "b"): units.append(0x08)
                    case UInt8(ascii: "f"): units.append(0x0C)
                    case UInt8(ascii: "n"): units.append(0x0A)
                    case UInt8(ascii: "r"): units.append(0x0D)
                    case UInt8(ascii: "t"): units.append(0x09)
                    case UInt8(ascii: "u"):
                        guard position + 4 <= bytes.count,
                            let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                        else { return nil }
                        units.append(unit)
                        position += 4
                    default:
                        return nil
                    }
                default:
                    raw.append(byte)
                }
            }
            return nil
        }
    }
}
