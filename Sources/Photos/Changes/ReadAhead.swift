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
/// `FileStatus.Identity` (device, inode, size and times); a block
/// uses it only while the file is still so, and reads the file itself
/// otherwise, or when the reading is not there. One that is being read is
/// waited for (one file's work); one still waiting is taken back.
///
/// Only still images the library decodes itself are read ahead: videos
/// and camera raw files take processes of their own and are read in their
/// blocks. Bounded: at most 1,024 files wait, and readings not taken hold
/// at most 64 MiB, the oldest dropped first. One thread reads, niced below
/// requests, so that reading ahead takes only time no request wants.
package final class ReadAhead: @unchecked Sendable {
    /// The readings of this process: they are of files, whatever library adds them.
    package static let shared = ReadAhead()

    /// The most files waiting to be read.
    let maximumWaiting: Int
    /// The most bytes the readings held may cost.
    let maximumBytes: Int
    /// What an entry costs besides its thumbnail: its metadata and key.
    private static let entryCost = 1024

    /// A regular file as it is now, nil when there is none: what a reading is kept under.
    private static func identity(of url: URL) -> FileStatus.Identity? {
        FileStatus(atPath: url.path).flatMap { $0.isRegularFile ? $0.identity : nil }
    }

    /// A file to read, and the name its block adds it under.
    private struct Request {
        let url: URL
        let originalFilename: String?
    }

    private let condition = NSCondition()
    /// Files to read, in the order they came; those no longer in
    /// `waitingPaths` were taken back since.
    private var waiting: [Request] = []
    private var waitingPaths: Set<String> = []
    /// The file being read now.
    private var pathBeingRead: String?
    private var readings: [FileStatus.Identity: (reading: FileReading, name: String)] = [:]
    /// The keys of the readings held, oldest first; some were taken since.
    private var held: [FileStatus.Identity] = []
    private var heldBytes = 0
    private var isReading = false
    private var used = 0

    init(maximumWaiting: Int = 1024, maximumBytes: Int = 64 << 20) {
        self.maximumWaiting = maximumWaiting
        self.maximumBytes = maximumBytes
    }

    /// Reads the file at `url` in the background, for a change block that
    /// adds it under `originalFilename` (as `PHAssetResourceCreationOptions`
    /// would name it). Returns at once, touching no file; does nothing
    /// when the file already waits, or too many do.
    package func schedule(fileAt url: URL, originalFilename: String?) {
        condition.withLock {
            guard waiting.count < maximumWaiting, waitingPaths.insert(url.path).inserted else { return }
            waiting.append(Request(url: url, originalFilename: originalFilename))
            guard !isReading else { return }
            isReading = true
            let thread = Thread { [self] in readWaiting() }
            thread.name = "photos.read-ahead"
            thread.start()
        }
    }

    /// The reading of the file a change block is about to stage, if one
    /// was made of it as it is now and under the same name. Waits for one
    /// being made; takes back a file still waiting, which the block reads.
    func take(_ source: PHAssetChangeRequest.PendingResource.Source, originalName: String) -> FileReading? {
        guard case .file(let url) = source else { return nil }
        condition.lock()
        defer { condition.unlock() }
        if waitingPaths.remove(url.path) != nil { return nil }
        while pathBeingRead == url.path { condition.wait() }
        guard let identity = Self.identity(of: url), let held = readings.removeValue(forKey: identity) else { return nil }
        heldBytes -= Self.cost(of: held.reading)
        guard held.name == originalName else { return nil }
        used += 1
        return held.reading
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
        guard let identity = Self.identity(of: url) else { return false }
        return condition.withLock { readings[identity] != nil }
    }

    /// The reading thread: reads what waits, one file at a time, then ends.
    private func readWaiting() {
        // On Linux a nice value is the calling thread's own.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        while let request = nextWaiting() {
            let read = Self.read(request)
            condition.withLock {
                pathBeingRead = nil
                if let (identity, reading, name) = read {
                    if let replaced = readings.updateValue((reading, name), forKey: identity) {
                        heldBytes -= Self.cost(of: replaced.reading)
                    }
                    held.append(identity)
                    heldBytes += Self.cost(of: reading)
                    dropOldest()
                }
                condition.broadcast()
            }
        }
    }

    /// The next file still waiting, noted as being read; nil (and the
    /// thread's end noted) when none is.
    private func nextWaiting() -> Request? {
        condition.withLock {
            while !waiting.isEmpty {
                let request = waiting.removeFirst()
                if waitingPaths.remove(request.url.path) != nil {
                    pathBeingRead = request.url.path
                    return request
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
            if let dropped = readings.removeValue(forKey: held.removeFirst()) {
                heldBytes -= Self.cost(of: dropped.reading)
            }
        }
        // Readings taken leave their keys behind; they go once they outnumber the rest.
        if held.count > 2 * readings.count + 64 {
            held.removeAll { readings[$0] == nil }
        }
    }

    /// The file read as a change block reads the image it shows, with the
    /// file as it was and the name it was read under, if it is an image the
    /// library decodes itself and did not change meanwhile; nil otherwise,
    /// and when it cannot be read (its block then says why).
    private static func read(_ request: Request) -> (FileStatus.Identity, FileReading, String)? {
        struct NotReadAhead: Error {}
        let url = request.url
        guard let name = NewAssetPreparation.knownName(originalFilename: request.originalFilename, fileURL: url),
            UniformType.forCameraRaw(NewAssetPreparation.storedExtension(of: url, originalFilename: request.originalFilename)) == nil,
            let identity = Self.identity(of: url),
            let reading = try? FileReading.read(
                fileAt: url, originalName: name, expected: .image, needs: [.shown, .primary],
                keepPoster: { _ in throw NotReadAhead() }),
            let metadata = reading.metadata, FileReading.isReadDirectly(metadata),
            Self.identity(of: url) == identity
        else { return nil }
        return (identity, reading, name)
    }

    private static func cost(of reading: FileReading) -> Int {
        entryCost + (reading.thumbnail?.count ?? 0) + (reading.thumbHash?.count ?? 0)
    }
}
