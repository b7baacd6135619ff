extension StringProtocol where SubSequence == Substring {
    /// The text without the spaces and tabs HTTP allows around a field
    /// value or list element (RFC 9110's OWS). Looks at Unicode scalars
    /// only, so it costs far less than Foundation's `trimmingCharacters`,
    /// which matters on paths every request takes.
    func trimmingOptionalWhitespace() -> Substring {
        var text = self[...]
        while let first = text.unicodeScalars.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.unicodeScalars.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
