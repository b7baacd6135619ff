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

    /// A number, or null for nil. JSON has no infinities or NaN: those are
    /// written as null too, since a value stored by another client (or
    /// another program) must not stop the server.
    mutating func value(_ number: Double?) {
        separate()
        if let number, number.isFinite {
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

    /// `values` as an array.
    mutating func array<Element: JSONWritable>(_ values: [Element]) {
        separate()
        buffer.writeInteger(UInt8(ascii: "["))
        needsComma = false
        for element in values { element.write(to: &self) }
        buffer.writeInteger(UInt8(ascii: "]"))
        needsComma = true
    }

    /// One member of the object being written: its key, then its value.
    mutating func field(_ name: String, _ value: some JSONWritable) {
        key(name)
        value.write(to: &self)
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

/// What ``JSONWriter`` writes as a value: strings, whole and real numbers,
/// booleans, null for nil, and arrays of these.
protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

extension String: JSONWritable {
    func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Int: JSONWritable {
    func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Double: JSONWritable {
    func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Bool: JSONWritable {
    func write(to writer: inout JSONWriter) { writer.value(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    func write(to writer: inout JSONWriter) {
        if let self { self.write(to: &writer) } else { writer.value(nil as String?) }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    func write(to writer: inout JSONWriter) { writer.array(self) }
}
