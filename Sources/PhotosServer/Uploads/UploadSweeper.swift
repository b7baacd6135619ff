import Foundation
import Photos
import ServiceLifecycle

/// Removes abandoned uploads while the server runs, every `interval`: those
/// not written to for their lifetime, and those of tokens revoked or
/// expired (by any process). Part of the server's application, so it stops
/// with it.
struct UploadSweeper: Service {
    let uploads: UploadStore
    let owner: PHPhotoLibrary
    let interval: Duration
    /// The time the sweep takes as now; the clock tests move.
    let now: @Sendable () -> Date

    /// Sweeps every `interval` until the server shuts down, which ends it
    /// cleanly (its sleep cancelled is no failure of the server's).
    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                try? await sweep()
            }
        }
    }

    /// One sweep. Cost: one read of the tokens and a look at every upload.
    func sweep() async throws {
        let (uploads, owner, now) = (self.uploads, self.owner, self.now())
        try await blocking {
            let valid = Set(try owner.accessTokens().filter { !$0.isExpired(at: now) }.map(\.id))
            uploads.removeAbandoned(validTokens: valid, now: now)
        }
    }
}
