import Foundation
import Photos
import Synchronization

/// Bearer tokens proven lately, so that a burst of requests (a grid's
/// thumbnails) costs one lookup and one hash, not one each. A proof holds
/// until the token expires or any token is revoked: at once when this
/// process revokes it (``forget(tokenID:)``), and as soon as the library's
/// commit watcher hears of a revocation by another process or machine
/// (``follow(revocationsOf:)``), which outdates every proof. Either way
/// every connection that keeps a proof of its own learns it through
/// ``isCurrent(_:now:)``. `lifetime` bounds a proof besides; while the
/// watch is down (the library unavailable), nothing could be heard, so
/// proofs last only `unheardLifetime` and the watch is started again now
/// and then. Bounded in size too (``RecentTable``).
final class ProvenTokens: Sendable {
    /// A token proven, and until when that proof holds.
    struct Proof: Sendable {
        let bearer: String
        let principal: Principal
        let validUntil: Date
        /// The revocations counted when it was made.
        let revocations: Int
    }

    let lifetime: TimeInterval
    /// How long a proof lasts while revocations cannot be heard.
    let unheardLifetime: TimeInterval = 1
    /// How often a watch that went down is started again, at most.
    static let refollowInterval: TimeInterval = 10
    /// What is now (the server's ``PhotoServer/Configuration/clock``), for
    /// proofs and for the expiry of the tokens looked up.
    let clock: @Sendable () -> Date
    private let proofs = Mutex(RecentTable<String, Proof>(capacity: 10_000))
    /// Revocations heard so far: a proof made before the last one may be of a revoked token.
    private let revocations = Atomic<Int>(0)

    /// The library whose revocations are followed, its watch while it
    /// runs, when it was last started, and how many were started (so that a
    /// watch that went down at once is not taken for running).
    private let following = Mutex<Following>(Following())

    private struct Following {
        var library: PHPhotoLibrary?
        var watch: PHPhotoLibrary.TokenRevocationWatch?
        var started: Date?
        var generation = 0
        var downGeneration: Int?
    }

    init(lifetime: TimeInterval = 60, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.lifetime = lifetime
        self.clock = clock
    }

    /// Outdates every proof each time a token of `library` is revoked, by
    /// any process, and when the library becomes unavailable, until this
    /// object goes; throws when the watch cannot start. Cost: one commit
    /// watcher.
    func follow(revocationsOf library: PHPhotoLibrary) throws {
        following.withLock { $0.library = library }
        try startWatch(of: library)
    }

    private func startWatch(of library: PHPhotoLibrary) throws {
        let now = clock()
        let generation = following.withLock { state in
            state.started = now
            state.generation += 1
            return state.generation
        }
        let watch = try library.watchTokenRevocations(
            onRevocation: { [weak self] in self?.forgetAll() },
            onUnavailable: { [weak self] in
                guard let self else { return }
                following.withLock { state in
                    state.downGeneration = generation
                    if state.generation == generation { state.watch = nil }
                }
                forgetAll()
            })
        following.withLock { state in
            if state.downGeneration != generation { state.watch = watch }
        }
        // Whatever was proven while nothing was heard is proven again.
        forgetAll()
    }

    /// Whether revocations by other processes are heard now.
    var isFollowing: Bool { following.withLock { $0.watch != nil } }

    /// Starts the watch again if it went down and was not tried lately.
    private func refollowIfDue(now: Date) {
        let library = following.withLock { state -> PHPhotoLibrary? in
            guard state.watch == nil, let library = state.library,
                state.started.map({ now.timeIntervalSince($0) >= Self.refollowInterval }) ?? true
            else { return nil }
            return library
        }
        if let library { try? startWatch(of: library) }
    }

    func principal(for bearer: String) -> Principal? {
        proof(for: bearer)?.principal
    }

    /// The proof of `bearer` if one holds now.
    func proof(for bearer: String) -> Proof? {
        let now = clock()
        return proofs.withLock { proofs in
            guard let proof = proofs.value(bearer) else { return nil }
            guard isCurrent(proof, now: now) else {
                proofs[bearer] = nil
                return nil
            }
            return proof
        }
    }

    /// Whether a proof kept elsewhere (by a connection) still holds at `now`
    /// (by default, now): not expired, and made since the last revocation in this process.
    func isCurrent(_ proof: Proof, now: Date? = nil) -> Bool {
        proof.validUntil > (now ?? clock()) && proof.revocations == revocations.load(ordering: .acquiring)
    }

    /// The revocations so far; read it before looking a token up, and pass
    /// it to ``remember(_:as:expires:lookedUpAfter:)``.
    var revocationCount: Int { revocations.load(ordering: .acquiring) }

    /// Remembers a proof until the lifetime or the token's expiry, whichever
    /// is first. `lookedUpAfter`: the ``revocationCount`` read before the
    /// token was looked up, so that a revocation during the lookup outdates
    /// the proof at once.
    func remember(_ bearer: String, as principal: Principal, expires: Date?, lookedUpAfter revocationCount: Int) {
        let now = clock()
        let heard = isFollowing
        if !heard { refollowIfDue(now: now) }
        let proof = Proof(
            bearer: bearer, principal: principal,
            validUntil: min(now.addingTimeInterval(heard ? lifetime : unheardLifetime), expires ?? .distantFuture),
            revocations: revocationCount)
        proofs.withLock { $0[bearer] = proof }
    }

    /// Drops every proof of the token `tokenID`, which this process has just
    /// revoked, and outdates every proof connections keep. Cost: a pass
    /// over the proofs, for what is rare.
    func forget(tokenID: String) {
        revocations.add(1, ordering: .releasing)
        proofs.withLock { proofs in proofs.removeAll { $1.principal.tokenID == tokenID } }
    }

    /// Drops every proof, and outdates every proof connections keep: a
    /// token was revoked elsewhere, and which one is not said.
    func forgetAll() {
        revocations.add(1, ordering: .releasing)
        proofs.withLock { proofs in proofs.removeAll { _, _ in true } }
    }
}
