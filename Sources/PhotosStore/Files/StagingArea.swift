import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What a staging area's journal lists: the files, and the assets' renditions,
/// whose fate the next commit decides. Whatever the database no longer names
/// after a crash, recovery deletes.
package enum JournalEntry: Sendable, Hashable {
    /// A file, by its path relative to the library's root.
    case file(String)
    /// Every thumbnail and preview of an asset (`derivatives/`): they go
    /// when the asset is gone.
    case renditions(assetUUID: String)

    private static let renditionsPrefix = "renditions-of "

    /// One line of the journal. Stored paths start with `originals/`, so
    /// the two kinds never read alike.
    var line: String {
        switch self {
        case .file(let path): path
        case .renditions(let uuid): Self.renditionsPrefix + uuid
        }
    }

    init(line: String) {
        self = line.hasPrefix(Self.renditionsPrefix) ? .renditions(assetUUID: String(line.dropFirst(Self.renditionsPrefix.count))) : .file(line)
    }
}

/// A file copied (or linked) into a staging area, ready to be placed in the library.
package struct StagedFile: Sendable, Hashable {
    /// Where the staged copy is.
    package let url: URL
    /// The caller's file to delete once the change is committed (a move).
    package let sourceToRemove: URL?
    package let size: Int64
}

/// The files of one change block in flight, under `staging/<uuid>/`.
///
/// A staging area holds an exclusive `flock` for its whole life, so another
/// process can tell an abandoned one (its owner died) from a live one.
/// Before files enter `originals/`, or before rows naming files are deleted,
/// their paths are written to the area's journal. Whatever happens next, a
/// later recovery keeps exactly the journalled files the database names and
/// deletes the others: a crash leaves neither orphans nor dangling rows.
package final class StagingArea: @unchecked Sendable {
    package let directory: URL

    /// Where a block's new derivatives wait for its commit (see `DerivativeCache.stage`).
    package var derivatives: URL { directory.appendingPathComponent("derivatives", isDirectory: true) }
    private let lockDescriptor: Int32
    private var isOpen = true
    /// Files staged so far; locked, since a change block prepares its new assets in parallel.
    private let stagedCount = Mutex(0)

    private static let lockName = "lock"
    private static let journalName = "journal"

    /// Creates and locks a new area in the library's `staging/` folder.
    init(layout: LibraryLayout) throws(StoreError) {
        // The lock is taken before the folder gets its final name, so recovery
        // never sees a live area without its lock.
        let name = UUID().uuidString
        let pending = layout.staging.appendingPathComponent(".\(name)", isDirectory: true)
        directory = layout.staging.appendingPathComponent(name, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem("cannot create a staging folder in \(layout.staging.path): \(error.localizedDescription)")
        }
        let descriptor = open(pending.appendingPathComponent(Self.lockName).path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0,
            rename(pending.path, directory.path) == 0
        else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            try? FileManager.default.removeItem(at: pending)
            throw .fileSystem("cannot lock a staging folder in \(layout.staging.path): \(reason)")
        }
        lockDescriptor = descriptor
    }

    deinit {
        discard()
    }

    /// Copies the file into the staging area, or hard-links it when `move` is
    /// set and the file system allows (the source is then deleted after commit).
    /// Stages a file, under `pathExtension` (the source's own by default):
    /// the library stores it under that extension.
    package func stage(fileAt source: URL, move: Bool, pathExtension: String? = nil) throws(StoreError) -> StagedFile {
        let destination = nextURL(pathExtension: pathExtension ?? source.pathExtension)
        if move, link(source.path, destination.path) == 0 {
            // The caller's file may have been written just now: its bytes must
            // be on disk before the source is deleted after the commit.
            do {
                try DurableFiles.synchronize(destination)
            } catch {
                if Self.isOutOfSpace(error) { throw .diskFull(path: directory.path) }
                throw .fileSystem(error.localizedDescription)
            }
            return StagedFile(url: destination, sourceToRemove: source, size: Self.size(of: destination))
        }
        do {
            try FileManager.default.copyItem(at: source, to: destination)
            try DurableFiles.synchronize(destination)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            if Self.isOutOfSpace(error) { throw .diskFull(path: directory.path) }
            throw .invalidFile(path: source.path, reason: "cannot be copied into the library: \(error.localizedDescription)")
        }
        return StagedFile(url: destination, sourceToRemove: move ? source : nil, size: Self.size(of: destination))
    }

    /// Writes data into the staging area as a file.
    package func stage(data: Data, pathExtension: String) throws(StoreError) -> StagedFile {
        let destination = nextURL(pathExtension: pathExtension)
        do {
            try data.write(to: destination)
            try DurableFiles.synchronize(destination)
        } catch {
            if Self.isOutOfSpace(error) { throw .diskFull(path: directory.path) }
            throw .fileSystem("cannot write into \(directory.path): \(error.localizedDescription)")
        }
        return StagedFile(url: destination, sourceToRemove: nil, size: Int64(data.count))
    }

    /// Whether a write failed for want of space (the disk or a quota), as
    /// Foundation reports it or as the system error beneath.
    static func isOutOfSpace(_ error: any Error) -> Bool {
        if let cocoa = error as? CocoaError, cocoa.code == .fileWriteOutOfSpace { return true }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain, error.code == Int(ENOSPC) || error.code == Int(EDQUOT) { return true }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map(isOutOfSpace) ?? false
    }

    /// Records, durably, the files and renditions whose fate the next
    /// commit decides: the journal (written whole or not at all, so that a
    /// torn line never names another path), its entry in the area and the
    /// area's entry in `staging/` all reach the disk, so recovery finds it
    /// after a power cut too.
    package func recordJournal(_ entries: [JournalEntry]) throws(StoreError) {
        let journal = directory.appendingPathComponent(Self.journalName)
        do {
            try DurableFiles.write(Data(entries.map(\.line).joined(separator: "\n").utf8), to: journal)
            try DurableFiles.synchronize(directory.deletingLastPathComponent())
        } catch {
            throw .fileSystem("cannot write the staging journal: \(error.localizedDescription)")
        }
    }

    /// Deletes the staging area and releases its lock. Safe to call twice.
    package func discard() {
        guard isOpen else { return }
        isOpen = false
        try? FileManager.default.removeItem(at: directory)
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    /// The next free name in the area, with the extension when it is a safe
    /// one (`FileName.safeExtension`): it becomes part of the stored path.
    private func nextURL(pathExtension: String) -> URL {
        let number = stagedCount.withLock { count in
            count += 1
            return count
        }
        let name = FileName.safeExtension(pathExtension).map { "\(number).\($0)" } ?? "\(number)"
        return directory.appendingPathComponent(name)
    }

    /// Whether processes that died mid-change left staging areas behind.
    /// Cost: a listing of `staging/` and a lock attempt per area in it.
    static func hasAbandoned(layout: LibraryLayout) -> Bool {
        candidates(layout).contains { area in withAbandoned(area) { true } ?? false }
    }

    /// Cleans up the staging areas of processes that died mid-change:
    /// journalled files the database does not name are deleted, and the
    /// renditions of journalled assets it no longer has.
    package static func recoverAbandoned(
        layout: LibraryLayout, isReferenced: (JournalEntry) throws -> Bool,
        remove: (JournalEntry) -> Void
    ) rethrows {
        for area in candidates(layout) {
            try withAbandoned(area) {
                try recover(area, isReferenced: isReferenced, remove: remove)
            }
        }
    }

    /// The areas in `staging/` that may be abandoned: named ones, and
    /// those still under a temporary name long enough to be stale.
    private static func candidates(_ layout: LibraryLayout) -> [URL] {
        let areas = (try? FileManager.default.contentsOfDirectory(at: layout.staging, includingPropertiesForKeys: nil)) ?? []
        return areas.filter { !$0.lastPathComponent.hasPrefix(".") || isStale($0) }
    }

    /// Runs `body` holding the area's lock when no live process holds it;
    /// nil when one does.
    private static func withAbandoned<T>(_ area: URL, _ body: () throws -> T) rethrows -> T? {
        let descriptor = open(area.appendingPathComponent(lockName).path, O_RDWR | O_CLOEXEC)
        if descriptor >= 0 {
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                return nil  // a live process owns it
            }
        }
        defer {
            if descriptor >= 0 {
                flock(descriptor, LOCK_UN)
                close(descriptor)
            }
        }
        return try body()
    }

    /// Deletes what an abandoned area's journal lists and the database no
    /// longer names, then the area.
    private static func recover(
        _ area: URL, isReferenced: (JournalEntry) throws -> Bool,
        remove: (JournalEntry) -> Void
    ) rethrows {
        if let journal = try? String(contentsOf: area.appendingPathComponent(journalName), encoding: .utf8) {
            for entry in journal.split(separator: "\n").map({ JournalEntry(line: String($0)) }) where try !isReferenced(entry) {
                remove(entry)
            }
        }
        try? FileManager.default.removeItem(at: area)
    }

    /// A folder still under its temporary name is abandoned once it is old:
    /// a live process renames it within microseconds.
    private static func isStale(_ area: URL) -> Bool {
        FileStatus(atPath: area.path).map { Date().timeIntervalSince($0.modified) > 60 } ?? true
    }

    private static func size(of url: URL) -> Int64 {
        FileStatus(atPath: url.path)?.size ?? 0
    }
}
