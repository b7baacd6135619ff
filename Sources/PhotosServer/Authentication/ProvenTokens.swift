import Foundation
import Synchronization

/// Bearer tokens proven lately, so that a burst of requests (a grid's
/// thumbnails) costs one lookup and one hash, not one each. A proof
/// lasts `lifetime` (a second): a token revoked by the owner stops
/// working within it in any process, and at once in the process that
/// revoked it (``forget(tokenID:)``). Bounded in size.
final class ProvenTokens: Sendable {
    /// A token proven, and until when that proof holds.
    struct Proof: Sendable {
        let bearer: String
        let principal: Principal
        let validUntil: Date
    }

    let lifetime: TimeInterval
    private let proofs = Mutex<[String: Proof]>([:])
    private static let maximumCount = 10_000

    init(lifetime: TimeInterval = 1) {
        self.lifetime = lifetime
    }

    func principal(for bearer: String, now: Date = Date()) -> Principal? {
        proof(for: bearer, now: now)?.principal
    }

    /// The proof of `bearer` if one holds now.
    func proof(for bearer: String, now: Date = Date()) -> Proof? {
        proofs.withLock { proofs in
            guard let proof = proofs[bearer] else { return nil }
            guard proof.validUntil > now else {
                proofs[bearer] = nil
                return nil
            }
            return proof
        }
    }

    /// Remembers a proof until the lifetime or the token's expiry, whichever is first.
    func remember(_ bearer: String, as principal: Principal, expires: Date?, now: Date = Date()) {
        let validUntil = min(now.addingTimeInterval(lifetime), expires ?? .distantFuture)
        proofs.withLock { proofs in
            if proofs.count >= Self.maximumCount { proofs.removeAll(keepingCapacity: true) }
            proofs[bearer] = Proof(bearer: bearer, principal: principal, validUntil: validUntil)
        }
    }

    /// Drops every proof of the token `tokenID`, which this process has just revoked.
    func forget(tokenID: String) {
        proofs.withLock { proofs in
            proofs = proofs.filter { $0.value.principal.tokenID != tokenID }
        }
    }
}
