import Foundation
import PhotosStore
import PostgresNIO

/// PostgreSQL's ``CommitWatcher``: hears of change blocks committed, and
/// tokens revoked, on any machine through the library's notification
/// channel, on one connection of its own (`LISTEN` needs a connection that
/// stays; the pool's come and go).
///
/// Each commit notifies its block's number (see ``ChangeBlockNumbering``),
/// each revocation ``ChangeBlockNumbering/tokenRevocationNotice``.
/// Notifications sent while no one listens are lost, so every time the
/// watcher (re)connects it starts listening first and then reads the last
/// number: a commit is either before that read or notified after it. A
/// dropped connection is retried with backoff, up to `maximumBackoff`
/// apart, for as long as the watcher runs; every `safetyInterval` it reads
/// the last number again, which also finds a connection that died without
/// a word. Reports only states that are news after the last reported, so
/// a consumer re-reads history from its own last number and nothing is
/// lost or seen twice. A library whose schema is dropped is reported once as `removed`.
package final class PostgresCommitWatcher: CommitWatcher, @unchecked Sendable {
    /// How often the watcher reads the last number without a notification.
    package static let safetyInterval = Duration.seconds(2)
    /// The longest wait between two attempts to reconnect.
    package static let maximumBackoff = Duration.seconds(2)

    private let database: LibraryDatabase
    private let onChange: @Sendable (WatchedState) -> Void
    private let onUnavailable: @Sendable (StoreError) -> Void
    private let state = NSLock()
    /// Held while a callback runs, so reports arrive one at a time, in order.
    private let reporting = NSLock()
    private var lastSeen: WatchedState
    private var stopped = false
    private var connection: PostgresConnection?
    private var runner: Task<Void, Never>?

    /// Starts watching; `onChange` gets the library's state each time it is
    /// news after `start` and the last reported.
    package init(
        database: LibraryDatabase, after start: WatchedState, onChange: @escaping @Sendable (WatchedState) -> Void,
        onUnavailable: @escaping @Sendable (StoreError) -> Void
    ) {
        self.database = database
        self.onChange = onChange
        self.onUnavailable = onUnavailable
        lastSeen = start
        let runner = Task(executorPreference: DispatchTaskExecutor.shared) { [self] in await run() }
        state.withLock { self.runner = runner }
    }

    /// Reads the state through the pool now; a failure is left to the
    /// listener's own re-reads.
    package func check() {
        Task(executorPreference: DispatchTaskExecutor.shared) { [self, database] in
            let state = try? await LibraryDatabase.withTimeout(database.timeout, location: database.location) {
                try await database.client.withConnection { connection in
                    try await ChangeBlockNumbering.watchedState(connection, location: database.location)
                }
            }
            if let state { report(state) }
        }
    }

    /// Stops listening and closes the watcher's connection; no report
    /// starts after it returns. Safe to call twice.
    package func stop() {
        let (runner, connection) = state.withLock { () -> (Task<Void, Never>?, PostgresConnection?) in
            stopped = true
            return (self.runner, self.connection)
        }
        runner?.cancel()
        if let connection { Task { try? await connection.close() } }
    }

    private var isStopped: Bool { state.withLock { stopped } }

    private func run() async {
        var backoff = Duration.milliseconds(50)
        while !isStopped, !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: database.connectionConfiguration, id: 1,
                    logger: LibraryDatabase.quiet)
                guard adopt(connection) else {
                    try? await connection.close()
                    return
                }
                try await listen(on: connection)
                backoff = .milliseconds(50)
            } catch let error as StoreError {
                state.withLock { stopped = true }
                onUnavailable(error)
                return
            } catch {
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
    }

    /// Keeps the connection for `stop()` to close; false once stopped.
    private func adopt(_ connection: PostgresConnection) -> Bool {
        state.withLock {
            guard !stopped else { return false }
            self.connection = connection
            return true
        }
    }

    /// Listens until the connection fails; throws `removed` when the
    /// library's schema is gone, anything else to reconnect.
    private func listen(on connection: PostgresConnection) async throws {
        defer { Task { try? await connection.close() } }
        let location = database.location
        try await connection.listen(on: location.channel) { notifications in
            try await self.reportLast(connection)
            let poller = Task(executorPreference: DispatchTaskExecutor.shared) { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.safetyInterval)
                    do {
                        try await reportLast(connection)
                    } catch {
                        try? await connection.close()
                        return
                    }
                }
            }
            defer { poller.cancel() }
            // A notice of a block past the last reported reads the newest state, so
            // that a listener busy with an earlier block catches up in one step, and
            // the notices queued meanwhile, already covered, cost nothing. A notice
            // of a revocation always reads it.
            for try await notification in notifications {
                if let number = Int64(notification.payload), number <= state.withLock({ lastSeen.changeBlock }) { continue }
                try await reportLast(connection)
            }
        }
    }

    /// Reads the state on the listening connection and reports it. A read
    /// unanswered within the database's timeout (a connection that died
    /// without a word, half-open) throws ``Silent``, so that the watcher
    /// reconnects rather than wait for the kernel to give up.
    private func reportLast(_ connection: PostgresConnection) async throws {
        let location = database.location
        do {
            report(
                try await LibraryDatabase.withTimeout(database.timeout, location: location) {
                    try await ChangeBlockNumbering.watchedState(connection, location: location)
                })
        } catch let error as PSQLError where ["3F000", "42P01"].contains(error.serverInfo?[.sqlState] ?? "") {
            throw StoreError.removed(path: location.url.absoluteString)
        } catch StoreError.unreachable {
            throw Silent()
        }
    }

    /// The listening connection did not answer in time.
    private struct Silent: Error {}

    /// Calls `onChange` with `current` when it is news after the last
    /// reported, unless stopped; a callback may itself stop the watcher.
    private func report(_ current: WatchedState) {
        reporting.lock()
        defer { reporting.unlock() }
        let isNew = state.withLock {
            guard !stopped, current.isNews(after: lastSeen) else { return false }
            lastSeen = current
            return true
        }
        if isNew { onChange(current) }
    }
}
