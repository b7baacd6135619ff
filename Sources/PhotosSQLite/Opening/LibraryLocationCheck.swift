import Foundation
import PhotosStore

/// Decides whether a directory is a safe home for a library. SQLite's WAL
/// mode needs shared memory and POSIX locks that behave; network and FUSE
/// file systems break them, and sync clients copy a database file mid-write.
package enum LibraryLocationCheck {
    /// File system types, as /proc/self/mountinfo names them, whose locks
    /// cannot be trusted. FUSE types ("fuse.sshfs", "fuse.rclone"...) match by prefix.
    private static let unsafeFileSystems: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "coda", "afs", "ncpfs", "gfs2", "glusterfs",
        "fuseblk", "sshfs", "davfs", "virtiofs",
    ]

    /// Files or folders a sync client leaves at the root of the folder it
    /// manages; for a folder that is a marker only with a given file in it, that file.
    private static let syncClientMarkers: [(name: String, inside: String?, client: String)] = [
        (".dropbox", nil, "Dropbox"), (".dropbox.cache", nil, "Dropbox"),
        (".stfolder", nil, "Syncthing"), (".stignore", nil, "Syncthing"),
        (".nextcloudsync.log", nil, "Nextcloud"), (".owncloudsync.log", nil, "ownCloud"),
        (".sync", "ID", "Resilio Sync"), (".megaignore", nil, "MEGA"),
    ]

    /// Why `directory` is unsafe for a library, or nil when it is safe.
    /// The directory need not exist yet: its nearest existing ancestor is checked.
    package static func problem(with directory: URL) -> String? {
        var current = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" {
            current.deleteLastPathComponent()
        }
        if let fileSystem = fileSystemName(at: current.path) {
            return "is on a \(fileSystem) file system"
        }
        var ancestor = current
        while true {
            if let client = syncClient(at: ancestor) {
                return "is inside a folder that \(client) synchronises (\(ancestor.path))"
            }
            if ancestor.path == "/" { return nil }
            ancestor.deleteLastPathComponent()
        }
    }

    private static func fileSystemName(at path: String) -> String? {
        guard let type = mountedFileSystemType(containing: path) else { return nil }
        return unsafeFileSystems.contains(type) || type == "fuse" || type.hasPrefix("fuse.") ? type : nil
    }

    /// The type of the file system mounted at the longest mount point that
    /// contains `path` (symbolic links resolved).
    ///
    /// The table is split as bytes: split as characters (grapheme
    /// clusters), it took most of the time of opening a warm library.
    static func mountedFileSystemType(containing path: String) -> String? {
        guard let table = KernelFiles.contents(atPath: "/proc/self/mountinfo") else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (mountPoint: String, type: String)?
        for line in table.split(separator: UInt8(ascii: "\n")) {
            // id parent major:minor root mount-point options [optional...] - type source super-options
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count > 6, let separator = fields.firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }),
                separator + 1 < fields.count
            else { continue }
            let mountPoint = unescape(String(decoding: fields[4], as: UTF8.self))
            let contains = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if contains, mountPoint.utf8.count >= (best?.mountPoint.utf8.count ?? -1) {
                best = (mountPoint, String(decoding: fields[separator + 1], as: UTF8.self))
            }
        }
        return best?.type
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes.
    private static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        return field.replacingOccurrences(of: "\\040", with: " ").replacingOccurrences(of: "\\011", with: "\t")
            .replacingOccurrences(of: "\\012", with: "\n").replacingOccurrences(of: "\\134", with: "\\")
    }

    /// The sync client whose marker is in `directory`, or nil. Reads the
    /// folder once with `readdir`, looking only at hidden names, where a
    /// `stat` per marker and Foundation's listing (which would build every
    /// name of a large folder, a home or /tmp, as a string) would cost more
    /// on every library opened.
    private static func syncClient(at directory: URL) -> String? {
        guard let folder = opendir(directory.path) else { return nil }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            guard let name = hiddenName(of: entry) else { continue }
            for marker in syncClientMarkers where marker.name == name {
                guard let inside = marker.inside else { return marker.client }
                let path = directory.appendingPathComponent(name).appendingPathComponent(inside).path
                if FileManager.default.fileExists(atPath: path) { return marker.client }
            }
            // Nextcloud and ownCloud keep their journal as .sync_<hash>.db or ._sync_<hash>.db.
            if (name.hasPrefix(".sync_") || name.hasPrefix("._sync_")) && name.hasSuffix(".db") {
                return "Nextcloud or ownCloud"
            }
        }
        return nil
    }

    /// The name of a directory entry when it starts with a dot, else nil.
    ///
    /// The name is read where it lies, up to its NUL. An entry `readdir`
    /// returns is only as long as its name (`d_reclen`), not a whole
    /// `dirent`: copying `entry.pointee` reads the full 256-byte `d_name`,
    /// and faults when the entry ends a buffer at the end of mapped memory.
    static func hiddenName(of entry: UnsafePointer<dirent>) -> String? {
        let name = UnsafeRawPointer(entry).advanced(by: direntNameOffset).assumingMemoryBound(to: CChar.self)
        return name.pointee == CChar(UInt8(ascii: ".")) ? String(cString: name) : nil
    }

    /// Where `d_name` starts in a `dirent`.
    static let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
}
