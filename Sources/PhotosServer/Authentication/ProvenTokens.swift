import Foundation
import Synchronization

/// Bearer tokens proven lately, so that a burst of requests (a grid's
/// thumbnails) costs one lookup and one hash, not one each. A proof
/// lasts `lifetime` (a second): a token revoked by the owner in another
/// process stops working within it, and at once in this process, which
/// forgets its proofs (``forget(tokenID:)``) and tells every connection
/// that keeps a proof of its own (``isCurrent(_:)``). Bounded in size
/// (``RecentTable``).
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
    private let proofs = Mutex(RecentTable<String, Proof>(capacity: 10_000))
    /// Revocations in this process so far: a proof made before the last one may be of a revoked token.
    private let revocations = Atomic<Int>(0)

    init(lifetime: TimeInterval = 1) {
        self.lifetime = lifetime
    }

    func principal(for bearer: String, now: Date = Date()) -> Principal? {
        proof(for: bearer, now: now)?.principal
    }

    /// The proof of `bearer` if one holds now.
    func proof(for bearer: String, now: Date = Date()) -> Proof? {
        proofs.withLock { proofs in
            guard let proof = proofs.value(bearer) else { return nil }
            guard isCurrent(proof, now: now) else {
                proofs[bearer] = nil
                return nil
            }
            return proof
        }
    }

    /// Whether a proof kept elsewhere (by a connection) still holds at `now`:
    /// not expired, and made since the last revocation in this process.
    func isCurrent(_ proof: Proof, now: Date = Date()) -> Bool {
        proof.validUntil > now && proof.revocations == revocations.load(ordering: .acquiring)
    }

    /// The revocations so far; read it before looking a token up, and pass
    /// it to ``remember(_:as:expires:lookedUpAfter:now:)``.
    var revocationCount: Int { revocations.load(ordering: .acquiring) }

    /// Remembers a proof until the lifetime or the token's expiry, whichever
    /// is first. `lookedUpAfter`: the ``revocationCount`` read before the
    /// token was looked up, so that a revocation during the lookup outdates
    /// the proof at once.
    func remember(_ bearer: String, as principal: Principal, expires: Date?, lookedUpAfter revocationCount: Int, now: Date = Date()) {
        let proof = Proof(bearer: bearer, principal: principal, validUntil: min(now.addingTimeInterval(lifetime), expires ?? .distantFuture),
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
}
