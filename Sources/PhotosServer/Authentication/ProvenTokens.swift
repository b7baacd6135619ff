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
/// ``isCurrent(_:now:)``. `lifetime` bounds a proof besides, in case a
/// revocation goes unheard; bounded in size too (``RecentTable``).
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
    /// What is now (the server's ``PhotoServer/Configuration/clock``), for
    /// proofs and for the expiry of the tokens looked up.
    let clock: @Sendable () -> Date
    private let proofs = Mutex(RecentTable<String, Proof>(capacity: 10_000))
    /// Revocations heard so far: a proof made before the last one may be of a revoked token.
    private let revocations = Atomic<Int>(0)

    /// The watch of the library's revocations, while following them.
    private let revocationWatch = Mutex<PHPhotoLibrary.TokenRevocationWatch?>(nil)

    init(lifetime: TimeInterval = 60, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.lifetime = lifetime
        self.clock = clock
    }

    /// Outdates every proof each time a token of `library` is revoked, by
    /// any process, and if the library becomes unavailable; until this
    /// object goes. Cost: one commit watcher.
    func follow(revocationsOf library: PHPhotoLibrary) throws {
        let watch = try library.watchTokenRevocations { [weak self] in self?.forgetAll() }
        revocationWatch.withLock { $0 = watch }
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
        let proof = Proof(
            bearer: bearer, principal: principal, validUntil: min(clock().addingTimeInterval(lifetime), expires ?? .distantFuture),
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
