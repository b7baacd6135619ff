import Foundation
import Photos
import Synchronization

/// Conversions of videos browsers cannot play into copies they can
/// (``PHImageManager/playableVideo(of:_:)``): one at a time, on a thread of
/// their own, at low priority, so that the server answers others meanwhile.
/// A request asking for a video moves it to the front; the server's start
/// queues every video and Live Photo whose copy is missing, so that work a
/// restart interrupted is done again. At most ``capacity`` wait; the rest
/// are made when asked for, or at the next start.
final class VideoConversions: Sendable {
    /// One video of one asset version.
    struct Key: Hashable, Sendable {
        var assetUUID: String
        var contentVersion: Int
        var part: PHImageManager.PlayableVideoPart
    }

    /// How a conversion ended, or that it has not yet.
    enum Outcome: Sendable {
        case done
        case failed(PHPhotosError)
        case pending
    }

    static let capacity = 1_024
    /// Failures remembered, so that a video that cannot be converted is not tried on every request.
    private static let failureCapacity = 4_096

    private struct Job {
        var key: Key
        var asset: PHAsset
    }

    private struct State {
        var queue: [Job] = []
        var running: Key?
        var failures: [Key: PHPhotosError] = [:]
        var waiters: [Key: [@Sendable () -> Void]] = [:]
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            while true {
                wake.wait()
                guard
                    let job = state.withLock({ state -> Job? in
                        guard !state.queue.isEmpty else { return nil }
                        let job = state.queue.removeFirst()
                        state.running = job.key
                        return job
                    })
                else { continue }
                var failure: PHPhotosError?
                do {
                    _ = try PHImageManager.default().playableVideo(of: job.asset, job.key.part)
                } catch {
                    failure = error as? PHPhotosError ?? PHPhotosError(.internalError, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
                }
                let waiting = state.withLock { state -> [@Sendable () -> Void] in
                    state.running = nil
                    if let failure {
                        if state.failures.count >= Self.failureCapacity { state.failures.removeAll() }
                        state.failures[job.key] = failure
                    }
                    return state.waiters.removeValue(forKey: job.key) ?? []
                }
                waiting.forEach { $0() }
            }
        }
        thread.name = "video conversions"
        thread.start()
    }

    /// Queues the conversion of an asset's video; `urgent` puts it first.
    /// Does nothing when it is queued, running or failed already, or (not
    /// urgent) when ``capacity`` are waiting.
    func schedule(_ asset: PHAsset, _ part: PHImageManager.PlayableVideoPart, urgent: Bool) {
        let key = Self.key(asset, part)
        let added = state.withLock { state -> Bool in
            guard state.running != key, state.failures[key] == nil else { return false }
            if let queued = state.queue.firstIndex(where: { $0.key == key }) {
                guard urgent else { return false }
                state.queue.insert(state.queue.remove(at: queued), at: 0)
                return false
            }
            guard urgent || state.queue.count < Self.capacity else { return false }
            if urgent && state.queue.count >= Self.capacity { state.queue.removeLast() }
            state.queue.insert(Job(key: key, asset: asset), at: urgent ? 0 : state.queue.count)
            return true
        }
        if added { wake.signal() }
    }

    /// Waits until the conversion of an asset's video ends, or `timeout`
    /// passes, and says how it stands. Converted before, or never queued,
    /// is `done`: the caller looks for the copy again.
    func outcome(of asset: PHAsset, _ part: PHImageManager.PlayableVideoPart, waitingUpTo timeout: Duration) async -> Outcome {
        let key = Self.key(asset, part)
        let waited = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            // Resumed once: by the conversion's end or by the timeout, whichever comes first.
            let pending = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
            let resume: @Sendable (Bool) -> Void = { ended in pending.withLock { $0.take() }?.resume(returning: ended) }
            let registered = state.withLock { state -> Bool in
                guard state.running == key || state.queue.contains(where: { $0.key == key }) else { return false }
                state.waiters[key, default: []].append { resume(true) }
                return true
            }
            guard registered else { return resume(true) }
            Task {
                try? await Task.sleep(for: timeout)
                resume(false)
            }
        }
        if !waited { return .pending }
        if let failure = state.withLock({ $0.failures[key] }) { return .failed(failure) }
        return .done
    }

    /// Queues the conversion of every video and Live Photo of the library
    /// that browsers cannot play and has no copy yet. Runs in the
    /// background; each check costs an ffprobe the first time.
    func scheduleMissing(in library: PHPhotoLibrary) {
        scheduleIfMissing(in: library) {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(
                format: "mediaType == %d OR (mediaSubtypes & %d) != 0",
                PHAssetMediaType.video.rawValue, PHAssetMediaSubtype.photoLive.rawValue)
            return PHAsset.fetchAssets(with: options)
        }
    }

    /// Queues the conversion of the videos and Live Photos among assets
    /// just created, as ``scheduleMissing(in:)`` does for all.
    func scheduleNew(_ localIdentifiers: [String], in library: PHPhotoLibrary) {
        guard !localIdentifiers.isEmpty else { return }
        scheduleIfMissing(in: library) { PHAsset.fetchAssets(withLocalIdentifiers: localIdentifiers, options: nil) }
    }

    private func scheduleIfMissing(in library: PHPhotoLibrary, _ fetch: @escaping @Sendable () -> PHFetchResult<PHAsset>) {
        DispatchQueue.global(qos: .utility).async { [self] in
            let assets = library.withCurrentLibrary { () -> [PHAsset] in
                let result = fetch()
                return (0..<result.count).map { result[$0] }
            }
            for asset in assets where asset.mediaType == .video || asset.mediaSubtypes.contains(.photoLive) {
                let part: PHImageManager.PlayableVideoPart = asset.mediaType == .video ? .video : .motion
                let ready = library.withCurrentLibrary { try? PHImageManager.default().existingPlayableVideo(of: asset, part) }
                if ready == nil { schedule(asset, part, urgent: false) }
            }
        }
    }

    private static func key(_ asset: PHAsset, _ part: PHImageManager.PlayableVideoPart) -> Key {
        Key(assetUUID: String(asset.localIdentifier.prefix(36)), contentVersion: asset.contentVersion, part: part)
    }
}
