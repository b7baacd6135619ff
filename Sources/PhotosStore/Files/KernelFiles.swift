import Foundation

/// Files the kernel writes as they are read (`/proc/self/mountinfo`,
/// `/proc/locks`): they report a size of 0, and Foundation's
/// `FileManager.contents(atPath:)` and `Data(contentsOf:)` on Linux return
/// only their first 4 KiB. A machine with many mounts has a longer
/// mountinfo than that, and the mount a library is on may be past it.
package enum KernelFiles {
    /// The whole of the file at `path`, read to its end; nil when it cannot
    /// be opened or read. Cost: the file's bytes, read in chunks.
    package static func contents(atPath path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.readToEnd() ?? Data()
    }
}
