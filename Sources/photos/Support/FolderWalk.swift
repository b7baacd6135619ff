import Foundation
import PhotosMedia

/// The files `photos import` is given, folders expanded recursively.
///
/// Names are bytes to the file system, and this walk reads them as bytes:
/// a name that is not UTF-8 (Latin-1 from an old Windows zip or a FAT card)
/// and a path longer than the system's PATH_MAX are reached through a
/// symbolic link, in a temporary folder of this walk's, whose path is short
/// and UTF-8, so that every later step (the probe, the copy, libvips,
/// ffmpeg) opens it like any other. Such a file is shown, and keeps its
/// name, as a person reads it: the name decoded as Latin-1.
final class FolderWalk {
    /// Where the links live; made on first need, removed by ``removeLinks()``.
    private let links = FileManager.default.temporaryDirectory.appendingPathComponent("photos-import-\(UUID().uuidString)")
    private var linkCount = 0
    private var found = ImportCommand.Found()
    private var visited = Set<FileIdentityKey>()

    /// A folder path longer than this is reached through a link before its
    /// entries are: its children's paths then stay far below PATH_MAX (4,096).
    private static let longestFolderPath = 2_048

    /// A file's device and inode: a folder reached twice (through a link) is walked once.
    private struct FileIdentityKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The files the paths name, folders expanded recursively and symbolic
    /// links followed (to files, and to folders not yet visited, so a loop
    /// ends). Hidden files and folders, pipes, devices, sockets, links to
    /// nothing and folders that cannot be read are left out, each with its
    /// reason. A path given that does not exist is the user's error.
    /// `shown` is how the person names a path given (a folder an archive
    /// was extracted into is named by the archive).
    func files(in paths: [(path: String, shown: String)]) throws -> ImportCommand.Found {
        for (given, shown) in paths {
            var status = stat()
            guard lstat(given, &status) == 0 else { throw CLIError.user("no such file or folder: \(given)") }
            // Absolute, so that a link made to a path below it leads there from anywhere.
            let path = URL(fileURLWithPath: given).path
            visit(path, shown: given == shown ? path : shown, status: status)
        }
        return found
    }

    /// Removes the links the walk made, once the files are imported.
    func removeLinks() {
        try? FileManager.default.removeItem(at: links)
    }

    /// `path` is how the entry is reached, `shown` how the person names it.
    private func visit(_ path: String, shown: String, status linkStatus: stat) {
        var status = linkStatus
        let shownURL = URL(fileURLWithPath: shown)
        if linkStatus.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &status) == 0 else {
                return found.skipped.append(ImportCommand.Skipped(path: shownURL, reason: "a symbolic link to nothing"))
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            let url = URL(fileURLWithPath: path)
            found.files.append(url)
            if path != shown { found.shownPaths[url] = shown }
        case S_IFDIR:
            guard visited.insert(FileIdentityKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else {
                return found.skipped.append(ImportCommand.Skipped(path: shownURL, reason: "a folder already imported here (a symbolic link leads back to it)"))
            }
            var folder = path
            if folder.utf8.count > Self.longestFolderPath {
                guard let link = link(to: Array(folder.utf8), named: shownURL.lastPathComponent) else {
                    return found.skipped.append(ImportCommand.Skipped(path: shownURL, reason: "the folder's path is too long to reach"))
                }
                folder = link
            }
            let names: [[UInt8]]
            do {
                names = try Self.entries(of: folder)
            } catch {
                return found.skipped.append(ImportCommand.Skipped(path: shownURL, reason: "the folder cannot be read: \(error.localizedDescription)"))
            }
            let named = names.map { (bytes: $0, text: Self.readable($0)) }.sorted { $0.text < $1.text }
            for (bytes, name) in named {
                let shownChild = shown.hasSuffix("/") ? shown + name : shown + "/" + name
                let shownChildURL = URL(fileURLWithPath: shownChild)
                if name.hasPrefix(".") {
                    found.skipped.append(ImportCommand.Skipped(path: shownChildURL, reason: "hidden", kind: .hidden))
                    continue
                }
                let child: String
                if String(validating: bytes, as: UTF8.self) != nil {
                    child = folder + "/" + name
                } else if let link = link(to: Array(folder.utf8) + [UInt8(ascii: "/")] + bytes, named: name) {
                    child = link
                } else {
                    found.skipped.append(ImportCommand.Skipped(path: shownChildURL, reason: "its name cannot be reached through a link"))
                    continue
                }
                var childStatus = stat()
                guard lstat(child, &childStatus) == 0 else {
                    found.skipped.append(ImportCommand.Skipped(path: shownChildURL, reason: "it vanished while the folder was read"))
                    continue
                }
                var target = childStatus
                if childStatus.st_mode & S_IFMT == S_IFLNK { _ = stat(child, &target) }
                if let exclusion = FolderEntries.exclusion(name: name, isFolder: target.st_mode & S_IFMT == S_IFDIR) {
                    found.skipped.append(
                        ImportCommand.Skipped(
                            path: shownChildURL, reason: exclusion.reason,
                            kind: exclusion.kind == .sidecar ? .sidecar : .notMedia))
                    continue
                }
                visit(child, shown: shownChild, status: childStatus)
            }
        default:
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFIFO: "a named pipe"
                case S_IFSOCK: "a socket"
                case S_IFCHR, S_IFBLK: "a device"
                default: "not a regular file"
                }
            found.skipped.append(ImportCommand.Skipped(path: shownURL, reason: "\(kind), not a file to import"))
        }
    }

    /// A name as a person reads it: UTF-8, else Latin-1 (which decodes any bytes).
    private static func readable(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(UnicodeScalar($0)) })
    }

    /// The names in a folder, as the bytes the file system holds, without "." and "..".
    private static func entries(of folder: String) throws -> [[UInt8]] {
        guard let directory = opendir(folder) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        return names
    }

    /// A symbolic link named `name`, alone in a new folder under ``links``,
    /// to the path whose bytes are `target`; nil when it cannot be made.
    private func link(to target: [UInt8], named name: String) -> String? {
        linkCount += 1
        let folder = links.appendingPathComponent(String(linkCount))
        let link = folder.appendingPathComponent(name).path
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        let made = (target + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { symlink($0.baseAddress!, link) == 0 }
        }
        return made ? link : nil
    }
}
