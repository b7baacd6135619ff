import Foundation
import Testing

@testable import PhotosStore

@Suite struct DerivativeCacheTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("derivatives-\(UUID().uuidString)")

    /// Stores a rendition of `size` bytes last used `age` seconds ago.
    private func store(_ cache: DerivativeCache, size: Int, age: TimeInterval) throws -> URL {
        let url = try cache.store(Data(repeating: 7, count: size), assetUUID: UUID().uuidString, version: 0, kind: .thumbnail)
        let used = Date().addingTimeInterval(-age)
        try FileManager.default.setAttributes([.modificationDate: used], ofItemAtPath: url.path)
        return url
    }

    @Test func evictionDropsTheLeastRecentlyUsedUntilUnderNinetyPercent() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = DerivativeCache(root: root, byteLimit: 10_000)
        // Ten renditions of 1,000 bytes, the first the longest unused.
        let renditions = try (0..<10).map { try store(cache, size: 1_000, age: Double(100 - $0)) }
        cache.evict()
        let kept = renditions.map { FileManager.default.fileExists(atPath: $0.path) }
        #expect(
            kept == Array(repeating: false, count: 1) + Array(repeating: true, count: 9),
            "10,000 bytes against a goal of 9,000: only the oldest goes")

        // Using a rendition keeps it: the oldest now is the second one.
        #expect(cache.existing(assetUUID: String(renditions[1].lastPathComponent.prefix(36)), version: 0, kind: .thumbnail) != nil)
        _ = try store(cache, size: 2_000, age: 0)
        cache.evict()
        #expect(FileManager.default.fileExists(atPath: renditions[1].path), "just used")
        #expect(
            !FileManager.default.fileExists(atPath: renditions[2].path) && !FileManager.default.fileExists(atPath: renditions[3].path),
            "the two least recently used make room for 2,000 bytes")
        #expect(FileManager.default.fileExists(atPath: renditions[4].path))
    }

    @Test func aDiscardedRenditionIsGoneAndItsBytesUncounted() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = DerivativeCache(root: root, byteLimit: 3_000)
        let first = try store(cache, size: 1_000, age: 10)
        cache.discard(first)
        #expect(!FileManager.default.fileExists(atPath: first.path))
        let others = try (0..<3).map { try store(cache, size: 900, age: Double(5 - $0)) }
        cache.evict()
        #expect(others.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }, "2,700 bytes fit under the goal of 2,700")
    }
}
