import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one `stat` says of a file, symbolic links followed: its size, when
/// it was last modified, and whether it is a regular file. Foundation's
/// attribute calls on Linux also look up the owner's and group's names,
/// reading the system's account files each time; the paths that run once
/// per asset or per cached file use this instead. Cost: one system call.
package struct FileStatus: Sendable {
    /// Bytes.
    package let size: Int64
    /// The last modification time, to the nanosecond.
    package let modified: Date
    /// False for a folder, link target aside, pipe or device.
    package let isRegularFile: Bool

    /// The status of the file at `path`; nil when there is none (or it cannot be reached).
    package init?(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
    }
}
