import Foundation
import NIOPosix
import Photos
import Synchronization

/// The library as each principal sees it: the owner's instance, and one
/// instance per client identifier, opened on first use and kept, so that
/// the engine applies that client's grant to every read and write.
final class LibraryPool: Sendable {
    let url: URL
    /// The owner's instance: administration (tokens) and the owner's requests.
    let owner: PHPhotoLibrary
    private let clients = Mutex<[String: PHPhotoLibrary]>([:])
    /// Renditions as last served, by the bytes they hold.
    let renditions = CommitCache<CachedRendition.Key, CachedRendition>(costLimit: 64 << 20) { $0.body.readableBytes }
    /// Timeline buckets as last counted, by their number.
    let timelines = CommitCache<TimelineKey, [PHTimelineBucket]>(costLimit: 1_000_000) { $0.count + 1 }
    private let invalidation: CacheInvalidation
    /// The change broadcasters of the instances, by client ("" for the owner).
    private let broadcasters = Mutex<[String: ChangeBroadcaster]>([:])

    init(owner: PHPhotoLibrary) {
        self.owner = owner
        url = owner.url
        invalidation = CacheInvalidation([renditions.invalidate, timelines.invalidate])
        owner.register(invalidation)
    }

    /// The instance that acts for `principal`. Cost: a dictionary lookup,
    /// or the opening of the library the first time a client is seen.
    func library(for principal: Principal) throws -> PHPhotoLibrary {
        guard let client = principal.client else { return owner }
        if let library = clients.withLock({ $0[client] }) { return library }
        let library = try PHPhotoLibrary(url: url, clientIdentifier: client)
        return clients.withLock { open in
            if let existing = open[client] { return existing }
            open[client] = library
            return library
        }
    }

    /// The broadcaster of `principal`'s commits notifications, registered as
    /// an observer of its instance on first use.
    func broadcaster(for principal: Principal) throws -> ChangeBroadcaster {
        let key = principal.client ?? ""
        if let broadcaster = broadcasters.withLock({ $0[key] }) { return broadcaster }
        let library = try library(for: principal)
        return broadcasters.withLock { existing in
            if let broadcaster = existing[key] { return broadcaster }
            let broadcaster = ChangeBroadcaster()
            library.register(broadcaster)
            existing[key] = broadcaster
            return broadcaster
        }
    }

    /// Whether the token `principal` proved still works (not revoked, not
    /// expired), for requests that outlive their authentication: an event
    /// stream asks before each read. Cost: one read of the token table.
    func stillAuthorized(_ principal: Principal) -> Bool {
        guard let tokens = try? owner.accessTokens() else { return false }
        return tokens.contains { $0.id == principal.tokenID && !$0.isExpired() }
    }

    /// Stops every stream's subscription, for shutdown.
    func finishStreams() {
        for broadcaster in broadcasters.withLock({ Array($0.values) }) { broadcaster.finishAll() }
    }
}

/// Runs blocking library work (SQLite, files, decoding) off the event loops.
func blocking<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await NIOThreadPool.singleton.runIfActive(body)
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
