import Foundation

/// A small tmpfs that full-disk tests fill up. Mounting needs root (or
/// CAP_SYS_ADMIN): tests that need one are enabled only if ``canMount``.
package enum SmallDisk {
    /// Whether this process may mount one: tried once, on a scratch directory.
    package static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("photos-mount-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? mount(at: probe, size: "1m")) != nil else { return false }
        unmount(probe)
        return true
    }()

    package struct MountFailed: Error {}

    package static func mount(at mountPoint: URL, size: String) throws {
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint.path]) == 0 else { throw MountFailed() }
    }

    /// Unmounts, detaching the file system lazily if something still has it
    /// open (the test then fails, naming the files), so that the test's
    /// folder can be removed either way.
    package static func unmount(_ mountPoint: URL) {
        if run("/bin/umount", [mountPoint.path]) != 0 {
            _ = run("/bin/umount", ["-l", mountPoint.path])
        }
    }

    /// The paths under `folder` this process has open, from `/proc/self/fd`.
    package static func openFiles(under folder: URL) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(folder.path + "/") }
            .sorted()
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
