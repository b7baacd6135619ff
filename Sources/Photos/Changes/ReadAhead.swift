import Foundation
import PhotosMedia
import PhotosStore
#if canImport(Glibc)
import Glibc
#endif

/// Photos read before the change block that adds them. A server that has
/// received a photo knows that a block will soon add it: reading it then
/// (its metadata, content hash and thumbnail, ``FileReading``), on a core
/// the requests leave idle, leaves that block little more than staging and
/// committing. A reading is kept for the file as it was read, named by its
/// device, inode, size and modification and status-change times; a block
/// uses it only while the file is still so, and reads the file itself
/// otherwise, or when the reading is not there. One that is being read is
/// waited for (one file's work); one still waiting is taken back.
///
/// Only still images the library decodes itself are read ahead: videos
/// and camera raw files take processes of their own and are read in
/// their blocks. Bounded: at most 1,024 files wait, and
/// readings not taken hold at most 64 MiB, the oldest dropped
/// first. One thread reads, niced below requests, so that reading ahead
/// takes only time no request wants.
package final class ReadAhead: @unchecked Sendable {
    /// The readings of this process: they are of files, whatever library adds them.
    package static let shared = ReadAhead()

    /// The most files waiting to be read.
    let maximumWaiting: Int
    /// The most bytes the readings held may cost.
    let maximumBytes: Int
    /// What an entry costs besides its thumbnail: its metadata and key.
    private static let entryCost = 1024

    /// A file as it is now: any write, rename over it, `chmod` or `touch` changes it.
    struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec
        let changed: timespec

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
            changed = status.st_ctim
        }

        static func == (a: FileIdentity, b: FileIdentity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(device)
            hasher.combine(inode)
            hasher.combine(size)
            hasher.combine(modified.tv_nsec)
        }
    }

    private enum Entry {
        case waiting(URL, name: String)
        case reading
        case read(FileReading, name: String)
    }

    private let condition = NSCondition()
    private var entries: [FileIdentity: Entry] = [:]
    /// Files to read, in the order they came; some may have been taken back since.
    private var waiting: [FileIdentity] = []
    /// Readings held, oldest first; some may have been taken since.
    private var held: [FileIdentity] = []
    private var heldBytes = 0
    private var isReading = false
    private var used = 0

    init(maximumWaiting: Int = 1024, maximumBytes: Int = 64 << 20) {
        self.maximumWaiting = maximumWaiting
        self.maximumBytes = maximumBytes
    }

    /// Reads the file at `url` in the background, for a change block that
    /// adds it under `originalFilename` (as `PHAssetResourceCreationOptions`
    /// would name it). Returns at once; does nothing when the file is
    /// already read or waiting, or too many wait.
    package func schedule(fileAt url: URL, originalFilename: String?) {
        guard let name = NewAssetPreparation.knownName(originalFilename: originalFilename, fileURL: url),
              UniformType.forCameraRaw(NewAssetPreparation.storedExtension(of: url, originalFilename: originalFilename)) == nil,
              let identity = FileIdentity(path: url.path) else { return }
        condition.lock()
        defer { condition.unlock() }
        guard entries[identity] == nil, waiting.count < maximumWaiting else { return }
        entries[identity] = .waiting(url, name: name)
        waiting.append(identity)
        guard !isReading else { return }
        isReading = true
        let thread = Thread { [self] in readWaiting() }
        thread.name = "photos.read-ahead"
        thread.start()
    }

    /// The reading of the file a change block is about to stage, if one
    /// was made of it as it is now and under the same name. Waits for one
    /// being made.
    func take(_ source: PHAssetChangeRequest.PendingResource.Source, originalName: String) -> FileReading? {
        guard case .file(let url) = source, let identity = FileIdentity(path: url.path) else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch entries[identity] {
            case nil:
                return nil
            case .waiting:
                entries[identity] = nil
                return nil
            case .reading:
                condition.wait()
            case .read(let reading, let name):
                entries[identity] = nil
                heldBytes -= Self.cost(of: reading)
                guard name == originalName else { return nil }
                used += 1
                return reading
            }
        }
    }

    /// Waits until nothing is being read or waits to be.
    package func waitUntilIdle() {
        condition.lock()
        defer { condition.unlock() }
        while isReading { condition.wait() }
    }

    /// How many readings change blocks have used, in all.
    var readingsUsed: Int {
        condition.withLock { used }
    }

    /// Whether a reading of the file as it is now is held, untaken.
    func holdsReading(of url: URL) -> Bool {
        guard let identity = FileIdentity(path: url.path) else { return false }
        return condition.withLock { if case .read = entries[identity] { true } else { false } }
    }

    /// The reading thread: reads what waits, one file at a time, then ends.
    private func readWaiting() {
        // On Linux a nice value is the calling thread's own.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        while let (identity, url, name) = nextWaiting() {
            let reading = Self.read(url, name: name, identity: identity)
            condition.withLock {
                if let reading {
                    entries[identity] = .read(reading, name: name)
                    held.append(identity)
                    heldBytes += Self.cost(of: reading)
                    dropOldest()
                } else {
                    entries[identity] = nil
                }
                condition.broadcast()
            }
        }
    }

    /// The next file still waiting, marked as being read; nil (and the
    /// thread's end noted) when none is.
    private func nextWaiting() -> (FileIdentity, URL, String)? {
        condition.withLock {
            while !waiting.isEmpty {
                let identity = waiting.removeFirst()
                if case .waiting(let url, let name) = entries[identity] {
                    entries[identity] = .reading
                    return (identity, url, name)
                }
            }
            isReading = false
            condition.broadcast()
            return nil
        }
    }

    /// Drops the oldest readings held until they fit.
    private func dropOldest() {
        while heldBytes > maximumBytes, !held.isEmpty {
            let identity = held.removeFirst()
            if case .read(let reading, _) = entries[identity] {
                entries[identity] = nil
                heldBytes -= Self.cost(of: reading)
            }
        }
        // Readings taken leave their keys behind; they go once they outnumber the rest.
        if held.count > 2 * entries.count + 64 {
            held.removeAll { identity in if case .read = entries[identity] { false } else { true } }
        }
    }

    /// The file read as a change block reads the image it shows, if it is
    /// one the library decodes itself and it did not change meanwhile; nil
    /// otherwise, and when it cannot be read (its block then says why).
    private static func read(_ url: URL, name: String, identity: FileIdentity) -> FileReading? {
        struct NotReadAhead: Error {}
        guard let reading = try? FileReading.read(fileAt: url, originalName: name, expected: .image, needs: [.shown, .primary],
                                                  keepPoster: { _ in throw NotReadAhead() }),
              let metadata = reading.metadata, FileReading.isReadDirectly(metadata),
              FileIdentity(path: url.path) == identity else { return nil }
        return reading
    }

    private static func cost(of reading: FileReading) -> Int {
        entryCost + (reading.thumbnail?.count ?? 0) + (reading.thumbHash?.count ?? 0)
    }
}
