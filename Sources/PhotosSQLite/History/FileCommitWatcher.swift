import Foundation
import GRDB
import PhotosStore

#if canImport(Glibc)
import Glibc
#endif

/// SQLite's ``CommitWatcher``: notices change blocks committed, and tokens
/// revoked, by any process and reports the library's ``WatchedState``; notices too when the
/// library stops being usable (its database removed, its write-ahead log
/// deleted under a writer, damage found) and reports that once, then stops.
///
/// A commit appends to the database's write-ahead log, so the watcher waits
/// on inotify for writes to `Photos.sqlite-wal` (and the database file, for
/// checkpoints), and for either being deleted or renamed, then checks the
/// library and reads the last change block's number. Readers only touch
/// `-shm`, which is ignored, so an idle library costs nothing. A poll every
/// `safetyInterval` catches anything inotify could miss (an exhausted watch
/// limit, a file system without it). Runs on its own thread until stopped.
///
/// A commit writes many pages to the log, each an event. So before it
/// reads the database, a check triggered by an event asks SQLite for its
/// `data_version` on a connection of the watcher's own, a number that
/// changes when any other connection commits: while it is the same,
/// nothing has committed, and the check costs a look at the log's index
/// in shared memory instead of a query of the change blocks.
///
/// The watcher never opens SQLite's files itself: the kernel drops every
/// POSIX lock a process holds on a file when the process closes any
/// descriptor of it, and without its locks on `Photos.sqlite-shm` this
/// process would look absent to the others, which may then reset the
/// index under its mapping or checkpoint and delete the log it writes to.
package final class FileCommitWatcher: CommitWatcher, @unchecked Sendable {
    /// How often the watcher checks without an event.
    package static let safetyInterval: Int32 = 2000

    private let store: SQLitePhotoStore
    private let onChange: @Sendable (WatchedState) -> Void
    private let onUnavailable: @Sendable (StoreError) -> Void
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = NSLock()
    private var lastSeen: WatchedState
    private var stopped = false
    /// The watcher's connection, for `data_version`; opened on the
    /// watcher's thread, and again after a failure.
    private var versionReader: DatabaseQueue?
    /// SQLite's `data_version` when the database was last read.
    private var checkedDataVersion: Int64?

    /// Starts watching; `onChange` is called on the watcher's thread with
    /// the library's state each time it is news after `state`,
    /// `onUnavailable` once if the library stops being usable.
    init(
        store: SQLitePhotoStore, after state: WatchedState, onChange: @escaping @Sendable (WatchedState) -> Void,
        onUnavailable: @escaping @Sendable (StoreError) -> Void
    ) throws(StoreError) {
        self.store = store
        self.onChange = onChange
        self.onUnavailable = onUnavailable
        lastSeen = state
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw .fileSystem("cannot create the commit watcher's wake-up pipe") }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        let thread = Thread { [self] in run() }
        thread.name = "photos.commit-watcher"
        thread.start()
    }

    /// The wake-up pipe is closed only once nothing can write to it: the
    /// thread holds the watcher until it ends, and `stop()` is called by
    /// holders of it.
    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Checks for new commits now, without waiting for an event.
    package func check() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Stops the thread. Safe to call twice.
    package func stop() {
        state.lock()
        let wasStopped = stopped
        stopped = true
        state.unlock()
        if !wasStopped { check() }
    }

    private var isStopped: Bool {
        state.lock()
        defer { state.unlock() }
        return stopped
    }

    private func run() {
        let directory = store.layout.databaseDirectory.path
        let database = store.layout.databaseFile.lastPathComponent
        let watched: Set<String> = [database + "-wal", database]
        let notifications = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if notifications >= 0 {
            _ = inotify_add_watch(
                notifications, directory,
                UInt32(
                    IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM
                        | IN_DELETE_SELF | IN_MOVE_SELF))
        }
        defer {
            if notifications >= 0 { close(notifications) }
        }
        // What committed between the caller's read of the state and the watch
        // being set up raised no event: it is found now, not at the first
        // safety poll two seconds on.
        report()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // A commit's last write to the log comes before its sync and the
        // shared index's update, which make it visible: an event that shows
        // no new block yet is followed by checks 1, 2, 4 … 256 ms later.
        var settleDelay: Int32 = 0
        while !isStopped {
            var descriptors = [
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: notifications, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, notifications >= 0 ? 2 : 1, settleDelay > 0 ? settleDelay : Self.safetyInterval)
            var shouldCheck = ready == 0
            // A check asked for, and the safety poll, read the database whatever the log's index says.
            var readsAnyway = ready == 0 && settleDelay == 0
            var written = false
            if descriptors[0].revents != 0 {
                _ = read(wakeRead, &buffer, buffer.count)
                shouldCheck = true
                readsAnyway = true
            }
            if notifications >= 0, descriptors[1].revents != 0, Self.drain(notifications, into: &buffer, touching: watched) {
                shouldCheck = true
                written = true
            }
            guard shouldCheck, !isStopped else { continue }
            if report(readsAnyway: readsAnyway) {
                settleDelay = 0
            } else if written {
                settleDelay = 1
            } else if settleDelay > 0 {
                settleDelay = settleDelay < 256 ? settleDelay * 2 : 0
            }
        }
    }

    /// Reports what changed; true when news was seen. Unless
    /// `readsAnyway`, the database is read only when its `data_version`
    /// changed since it was last read.
    @discardableResult
    private func report(readsAnyway: Bool = true) -> Bool {
        if let problem = store.availabilityProblem() {
            stop()
            onUnavailable(problem)
            return false
        }
        // Read before the database, so that a commit landing in between is seen by the next check.
        let version = dataVersion()
        if !readsAnyway, let version, version == checkedDataVersion { return false }
        checkedDataVersion = version
        guard let latest = try? store.watchedState(), latest.isNews(after: lastSeen) else { return false }
        lastSeen = latest
        onChange(latest)
        return true
    }

    /// SQLite's `data_version` on the watcher's connection, which changes
    /// whenever another connection, of any process, commits
    /// (https://sqlite.org/pragma.html#pragma_data_version); nil when it
    /// cannot be read. Cost: a read transaction on an idle connection,
    /// which reads the log's index from shared memory, and the database's
    /// first page only when something committed.
    private func dataVersion() -> Int64? {
        do {
            if versionReader == nil { versionReader = try store.openReadOnlyConnection() }
            return try versionReader?.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA data_version") }
        } catch {
            versionReader = nil
            return nil
        }
    }

    /// Reads every pending event; true when one concerns a watched file or
    /// the watched folder itself (deleted or moved).
    private static func drain(_ descriptor: Int32, into buffer: inout [UInt8], touching names: Set<String>) -> Bool {
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if names.contains(String(decoding: nameBytes, as: UTF8.self))
                    || mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                {
                    relevant = true
                }
                offset += 16 + length
            }
        }
    }
}
