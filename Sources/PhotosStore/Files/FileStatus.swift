import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What one `stat` says of a file, symbolic links followed: its size, when
/// it was last modified, whether it is a regular file, and its
/// ``Identity``. Foundation's
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
    /// The file as it is now, exactly.
    package let identity: Identity

    /// A file as it is now: which file it is (device and inode) and its
    /// size and modification and status-change times to the nanosecond, so
    /// that any write, rename over it, `chmod` or `touch` changes it. What
    /// was learnt of a file holds while its identity does.
    package struct Identity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        /// Modification and status change, in nanoseconds since 1970.
        let modified: Int128
        let changed: Int128
    }

    /// The status of the file at `path`; nil when there is none (or it cannot be reached).
    package init?(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        identity = Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int128(info.st_mtim.tv_sec) * 1_000_000_000 + Int128(info.st_mtim.tv_nsec),
            changed: Int128(info.st_ctim.tv_sec) * 1_000_000_000 + Int128(info.st_ctim.tv_nsec))
    }
}
