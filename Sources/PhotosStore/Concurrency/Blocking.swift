import Foundation

/// Runs async work to completion from synchronous code, as the engine's
/// contract is: the calling thread waits while the work runs on a task
/// executor of its own, never on Swift's shared cooperative pool, whose few
/// threads may all be the ones waiting (a test or a server route calling a
/// change block from async code). Backends that speak to a network service
/// (object storage, PostgreSQL) call their async clients through it. Never
/// called from an event loop. Cost: one task and one semaphore wait.
package enum Blocking {
    package static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () async throws(E) -> T) throws(E) -> T {
        let box = ResultBox<T, E>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: DispatchTaskExecutor.shared) {
            do throws(E) {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// Written by the task before it signals, read by the waiter after.
    private final class ResultBox<T: Sendable, E: Error>: @unchecked Sendable {
        var result: Result<T, E>?
    }
}

/// A task executor on a concurrent dispatch queue, whose threads Dispatch
/// adds as jobs wait, unlike the cooperative pool's fixed few.
package final class DispatchTaskExecutor: TaskExecutor {
    package static let shared = DispatchTaskExecutor()
    private let queue = DispatchQueue(label: "photos.blocking", attributes: .concurrent)

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
