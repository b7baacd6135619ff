/// What a token holds in this server, ended at once when this process
/// revokes the token (`DELETE /v1/shares/{id}`): its proofs (the ones
/// connections keep included), its browser sessions, its event streams and
/// its unfinished uploads. A token revoked by another process (`photos
/// token revoke`) stops as soon as this server's commit watcher hears of it
/// (``ProvenTokens/follow(revocationsOf:)``), which outdates every proof;
/// its sessions and streams end at their next proof, its uploads at the
/// next sweep (``UploadStore/removeAbandoned(validTokens:now:)``).
struct Revocation: Sendable {
    let provenTokens: ProvenTokens
    let sessions: BrowserSessions
    let streams: EventStreams
    let uploads: UploadStore

    func revoked(tokenID: String) {
        provenTokens.forget(tokenID: tokenID)
        sessions.end(tokenID: tokenID)
        streams.end(tokenID: tokenID)
        uploads.removeAll(tokenID: tokenID)
    }
}
