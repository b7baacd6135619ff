import Foundation
import PhotosStore
import Synchronization

/// Damage found in a library's database, remembered so that nothing more is
/// written into it.
///
/// Once a read or a write meets a corrupt page, or the write-ahead log is
/// lost under a running writer, every later change block fails, in this
/// process and in any other: the finding is kept in memory and in the marker
/// file `database/DAMAGED`, which each commit looks for. Reading goes on, so
/// that what is still readable can be exported. Only a full check that finds
/// the database whole (`checkIntegrity`) removes the marker.
final class LibraryDamage: Sendable {
    private let marker: URL
    /// The marker's path as text, which every commit looks for: a URL's
    /// path is parsed again at each use.
    private let markerPath: String
    private let finding = Mutex<String?>(nil)
    /// Whether findings are written to the marker: not by a read-only
    /// process, which may meet a page another process is changing.
    private let persists: Bool

    init(layout: LibraryLayout, persists: Bool) {
        marker = layout.databaseDirectory.appendingPathComponent("DAMAGED")
        markerPath = marker.path
        self.persists = persists
    }

    /// What was found, here or by another process; nil while none was.
    /// Cost: one `stat` when nothing was found in this process.
    var reason: String? {
        if let found = finding.withLock({ $0 }) { return found }
        guard FileManager.default.fileExists(atPath: markerPath) else { return nil }
        let text = (try? String(contentsOf: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.flatMap { $0.isEmpty ? nil : $0 } ?? "an earlier process found the database damaged"
    }

    /// Records a finding; the first one stands. The marker is written on a
    /// best-effort basis (a library on read-only media keeps the finding in
    /// memory), under the lock: a thread that finds the same damage a moment
    /// later returns only once the marker is there for other processes.
    func record(_ reason: String) {
        finding.withLock { current in
            guard current == nil else { return }
            current = reason
            guard persists, !FileManager.default.fileExists(atPath: markerPath) else { return }
            try? DurableFiles.write(Data((reason + "\n").utf8), to: marker)
        }
    }

    /// Forgets the finding, after a full check found the database whole.
    func clear() {
        finding.withLock { $0 = nil }
        if persists { try? FileManager.default.removeItem(at: marker) }
    }
}

/// Which file a path names: its device and inode. A file replaced or
/// deleted and created again under the same name is another file.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `url` now; nil when there is none.
    init?(of url: URL) {
        self.init(atPath: url.path)
    }

    /// The identity of the file at `path` now; nil when there is none.
    init?(atPath path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
