import Foundation
import PhotosMedia
import PhotosStore

/// Rendered images in memory, least recently used first out, bounded by
/// the bytes of their pixels. Keys name the asset's content version, so an
/// edit never serves an older rendering.
final class RenderedImageCache: @unchecked Sendable {
    /// What was rendered: which asset version, from what, at what spec.
    struct Key: Hashable {
        var assetUUID: String
        var contentVersion: Int
        /// `PHImageRequestOptionsVersion` raw value.
        var version: Int
        /// The derivative rendered from; nil for the full-size image.
        var rendition: DerivativeCache.Kind?
        var spec: RenderSpec
        /// Whether it is a degraded stand-in rather than the image asked for.
        var degraded: Bool
    }

    private let byteLimit: Int
    private let lock = NSLock()
    private var entries: [Key: (image: UIImage, stamp: UInt64)] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    func image(for key: Key) -> UIImage? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.image, clock)
            return entry.image
        }
    }

    func store(_ image: UIImage, for key: Key) {
        let size = image.pixels.width * image.pixels.height * 4
        guard size <= byteLimit / 4 else { return }  // a full-size photo would push everything else out
        lock.withLock {
            clock += 1
            if let old = entries.updateValue((image, clock), forKey: key) {
                bytes -= old.image.pixels.width * old.image.pixels.height * 4
            }
            bytes += size
            guard bytes > byteLimit else { return }
            // Drop the least recently used until a quarter of the room is free again.
            for (key, entry) in entries.sorted(by: { $0.value.stamp < $1.value.stamp }) where bytes > byteLimit / 4 * 3 {
                entries[key] = nil
                bytes -= entry.image.pixels.width * entry.image.pixels.height * 4
            }
        }
    }

    func removeAll(where shouldRemove: (Key) -> Bool) {
        lock.withLock {
            for (key, entry) in entries where shouldRemove(key) {
                entries[key] = nil
                bytes -= entry.image.pixels.width * entry.image.pixels.height * 4
            }
        }
    }
}
