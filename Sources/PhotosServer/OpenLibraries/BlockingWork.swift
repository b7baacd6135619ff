import Foundation
import Hummingbird
import NIOPosix
import Photos
import Synchronization

/// Where requests do their blocking work (SQLite, files, decoding): threads
/// of the server's own, shared fairly, and every read bounded.
///
/// - Each principal (a token; before sign-in, a peer address) runs at most
///   ``maximumPerPrincipal`` jobs at once; its others wait their turn, in
///   order, at most ``maximumWaiting`` of them (more are refused, 503). So
///   no principal takes every thread, however many requests it sends.
///   Token lookups wait in a longer line (``maximumWaitingLookups``): a
///   peer may be a proxy for many clients, whose streams all reconnect at
///   once after a restart, and a lookup is one indexed read.
/// - Each job's reads are bounded (`PHPhotoLibrary.withQueryLimits`): a
///   statement past `statementDuration` is stopped (503), and so is one
///   whose client has hung up. A job whose client left while it waited is
///   not run at all.
///
/// Jobs know whose they are from the task they come from (``Attribution``),
/// which the middleware sets for each request; work outside a request
/// (a change feed's reads) is attributed to the server itself.
final class BlockingWork: Sendable {
    /// Whose work a task does, and whether its client is still there.
    struct Attribution: Sendable {
        let work: BlockingWork
        let key: String
        let client: ClientPresence.Client?
    }

    @TaskLocal static var attribution: Attribution?

    static let maximumPerPrincipal = 2
    static let maximumWaiting = 64
    static let maximumWaitingLookups = 1024
    let statementDuration: Duration
    private let pool: NIOThreadPool
    private let turns = Mutex<[String: Turns]>([:])

    /// One principal's jobs: how many run, and who waits.
    private struct Turns {
        var running = 0
        var waiting: [CheckedContinuation<Void, any Error>] = []
    }

    /// `threads`: at least four times the cores, so that slow jobs of a few
    /// principals leave threads to everyone else.
    init(threads: Int = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount), statementDuration: Duration) {
        self.statementDuration = statementDuration
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on one of the threads when `key`'s turn comes, refused
    /// when `maximumWaiting` of its jobs wait already.
    func run<Result: Sendable>(
        for key: String, client: ClientPresence.Client?, maximumWaiting: Int = BlockingWork.maximumWaiting,
        _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await take(key, maximumWaiting: maximumWaiting)
        defer { give(key) }
        if client?.isGone == true { throw CancellationError() }
        let limits = PHPhotoLibrary.QueryLimits(statementDuration: statementDuration) { client?.isGone ?? false }
        return try await pool.runIfActive { try PHPhotoLibrary.withQueryLimits(limits, body) }
    }

    private func take(_ key: String, maximumWaiting: Int) async throws {
        enum Outcome { case run, wait, refuse }
        // One decision under one lock: deciding to wait and joining the line
        // in two steps let a burst of jobs all see room and all join, past the bound.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = turns.withLock { turns -> Outcome in
                var entry = turns[key, default: Turns()]
                defer { turns[key] = entry }
                if entry.running < Self.maximumPerPrincipal {
                    entry.running += 1
                    return .run
                }
                guard entry.waiting.count < maximumWaiting else { return .refuse }
                entry.waiting.append(continuation)
                return .wait
            }
            switch outcome {
            case .run: continuation.resume()
            case .refuse:
                continuation.resume(
                    throwing: Problem(.serviceUnavailable, "this token has too many requests in progress; wait for them", headers: [.retryAfter: "1"]))
            case .wait: break  // `give` hands the turn over, already counted as running.
            }
        }
    }

    private func give(_ key: String) {
        let next = turns.withLock { turns -> CheckedContinuation<Void, any Error>? in
            guard var entry = turns[key] else { return nil }
            defer { turns[key] = entry.running == 0 && entry.waiting.isEmpty ? nil : entry }
            guard !entry.waiting.isEmpty else {
                entry.running -= 1
                return nil
            }
            return entry.waiting.removeFirst()
        }
        next?.resume()
    }

    /// How many jobs of `key` run now, and how many wait.
    func load(of key: String) -> (running: Int, waiting: Int) {
        turns.withLock { ($0[key]?.running ?? 0, $0[key]?.waiting.count ?? 0) }
    }
}

/// Runs blocking library work (SQLite, files, decoding) off the event
/// loops, as the task's request's share of ``BlockingWork``; outside any
/// request, on NIO's shared pool. `maximumWaiting`: how many of the
/// share's jobs may wait before this one is refused.
func blocking<Result: Sendable>(
    maximumWaiting: Int = BlockingWork.maximumWaiting,
    _ body: @escaping @Sendable () throws -> Result
) async throws -> Result {
    guard let attribution = BlockingWork.attribution else { return try await NIOThreadPool.singleton.runIfActive(body) }
    return try await attribution.work.run(for: attribution.key, client: attribution.client, maximumWaiting: maximumWaiting, body)
}

/// Attributes each request's blocking work to its peer, until the
/// authentication middleware attributes it to the token it proves.
struct WorkAttribution: RouterMiddleware {
    typealias Context = ServerContext
    let work: BlockingWork

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await BlockingWork.$attribution.withValue(.init(work: work, key: "peer " + (context.remoteAddress ?? "unknown"), client: context.client)) {
            try await next(request, context)
        }
    }
}
