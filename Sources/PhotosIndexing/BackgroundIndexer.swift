import CPhotosMedia
import Foundation
import Photos
import Synchronization

/// Keeps a library's index up to date from a thread of its own: it runs
/// ``LibraryIndexer/catchUp(shouldStop:)`` when it starts, whenever the
/// library's history grows (by any process: it observes persistent
/// changes), and every `recheckInterval` (another process's lease may have
/// lapsed). The thread runs niced, so indexing yields the CPU to imports
/// and requests, and never takes a thread from the server's pool.
public final class BackgroundIndexer: NSObject, PHPhotoLibraryPersistentChangesObserver, @unchecked Sendable {
    /// The indexer it runs.
    public let indexer: LibraryIndexer
    private let niceness: Int32
    private let recheckInterval: TimeInterval
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var wanted = true
    private var stopping = false
    private var thread: Thread?
    private var finished = false
    private let totals = Mutex(Progress())

    /// What it has done since it started, for metrics.
    public struct Progress: Sendable, Equatable {
        /// Assets indexed.
        public var indexed = 0
        /// Entries of deleted assets removed.
        public var removed = 0
        /// Runs that failed.
        public var failures = 0
        /// The last failure, as it described itself.
        public var lastFailure: String?
    }

    /// A background runner of `indexer`, at `niceness` (0 to 19; 10 by default).
    public init(indexer: LibraryIndexer, niceness: Int32 = 10, recheckInterval: TimeInterval = 60) {
        self.indexer = indexer
        self.niceness = min(19, max(0, niceness))
        self.recheckInterval = recheckInterval
    }

    /// What it has done so far.
    public var progress: Progress { totals.withLock { $0 } }

    /// Starts its thread and observes the library. Calling it twice does nothing more.
    public func start() {
        condition.withLock {
            guard thread == nil else { return }
            let thread = Thread { [self] in loop() }
            thread.name = "photos.indexer"
            self.thread = thread
            thread.start()
        }
        indexer.library.register(self)
    }

    /// Stops between two batches and waits for the thread to end: what was
    /// written stays, and the next start resumes from it.
    public func stop() {
        indexer.library.unregisterPersistentChangesObserver(self)
        condition.withLock {
            stopping = true
            condition.broadcast()
            while thread != nil && !finished { condition.wait() }
        }
    }

    /// Wakes the thread: the library's history grew.
    public func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary) {
        condition.withLock {
            wanted = true
            condition.signal()
        }
    }

    private func loop() {
        // This thread only: the process's other threads keep their priority.
        _ = pm_nice_this_thread(niceness)
        while true {
            let shouldRun: Bool = condition.withLock {
                if !wanted && !stopping { _ = condition.wait(until: Date().addingTimeInterval(recheckInterval)) }
                defer { wanted = false }
                return !stopping
            }
            guard shouldRun else { break }
            do {
                let run = try indexer.catchUp { condition.withLock { stopping } }
                totals.withLock {
                    $0.indexed += run.indexed
                    $0.removed += run.removed
                }
            } catch {
                totals.withLock {
                    $0.failures += 1
                    $0.lastFailure = String(describing: error)
                }
            }
        }
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }
}
