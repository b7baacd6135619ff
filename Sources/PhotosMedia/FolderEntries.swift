import Foundation

/// What a folder of photos holds besides photos and videos, known by name
/// alone: sidecars that describe a photo beside them, the thumbnails and
/// system files that NAS boxes, cameras and operating systems leave, and
/// documents. A folder import leaves them out, saying which they are,
/// instead of reading each and counting it a failure: "could not be read"
/// then means a photo or video that was lost. Cost: none (names only).
package enum FolderEntries {
    /// Why an entry is left out.
    package enum Kind: String, Sendable {
        /// Metadata for the photo or video beside it (`.xmp`, `.aae`, Google Takeout's `.json`, a camera's `.thm`).
        case sidecar
        /// Not a photo or video: a thumbnail folder, a system file, a document.
        case notMedia
    }

    /// Folders that hold copies or trash, not photos: Synology's thumbnail
    /// folders (which would bring every photo in three to five times more)
    /// and recycle bins.
    private static let folders: [String: String] = [
        "@eaDir": "a Synology thumbnail folder",
        "#recycle": "a Synology recycle bin",
        "$RECYCLE.BIN": "a Windows recycle bin",
        "System Volume Information": "a Windows system folder",
    ]

    private static let systemFiles: Set<String> = ["thumbs.db", "ehthumbs.db", "desktop.ini", "icon\r"]

    private static let sidecarExtensions: Set<String> = ["xmp", "aae", "json", "thm"]

    private static let documentExtensions: [String: String] = [
        "pdf": "a PDF document", "svg": "an SVG drawing", "svgz": "an SVG drawing", "eps": "a PostScript document",
        "ps": "a PostScript document", "ai": "an Illustrator document", "txt": "a text file", "htm": "a web page",
        "html": "a web page", "doc": "a document", "docx": "a document", "db": "a database",
    ]

    /// Why the entry named `name` is left out, or nil to read it.
    package static func exclusion(name: String, isFolder: Bool) -> (kind: Kind, reason: String)? {
        if isFolder {
            return folders[name].map { (.notMedia, $0) }
        }
        if systemFiles.contains(name.lowercased()) { return (.notMedia, "a system file") }
        let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
        if sidecarExtensions.contains(ext) { return (.sidecar, "a sidecar, describing the photo or video beside it") }
        if let document = documentExtensions[ext] { return (.notMedia, "\(document), not a photo or video") }
        return nil
    }

    /// What the first bytes of a file say it is when that is a document
    /// rather than an image (libvips would render a PDF or an SVG as one),
    /// whatever the file's name.
    package static func document(head: Data) -> String? {
        let text = String(decoding: head.prefix(256), as: UTF8.self).lowercased()
        if text.hasPrefix("%pdf") { return "a PDF document" }
        if text.hasPrefix("%!ps") { return "a PostScript document" }
        if text.contains("<svg") { return "an SVG drawing" }
        return nil
    }
}
