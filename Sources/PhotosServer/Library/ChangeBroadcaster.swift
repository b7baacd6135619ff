import Foundation
import Photos
import Synchronization


/// Tells event streams that the library changed, from any process.
///
/// Registered as a change observer of one library instance; each stream
/// subscribes and gets a wake-up, never the change itself: it then reads
/// persistent history from its own last token. A subscription buffers at
/// most one pending wake-up, so a slow stream costs nothing more while it
/// lags, and catches up in one read.
final class ChangeBroadcaster: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    /// A sequence of wake-ups, until `cancel` or shutdown.
    func subscribe() -> (id: UUID, wakeUps: AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.cancel(id) }
        return (id, stream)
    }

    /// Wakes one subscriber, for its heartbeat.
    func wake(_ id: UUID) {
        subscribers.withLock { $0[id] }?.yield()
    }

    func cancel(_ id: UUID) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { subscribers.withLock { $0.count } }

    func finishAll() {
        for continuation in subscribers.withLock({ subscribers in defer { subscribers = [:] }; return Array(subscribers.values) }) {
            continuation.finish()
        }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield() }
    }
}
