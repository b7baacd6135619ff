import Foundation

/// A new directory in the system's temporary directory, removed with all it
/// holds when the value is released. A suite keeps one as a stored
/// property, so that each test's files go when its suite instance does:
/// a suite that only made a directory left one behind per test, and
/// thousands of them made every listing of /tmp slow.
package final class ScratchDirectory: Sendable {
    /// The directory.
    package let url: URL

    /// Makes a directory named `prefix` and a unique suffix.
    package init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Tests make folders read-only to see writes refused: made writable
        // again first, so that a user without root's rights can remove them.
        if let paths = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in paths {
                chmod(url.appendingPathComponent(path).path, 0o755)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }
}
