import Foundation
import HTTPTypes
import NIOCore
import Photos
import Synchronization

/// The library as each principal sees it: the owner's instance, and one
/// instance per client identifier, opened on first use, so that the engine
/// applies that client's grant to every read and write.
///
/// Bounded: at most ``maximumClients`` client instances are kept open (each
/// holds files and database connections). Past that, the one used least
/// lately goes, unless event streams read through it (its ``ChangeFeed``
/// has subscribers); when every one is so used, a new client is answered
/// 503 until one frees. An instance that goes stays open until the
/// requests using it end.
final class LibraryPool: Sendable {
    let url: URL
    /// The owner's instance: administration (tokens) and the owner's requests.
    let owner: PHPhotoLibrary
    let maximumClients: Int
    private let clients = Mutex(Clients())
    /// The owner's change feed, made on first use.
    private let ownerFeed = Mutex<ChangeFeed?>(nil)
    /// Renditions as last served, by the bytes they hold.
    let renditions = CommitCache<CachedRendition.Key, CachedRendition>(costLimit: 64 << 20) { $0.body.readableBytes }
    /// Videos being made playable in browsers, one at a time.
    let videoConversions = VideoConversions()
    /// Timeline buckets as last counted: by their number, and the bytes of the filter that keys them.
    let timelines = CommitCache<TimelineKey, [PHTimelineBucket]>(costLimit: 1_000_000) { $0.count + 1 }
    private let invalidation: CacheInvalidation

    private struct Clients {
        struct Entry {
            let library: PHPhotoLibrary
            var lastUse: UInt64
            var feed: ChangeFeed?
            /// Whether event streams read through it, so that it cannot go.
            var isPinned: Bool { (feed?.subscriberCount ?? 0) > 0 }
        }

        var entries: [String: Entry] = [:]
        var uses: UInt64 = 0

        /// Makes room for one more, dropping the least lately used unpinned
        /// entry; false when every entry is pinned. Cost: a pass over at
        /// most `maximumClients` entries, only when full.
        mutating func makeRoom(limit: Int) -> Bool {
            guard entries.count >= limit else { return true }
            guard let victim = entries.filter({ !$0.value.isPinned }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key else {
                return false
            }
            entries[victim]?.feed?.stop()
            entries[victim] = nil
            return true
        }
    }

    init(owner: PHPhotoLibrary, maximumClients: Int = 64) {
        self.owner = owner
        self.maximumClients = maximumClients
        url = owner.url
        invalidation = CacheInvalidation([renditions.invalidate, timelines.invalidate])
        owner.register(invalidation)
    }

    /// The instance that acts for `principal`. Cost: a dictionary lookup,
    /// or, the first time a client is seen (or after its instance went),
    /// opening the library off the event loops.
    func library(for principal: Principal) async throws -> PHPhotoLibrary {
        guard let client = principal.client else { return owner }
        if let library = touch(client) { return library }
        let url = self.url
        let opened = try await blocking { try PHPhotoLibrary(url: url, clientIdentifier: client) }
        return try clients.withLock { clients in
            clients.uses += 1
            if let existing = clients.entries[client] {
                clients.entries[client]?.lastUse = clients.uses
                return existing.library
            }
            guard clients.makeRoom(limit: maximumClients) else { throw Self.full }
            clients.entries[client] = .init(library: opened, lastUse: clients.uses)
            return opened
        }
    }

    /// The cached instance of `client`, marked as used now.
    private func touch(_ client: String) -> PHPhotoLibrary? {
        clients.withLock { clients in
            guard clients.entries[client] != nil else { return nil }
            clients.uses += 1
            clients.entries[client]?.lastUse = clients.uses
            return clients.entries[client]?.library
        }
    }

    /// The change feed of `principal`'s client: one reader of its history
    /// for all its event streams. Its instance stays open while the feed
    /// has subscribers.
    func feed(for principal: Principal) async throws -> ChangeFeed {
        guard let client = principal.client else {
            if let feed = ownerFeed.withLock({ $0 }) { return feed }
            let made = try await ChangeFeed.start(library: owner)
            return ownerFeed.withLock { feed in
                if let feed {
                    made.stop()
                    return feed
                }
                feed = made
                return made
            }
        }
        let library = try await library(for: principal)
        if let feed = clients.withLock({ $0.entries[client]?.feed }) { return feed }
        let made = try await ChangeFeed.start(library: library)
        return try clients.withLock { clients in
            clients.uses += 1
            if let entry = clients.entries[client], entry.library === library {
                if let feed = entry.feed {
                    made.stop()
                    return feed
                }
                clients.entries[client]?.feed = made
                clients.entries[client]?.lastUse = clients.uses
                return made
            }
            // The instance went while the feed started: keep it, as it was.
            guard clients.makeRoom(limit: maximumClients) else {
                made.stop()
                throw Self.full
            }
            clients.entries[client] = .init(library: library, lastUse: clients.uses, feed: made)
            return made
        }
    }

    /// How many client instances are open in the pool now.
    var openClientCount: Int { clients.withLock { $0.entries.count } }

    private static let full = Problem(
        .serviceUnavailable, "too many clients are reading at once; try again shortly",
        headers: [.retryAfter: "5"])
}

/// Empties the caches at each commit: the owner's instance hears of every
/// change block, by any process, grants included.
private final class CacheInvalidation: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    private let invalidations: [@Sendable () -> Void]

    init(_ invalidations: [@Sendable () -> Void]) {
        self.invalidations = invalidations
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        for invalidate in invalidations { invalidate() }
    }
}
