import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Makes what the library writes to the file system survive a power cut or
/// an OS crash, not only a process crash: a file's bytes reach the disk with
/// `fsync` on the file, and a creation, rename or link reaches it only with
/// `fsync` on the directory whose entries changed. A change block calls
/// these before its database commit, so a block that returned has its files.
///
/// Cost: one `fsync` each, from microseconds on a page cache that needs no
/// flush to a few milliseconds on a disk.
package enum DurableFiles {
    /// Flushes a file's bytes, or a directory's entries, to stable storage.
    package static func synchronize(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path,
                    NSLocalizedDescriptionKey: "cannot open \(url.path) to sync it: \(errorText())",
                ])
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path,
                    NSLocalizedDescriptionKey: "cannot sync \(url.path): \(errorText())",
                ])
        }
    }

    /// Creates a directory and any missing parents, then flushes the entry
    /// of each one created in its parent.
    package static func createDirectory(_ url: URL) throws {
        var missing: [URL] = []
        var candidate = url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: candidate.path), candidate.path != "/" {
            missing.append(candidate)
            candidate = candidate.deletingLastPathComponent()
        }
        guard !missing.isEmpty else { return }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for directory in missing {
            try synchronize(directory.deletingLastPathComponent())
        }
    }

    /// Writes `data` to `url` whole or not at all (a temporary file renamed
    /// over it), flushed with its directory entry.
    package static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            try synchronize(temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: url.path,
                        NSLocalizedDescriptionKey: "cannot replace \(url.path): \(errorText())",
                    ])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try synchronize(url.deletingLastPathComponent())
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
