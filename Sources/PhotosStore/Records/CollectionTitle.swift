/// The titles of albums and folders (and the labels of access tokens), as
/// the library takes them: text a person reads, bounded so that no title
/// costs more than a title should to store, compare or match.
package enum CollectionTitle {
    /// The most UTF-8 bytes a title may have: about a thousand Latin
    /// letters, or 340 characters of Chinese or Japanese.
    package static let maximumBytes = 1024

    /// Refuses a title longer than ``maximumBytes`` or holding a control
    /// character (a NUL, a newline, a terminal escape, Unicode's
    /// bidirectional overrides: what `FileName` takes out of file names),
    /// saying which. `what` names it in the message ("an album's title").
    package static func check(_ title: String, as what: String) throws(StoreError) {
        guard title.utf8.count <= maximumBytes else {
            throw .editNotAllowed("\(what) is \(title.utf8.count) bytes of UTF-8; at most \(maximumBytes) are taken")
        }
        if let control = title.unicodeScalars.first(where: FileName.isControl) {
            throw .editNotAllowed("\(what) holds the control character U+\(String(control.value, radix: 16, uppercase: true)), which is not taken")
        }
    }
}
