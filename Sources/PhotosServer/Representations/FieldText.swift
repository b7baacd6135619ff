extension StringProtocol where SubSequence == Substring {
    /// The text without the spaces and tabs HTTP allows around a field
    /// value or list element (RFC 9110's OWS). Looks at bytes only, so it
    /// costs far less than Foundation's `trimmingCharacters` or a walk by
    /// characters, which matters on paths every request takes.
    func trimmingOptionalWhitespace() -> Substring {
        let text = self[...]
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = text.utf8.firstIndex(where: { !isBlank($0) }),
            let last = text.utf8.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return Substring(text.utf8[first...last])
    }
}
