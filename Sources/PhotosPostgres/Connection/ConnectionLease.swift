import Foundation
import PhotosStore
import PostgresNIO
import Synchronization

/// A connection taken from the pool for synchronous work: a task holds
/// the pool's `withConnection` open, suspended, while the calling thread
/// runs statements on the connection, and gives it back when told.
final class ConnectionLease: Sendable {
    private enum State {
        case waiting
        case leased(PostgresConnection, CheckedContinuation<Void, Never>)
        case failed(any Error)
        /// The caller gave up (timeout) or finished: a connection arriving now goes straight back.
        case returned
    }

    private let state = Mutex<State>(.waiting)
    private let ready = DispatchSemaphore(value: 0)

    /// Takes a connection from `client`, waiting at most `timeout` for one
    /// (the pool waits without end while the server is down).
    static func take(from client: PostgresClient, location: PostgresLocation, timeout: Duration) throws(StoreError) -> (PostgresConnection, ConnectionLease) {
        let lease = ConnectionLease()
        Task(executorPreference: DispatchTaskExecutor.shared) {
            do {
                try await client.withConnection { connection in
                    await withCheckedContinuation { (giveBack: CheckedContinuation<Void, Never>) in
                        let keep = lease.state.withLock { state -> Bool in
                            guard case .waiting = state else { return false }
                            state = .leased(connection, giveBack)
                            return true
                        }
                        if keep { lease.ready.signal() } else { giveBack.resume() }
                    }
                }
            } catch {
                let report = lease.state.withLock { state -> Bool in
                    guard case .waiting = state else { return false }
                    state = .failed(error)
                    return true
                }
                if report { lease.ready.signal() }
            }
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if lease.ready.wait(timeout: .now() + seconds) == .timedOut {
            lease.giveBack()
            throw .unreachable(location: location.url.absoluteString, reason: "no connection within \(timeout.components.seconds) s")
        }
        switch lease.state.withLock({ $0 }) {
        case .leased(let connection, _):
            return (connection, lease)
        case .failed(let error):
            throw StoreError(postgres: error, location: location)
        case .waiting, .returned:
            throw .unreachable(location: location.url.absoluteString, reason: "the pool gave no connection")
        }
    }

    /// Returns the connection to the pool. Safe to call twice.
    func giveBack() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .returned }
            if case .leased(_, let continuation) = state { return continuation }
            return nil
        }
        continuation?.resume()
    }
}
