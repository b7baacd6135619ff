import Foundation

/// Where a library keeps its parts on disk.
///
///     Photos Library.photoslibrary/
///       VERSION                 library format version
///       database/Photos.sqlite  SQLite in WAL mode
///       originals/X/UUID.ext    the files assets were created from
///       derivatives/            thumbnails and previews
///       staging/                files of change blocks in flight
package struct LibraryLayout: Sendable {
    package let root: URL
    /// The staging folder's name under `staging/` when several machines
    /// share the directory: each recovers only its own (see ``staging``).
    package let machine: String?

    /// The layout of the library directory at `root`; `machine` names this
    /// machine's own staging folder when the directory is shared.
    package init(root: URL, machine: String? = nil) {
        self.root = root.standardizedFileURL
        self.machine = machine
    }

    package var versionFile: URL { root.appendingPathComponent("VERSION") }
    package var databaseDirectory: URL { root.appendingPathComponent("database", isDirectory: true) }
    package var databaseFile: URL { databaseDirectory.appendingPathComponent("Photos.sqlite") }
    package var originals: URL { root.appendingPathComponent("originals", isDirectory: true) }
    package var derivatives: URL { root.appendingPathComponent("derivatives", isDirectory: true) }
    /// Where this process's change blocks stage their files: `staging/`, or
    /// `staging/MACHINE/` in a directory several machines share, since a
    /// lock that tells a live staging area from an abandoned one is seen
    /// only on the machine that holds it.
    package var staging: URL {
        let shared = root.appendingPathComponent("staging", isDirectory: true)
        return machine.map { shared.appendingPathComponent($0, isDirectory: true) } ?? shared
    }

    /// The URL of a file the database names by its path relative to the
    /// root; nil for any path but the shape the library writes,
    /// `originals/X/NAME` (see `originalRelativePath`), so that a damaged or
    /// forged row can make the library read or delete no other file, nor a
    /// folder.
    package func url(forRelativePath path: String) -> URL? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "originals", parts[1].count == 1,
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") })
        else { return nil }
        return root.appendingPathComponent(path)
    }

    /// Where an original of an asset is stored: `originals/X/UUID[_n].ext`,
    /// sharded by the first character of the UUID.
    package func originalRelativePath(assetUUID: String, index: Int, pathExtension: String) -> String {
        let name = index == 0 ? assetUUID : "\(assetUUID)_\(index)"
        let ext = pathExtension.isEmpty ? "" : "." + pathExtension.lowercased()
        return "originals/\(assetUUID.prefix(1))/\(name)\(ext)"
    }

    /// Where a file of an edit of an asset is stored: next to its originals,
    /// under a name no earlier edit used.
    package func editRelativePath(assetUUID: String, pathExtension: String) -> String {
        let ext = pathExtension.isEmpty ? "" : "." + pathExtension.lowercased()
        return "originals/\(assetUUID.prefix(1))/\(assetUUID)_edit_\(UUID().uuidString.prefix(8))\(ext)"
    }

    /// The paths, relative to the root, of the regular files under a
    /// folder of the library, sorted. Cost: a walk of the folder.
    package func relativeFilePaths(under folder: URL) -> [String] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let prefix = root.path + "/"
        var paths: [String] = []
        for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let path = url.standardizedFileURL.path
            paths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return paths.sorted()
    }
}
