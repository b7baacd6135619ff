import NIOCore

/// JSON written straight into a buffer, for the one response where
/// `JSONEncoder` costs more than the query behind it: a timeline page's
/// columns, thousands of numbers each. Keys are written in the order
/// given (callers keep them sorted, as ``JSONBody`` does); strings are
/// escaped as RFC 8259 requires; numbers must be finite.
struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func beginObject() {
        separate()
        buffer.writeInteger(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        buffer.writeInteger(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func key(_ name: String) {
        separate()
        writeString(name)
        buffer.writeInteger(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func value(_ text: String?) {
        separate()
        if let text { writeString(text) } else { buffer.writeStaticString("null") }
        needsComma = true
    }

    mutating func value(_ number: Int) {
        separate()
        buffer.writeString(String(number))
        needsComma = true
    }

    mutating func value(_ number: Double?) {
        separate()
        if let number {
            precondition(number.isFinite, "JSON has no \(number)")
            buffer.writeString(number == number.rounded(.towardZero) && abs(number) < 1e15 ? String(Int64(number)) : String(number))
        } else {
            buffer.writeStaticString("null")
        }
        needsComma = true
    }

    mutating func value(_ flag: Bool) {
        separate()
        buffer.writeStaticString(flag ? "true" : "false")
        needsComma = true
    }

    /// `values` as an array, each written by `write`.
    mutating func array<Element>(_ values: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        separate()
        buffer.writeInteger(UInt8(ascii: "["))
        needsComma = false
        for element in values { write(&self, element) }
        buffer.writeInteger(UInt8(ascii: "]"))
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private mutating func writeString(_ text: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case 0..<0x20:
                buffer.writeStaticString("\\u00")
                buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                buffer.writeInteger(Self.hexDigits[Int(byte & 0xF)])
            default: buffer.writeInteger(byte)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
