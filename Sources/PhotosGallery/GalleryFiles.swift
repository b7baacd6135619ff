import Foundation

/// The web gallery's files (`Web/`: a page, a style sheet and JavaScript
/// modules), read once from the module's resources and kept in memory,
/// each with the type and validator it is served with.
///
/// The gallery is a client of the server's public HTTP API like any other;
/// this module only carries its files, so the server can serve them
/// without knowing what is in them.
public struct GalleryFiles: Sendable {
    /// One file of the gallery.
    public struct File: Sendable {
        /// Its name in `Web/`, such as `timeline.js`.
        public let name: String
        /// Its bytes.
        public let bytes: [UInt8]
        /// Its `Content-Type`.
        public let contentType: String
        /// A strong ETag from its bytes, so a browser revalidates cheaply.
        public let etag: String
    }

    private let files: [String: File]

    /// The files bundled with this build. Cost: reads the folder (tens of
    /// kilobytes) on first use; free afterwards.
    public static let bundled = GalleryFiles(directory: Bundle.module.resourceURL?.appendingPathComponent("Web"))

    /// The gallery's files in `directory`, one level deep; empty when there is none.
    public init(directory: URL?) {
        var files: [String: File] = [:]
        let names = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names {
            guard let directory, let contentType = Self.contentType(of: name),
                let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
            else { continue }
            let bytes = [UInt8](data)
            files[name] = File(name: name, bytes: bytes, contentType: contentType, etag: "\"\(Self.fingerprint(bytes))\"")
        }
        self.files = files
    }

    /// The file called `name`, or nil: names are looked up, never used as paths.
    public func file(named name: String) -> File? {
        files[name]
    }

    /// Every file's name.
    public var names: [String] { files.keys.sorted() }

    private static func contentType(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: nil
        }
    }

    /// FNV-1a, 64 bits: a validator, not a defence.
    private static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
