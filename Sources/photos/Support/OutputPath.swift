import Foundation
import Photos

/// Where a command writes what the user asked for: checked before anything
/// is written, so that a careless path replaces nothing it should not.
///
/// Refused: an empty path, a target that is not a regular file (a device,
/// a FIFO, a socket, a folder) or is a symbolic link, anything inside the
/// library (its originals are not to be overwritten), a read-only file, and
/// an existing file unless the command was given `--force`.
enum OutputPath {
    /// Checks a file the command is about to write.
    static func checkFile(_ path: String, library: PHPhotoLibrary, replacing force: Bool) throws -> URL {
        guard !path.isEmpty else { throw CLIError.user("the output path is empty") }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError.user("cannot write \(path): there is no folder \(folder.path)")
        }
        try refuseInside(library, folder, describing: path)
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return url }  // nothing there yet
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard status.st_mode & 0o222 != 0, access(url.path, W_OK) == 0 else {
                throw CLIError.user("\(path) is read-only; it was left as it is")
            }
            guard force else { throw CLIError.user("\(path) exists; --force replaces it") }
            return url
        case S_IFLNK: throw CLIError.user("\(path) is a symbolic link; write to the file itself or choose another name")
        case S_IFDIR: throw CLIError.user("\(path) is a folder, not a file")
        default: throw CLIError.user("\(path) is not a regular file (a device, a pipe or a socket); it was left as it is")
        }
    }

    /// Checks a folder the command is about to fill, and creates it when missing.
    static func prepareFolder(_ path: String, library: PHPhotoLibrary) throws -> URL {
        guard !path.isEmpty else { throw CLIError.user("the folder to write into is empty; name one") }
        let url = URL(fileURLWithPath: path, isDirectory: true)
        try refuseInside(library, url, describing: path)
        var status = stat()
        if lstat(url.path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR
            && !(status.st_mode & S_IFMT == S_IFLNK && (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true)
        {
            throw CLIError.user("\(path) is not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CLIError.user("cannot create \(path): \(error.localizedDescription)")
        }
        return url
    }

    /// A name for a file the command writes into a folder: `name` when it
    /// is one safe path component, else `fallback`; then "name 2", "name 3"...
    /// while a file (or link) of that name is there.
    static func freeName(_ name: String, fallback: String, in folder: URL) -> URL {
        let isSafe =
            !name.isEmpty && name != "." && name != ".." && !name.contains("/") && name.utf8.count <= 255
            && name == Output.escaped(name)
        let chosen = isSafe ? name : fallback
        let base = (chosen as NSString).deletingPathExtension
        let ext = (chosen as NSString).pathExtension
        var candidate = folder.appendingPathComponent(chosen)
        var number = 2
        var status = stat()
        while lstat(candidate.path, &status) == 0 {
            candidate = folder.appendingPathComponent("\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)"))
            number += 1
        }
        return candidate
    }

    /// Refuses a destination inside the library, symbolic links resolved.
    private static func refuseInside(_ library: PHPhotoLibrary, _ url: URL, describing path: String) throws {
        let root = library.filesDirectory.resolvingSymlinksInPath().standardizedFileURL.path
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        let resolved = rest.reduce(existing.resolvingSymlinksInPath().standardizedFileURL) { $0.appendingPathComponent($1) }.path
        if resolved == root || resolved.hasPrefix(root + "/") {
            throw CLIError.user("\(path) is inside the library; choose a place outside \(library.locationDescription)")
        }
    }
}
