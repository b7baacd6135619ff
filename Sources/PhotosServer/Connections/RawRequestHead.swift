import NIOCore

/// One HTTP/1.1 request head read straight from a connection's bytes
/// (RFC 9112), for ``CachedRenditionHandler``: read only when the bytes are
/// exactly one whole head and nothing else, with no body to follow and
/// nothing NIO's decoder might read another way. Anything else is nil and
/// goes to NIO's decoder as it came: more or less than one head, a body
/// (`Content-Length`, `Transfer-Encoding`), `Upgrade` or `Expect`, a line
/// folded or ended by a bare CR or LF, a control character, a target or
/// name that is not plain ASCII, a method other than the usual ones. Reading one is a single pass over the
/// bytes; only the fields the fast path asks for become strings.
struct RawRequestHead {
    enum Version {
        case http1_0, http1_1
    }

    let method: String
    let target: String
    let version: Version
    /// Whether the connection stays open after the answer (RFC 9112 §9.3).
    let keepAlive: Bool
    /// The values of these fields, in order, each without its optional whitespace.
    let authorization: [String]
    let cookies: [String]
    let ifNoneMatch: [String]

    /// Larger heads are left to NIO's decoder.
    static let maximumSize = 16 * 1024

    init?(_ buffer: ByteBuffer) {
        guard buffer.readableBytes <= Self.maximumSize,
            let head = buffer.withUnsafeReadableBytes({ Self.parse($0) })
        else { return nil }
        self = head
    }

    private init(
        method: String, target: String, version: Version, keepAlive: Bool,
        authorization: [String], cookies: [String], ifNoneMatch: [String]
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.keepAlive = keepAlive
        self.authorization = authorization
        self.cookies = cookies
        self.ifNoneMatch = ifNoneMatch
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> RawRequestHead? {
        let count = bytes.count
        guard count >= 4, bytes[count - 4] == cr, bytes[count - 3] == lf, bytes[count - 2] == cr, bytes[count - 1] == lf
        else { return nil }
        var index = 0
        // request-line = method SP request-target SP HTTP-version CRLF
        while index < count, isTokenByte(bytes[index]) { index += 1 }
        guard index > 0, index < count, bytes[index] == space,
            let method = knownMethods.first(where: { UnsafeRawBufferPointer(rebasing: bytes[..<index]).elementsEqual($0.utf8) })
        else { return nil }
        index += 1
        let targetStart = index
        while index < count, bytes[index] > space, bytes[index] < 0x7F { index += 1 }
        guard index > targetStart, index < count, bytes[index] == space else { return nil }
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<index]), as: UTF8.self)
        index += 1
        guard count - index >= 10, bytes[index + 8] == cr, bytes[index + 9] == lf else { return nil }
        let versionText = UnsafeRawBufferPointer(rebasing: bytes[index..<index + 8])
        let version: Version
        if versionText.elementsEqual("HTTP/1.1".utf8) {
            version = .http1_1
        } else if versionText.elementsEqual("HTTP/1.0".utf8) {
            version = .http1_0
        } else {
            return nil
        }
        index += 10

        var close = false
        var keepAliveAsked = false
        var authorization: [String] = []
        var cookies: [String] = []
        var ifNoneMatch: [String] = []
        // *( field-name ":" OWS field-value OWS CRLF ) CRLF
        while index < count, bytes[index] != cr {
            let nameStart = index
            while index < count, isTokenByte(bytes[index]) { index += 1 }
            // A line starting with whitespace (obsolete folding) has no name.
            guard index > nameStart, index < count, bytes[index] == colon else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<index])
            index += 1
            while index < count, bytes[index] == space || bytes[index] == tab { index += 1 }
            let valueStart = index
            var valueEnd = index
            while index < count, isFieldValueByte(bytes[index]) {
                if bytes[index] != space && bytes[index] != tab { valueEnd = index + 1 }
                index += 1
            }
            guard index + 1 < count, bytes[index] == cr, bytes[index + 1] == lf else { return nil }
            index += 2
            let value = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd])
            switch FieldName(name) {
            case .bodyOrProtocolChange: return nil
            case .connection:
                for option in value.split(separator: comma) {
                    let token = trimmed(UnsafeRawBufferPointer(rebasing: option))
                    if equalsIgnoringCase(token, "close") { close = true }
                    if equalsIgnoringCase(token, "keep-alive") { keepAliveAsked = true }
                    if equalsIgnoringCase(token, "upgrade") { return nil }
                }
            case .authorization: authorization.append(String(decoding: value, as: UTF8.self))
            case .cookie: cookies.append(String(decoding: value, as: UTF8.self))
            case .ifNoneMatch: ifNoneMatch.append(String(decoding: value, as: UTF8.self))
            case .other: break
            }
        }
        // The fields end at a CR; the head ends there only if it is the final CRLF.
        guard index + 2 == count else { return nil }
        let keepAlive = version == .http1_1 ? !close : keepAliveAsked
        return RawRequestHead(
            method: method, target: target, version: version, keepAlive: keepAlive,
            authorization: authorization, cookies: cookies, ifNoneMatch: ifNoneMatch)
    }

    /// The fields that matter here, by name in any case.
    private enum FieldName {
        /// `Content-Length`, `Transfer-Encoding`, `Upgrade`, `Expect`: NIO's decoder must read what follows.
        case bodyOrProtocolChange
        case connection, authorization, cookie, ifNoneMatch, other

        init(_ name: UnsafeRawBufferPointer) {
            if equalsIgnoringCase(name, "content-length") || equalsIgnoringCase(name, "transfer-encoding")
                || equalsIgnoringCase(name, "upgrade") || equalsIgnoringCase(name, "expect")
            {
                self = .bodyOrProtocolChange
            } else if equalsIgnoringCase(name, "connection") {
                self = .connection
            } else if equalsIgnoringCase(name, "authorization") {
                self = .authorization
            } else if equalsIgnoringCase(name, "cookie") {
                self = .cookie
            } else if equalsIgnoringCase(name, "if-none-match") {
                self = .ifNoneMatch
            } else {
                self = .other
            }
        }
    }

    /// The methods read here; NIO's decoder refuses some other tokens, and
    /// `CONNECT` takes another form of target.
    private static let knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    private static let colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")

    /// RFC 9110's tchar: the bytes of a method or a field name.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A field value's bytes: visible ASCII, spaces, tabs and obs-text; no control characters.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= space && byte != 0x7F)
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

/// Whether `bytes` spell `lowercase` in any case; `lowercase` is ASCII letters and `-`.
private func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
    for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] | 0x20 { return false }
    return true
}
