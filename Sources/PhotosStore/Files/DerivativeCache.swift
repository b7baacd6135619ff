import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Renditions of assets' images kept on disk so that requests are served
/// without decoding originals: thumbnails, previews, and the full-size
/// image of files libvips cannot show directly (videos, camera raw files). A cache: a missing or stale rendition is remade from the
/// original, so losing any of them loses nothing.
///
/// Files are named by asset, content version and kind
/// (`derivatives/AB/UUID_v2_thumbnail.jpg`), so an edit, which bumps the
/// version, never gets an older rendition. Each use refreshes the file's
/// modification time; past `byteLimit`, the least recently used files go.
package final class DerivativeCache: @unchecked Sendable {
    /// The renditions kept.
    package enum Kind: String, Sendable, CaseIterable {
        /// Short edge 360 pixels: grid thumbnails up to about 360 points at scale 1.
        case thumbnail
        /// Short edge 1,440 pixels: detail views.
        case preview
        /// The full-size image the others are made from, when the original is
        /// not one: a video's first frame, a camera raw file's embedded JPEG.
        case poster
        /// A video as browsers play it (H.264/AAC MP4), when its original is not.
        case playableVideo
        /// A Live Photo's motion as browsers play it, when its paired video is not.
        case playableMotion

        /// The short edge of an image rendition; nil for full size and videos.
        package var shortEdge: Int? {
            switch self {
            case .thumbnail: 360
            case .preview: 1440
            case .poster, .playableVideo, .playableMotion: nil
            }
        }

        /// The rendition's file extension: its format.
        package var fileExtension: String {
            switch self {
            case .thumbnail, .preview, .poster: "jpg"
            case .playableVideo, .playableMotion: "mp4"
            }
        }
    }

    package let root: URL
    package let byteLimit: Int64
    private let lock = NSLock()
    /// Bytes stored, counted from a scan at the first store and kept up to date since.
    private var storedBytes: Int64?
    private let evictionQueue = DispatchQueue(label: "photos.derivative-eviction", qos: .utility)
    private var evictionPending = false
    private let evicting = NSLock()

    package init(root: URL, byteLimit: Int64 = 2 << 30) {
        self.root = root
        self.byteLimit = byteLimit
    }

    /// Where a rendition lives, whether or not it exists.
    package func url(assetUUID: String, version: Int, kind: Kind) -> URL {
        root.appendingPathComponent(String(assetUUID.prefix(2)), isDirectory: true)
            .appendingPathComponent("\(assetUUID)_v\(version)_\(kind.rawValue).\(kind.fileExtension)")
    }

    /// Stores a rendition another program wrote: `write` is given a
    /// temporary path beside the rendition's, which is renamed into place
    /// once it returns (and removed if it throws), so readers never see
    /// half a file. Cost: what `write` costs, and a rename.
    @discardableResult
    package func store(
        assetUUID: String, version: Int, kind: Kind,
        writtenBy write: (URL) throws -> Void
    ) throws -> URL {
        let url = url(assetUUID: assetUUID, version: version, kind: kind)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).partial.\(kind.fileExtension)")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(temporary)
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        added(FileStatus(atPath: url.path)?.size ?? 0)
        return url
    }

    /// The rendition when it exists, marked as just used. Cost: one system call.
    package func existing(assetUUID: String, version: Int, kind: Kind) -> URL? {
        let url = url(assetUUID: assetUUID, version: version, kind: kind)
        // Setting the times doubles as the existence check.
        return utimes(url.path, nil) == 0 ? url : nil
    }

    /// Stores a rendition and returns where. Written to a temporary name and
    /// renamed, so readers never see half a file, but not synced to disk: a
    /// rendition a crash damages fails to decode and is made again
    /// (`discard`), which costs less than a sync on every thumbnail.
    /// Cost: one small write; an eviction runs in the background when the
    /// cache is over its limit.
    @discardableResult
    package func store(_ jpeg: Data, assetUUID: String, version: Int, kind: Kind) throws(StoreError) -> URL {
        let url = url(assetUUID: assetUUID, version: version, kind: kind)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).partial")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard Self.write(jpeg, to: temporary), rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if StagingArea.isOutOfSpace(error) { throw .diskFull(path: root.path) }
            throw .fileSystem("cannot store a derivative at \(url.path): \(error.localizedDescription)")
        }
        added(Int64(jpeg.count))
        return url
    }

    /// Writes a rendition of an asset that is not committed yet into
    /// `directory` (a change block's staging area) under its final name;
    /// `adopt(from:)` moves it into the cache once the block commits, and a
    /// block that never commits leaves nothing here.
    func stage(_ jpeg: Data, assetUUID: String, version: Int, kind: Kind, in directory: URL) throws(StoreError) -> URL {
        let url = directory.appendingPathComponent(url(assetUUID: assetUUID, version: version, kind: kind).lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            if StagingArea.isOutOfSpace(error) { throw .diskFull(path: directory.path) }
            throw .fileSystem("cannot stage a derivative at \(url.path): \(error.localizedDescription)")
        }
        guard Self.write(jpeg, to: url) else {
            let number = errno
            if number == ENOSPC || number == EDQUOT { throw .diskFull(path: directory.path) }
            throw .fileSystem("cannot stage a derivative at \(url.path): \(String(cString: strerror(number)))")
        }
        return url
    }

    /// Moves the renditions `stage` wrote in `directory` into the cache,
    /// but those of `excludedAssets` (not created after all), which are
    /// deleted. One that cannot be moved is left to be made again on first use.
    func adopt(from directory: URL, excluding excludedAssets: Set<String> = []) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names {
            guard !excludedAssets.contains(String(name.prefix(36))) else {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                continue
            }
            let destination = root.appendingPathComponent(String(name.prefix(2)), isDirectory: true).appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let source = directory.appendingPathComponent(name).path
            let size = FileStatus(atPath: source)?.size ?? 0
            if rename(source, destination.path) == 0 {
                added(size)
            }
        }
    }

    /// Writes a new file with plain POSIX calls: Foundation's writes sync.
    private static func write(_ data: Data, to url: URL) -> Bool {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return close(descriptor) == 0 && written
    }

    /// Removes a rendition that could not be read, so that it is made again.
    package func discard(_ url: URL) {
        removeFile(url)
    }

    /// Removes every rendition of an asset but those of `version` (all of
    /// them when nil): after an edit, or when the asset is gone.
    package func removeRenditions(assetUUID: String, keeping version: Int? = nil) {
        let folder = root.appendingPathComponent(String(assetUUID.prefix(2)), isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let kept = version.map { "\(assetUUID)_v\($0)_" }
        for name in names where name.hasPrefix(assetUUID + "_") && !(kept.map(name.hasPrefix) ?? false) {
            removeFile(folder.appendingPathComponent(name))
        }
    }

    /// Deletes the least recently used renditions until the cache holds at
    /// most 90% of its limit; a file's last use is its modification time,
    /// which each use refreshes. Cost: a scan of the cache folder, one
    /// `stat` per file.
    package func evict() {
        // One eviction at a time: the background one a store starts and one called directly would each count the other's deletions.
        evicting.withLock {
            var files: [(path: String, size: Int64, used: Date)] = []
            // The renditions sit one folder down (`AB/UUID_v0_thumbnail.jpg`).
            for folder in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
                let folderPath = root.path + "/" + folder
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? [] {
                    let path = folderPath + "/" + name
                    guard let status = FileStatus(atPath: path), status.isRegularFile else { continue }
                    // A temporary file being written is not evicted under its writer; one a crash left is, after an hour.
                    if name.hasPrefix("."), status.modified > Date(timeIntervalSinceNow: -3600) { continue }
                    files.append((path, status.size, status.modified))
                }
            }
            var total = files.reduce(0) { $0 + $1.size }
            let goal = byteLimit / 10 * 9
            for file in files.sorted(by: { $0.used < $1.used }) where total > goal {
                // A file already gone (discarded meanwhile) no longer counts either.
                if unlink(file.path) == 0 || errno == ENOENT { total -= file.size }
            }
            lock.withLock { storedBytes = total }
        }
    }

    private func removeFile(_ url: URL) {
        let size = FileStatus(atPath: url.path)?.size ?? 0
        if unlink(url.path) == 0 {
            added(-size)
        }
    }

    private func added(_ bytes: Int64) {
        let overLimit = lock.withLock { () -> Bool in
            if let stored = storedBytes {
                storedBytes = stored + bytes
            }
            guard !evictionPending, storedBytes.map({ $0 > byteLimit }) ?? true else { return false }
            evictionPending = true
            return true
        }
        guard overLimit else { return }
        evictionQueue.async { [self] in
            // The first store of a process counts what is there; later ones scan only when over the limit.
            if lock.withLock({ storedBytes.map { $0 > byteLimit } ?? true }) { evict() }
            lock.withLock { evictionPending = false }
        }
    }
}
