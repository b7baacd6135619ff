import Foundation

/// Runs image work on as many threads as there are cores, requests before
/// prefetching, oldest first. Cancelled work that has not started never
/// runs, so a thousand requests cancelled while scrolling leave nothing to
/// do; work already running finishes its decode and delivers nothing.
final class ImageWorkScheduler: @unchecked Sendable {
    /// Whether work answers a request or fills a cache ahead of one.
    enum Priority {
        case request
        case prefetch
    }

    /// One unit of work.
    final class Job: @unchecked Sendable {
        let priority: Priority
        fileprivate let work: () -> Void
        private let lock = NSLock()
        private var cancelled = false

        init(priority: Priority, work: @escaping () -> Void) {
            self.priority = priority
            self.work = work
        }

        var isCancelled: Bool { lock.withLock { cancelled } }

        func cancel() {
            lock.withLock { cancelled = true }
        }
    }

    /// The scheduler image managers share, so requests and prefetching
    /// together never use more threads than there are cores.
    static let shared = ImageWorkScheduler(workers: ProcessInfo.processInfo.activeProcessorCount)

    private let workers: Int
    private let lock = NSLock()
    private var requests = JobQueue()
    private var prefetches = JobQueue()
    private var running = 0

    init(workers: Int) {
        self.workers = max(1, workers)
    }

    func submit(_ job: Job) {
        let startsWorker = lock.withLock { () -> Bool in
            switch job.priority {
            case .request: requests.append(job)
            case .prefetch: prefetches.append(job)
            }
            guard running < workers else { return false }
            running += 1
            return true
        }
        if startsWorker {
            DispatchQueue.global(qos: .userInitiated).async { [self] in runJobs() }
        }
    }

    /// Jobs waiting or running; for tests that check cancelled work is gone.
    var pendingCount: Int {
        lock.withLock { requests.count + prefetches.count + running }
    }

    private func runJobs() {
        while let job = next() {
            job.work()
        }
    }

    /// The next job that is not cancelled, or nil (and one worker fewer) when there is none.
    private func next() -> Job? {
        lock.withLock {
            while let job = requests.popFirst() ?? prefetches.popFirst() {
                if !job.isCancelled { return job }
            }
            running -= 1
            return nil
        }
    }

    /// A first-in, first-out queue that pops in constant time.
    private struct JobQueue {
        private var jobs: [Job] = []
        private var head = 0

        var count: Int { jobs.count - head }

        mutating func append(_ job: Job) {
            jobs.append(job)
        }

        mutating func popFirst() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
