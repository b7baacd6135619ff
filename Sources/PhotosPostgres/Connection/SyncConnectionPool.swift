import Foundation
import NIOCore
import NIOPosix
import PhotosStore
import PostgresNIO
import Synchronization

/// The connections a store's synchronous transactions run on: opened with
/// NIO's futures and waited for on the calling thread, so that taking one
/// needs no task executor. (Leasing from `PostgresClient` needs its tasks
/// to run, and the threads that would run them may be the very ones
/// waiting: an engine call made from a server's handler or a dispatch
/// queue blocks its thread.)
///
/// At most ``maximum`` connections are open; a caller waits for a free one
/// at most the given timeout. A connection that failed, or whose
/// transaction did not end cleanly, is closed rather than reused.
final class SyncConnectionPool: @unchecked Sendable {
    /// The most connections open at once.
    let maximum: Int
    private let configuration: PostgresConnection.Configuration
    private let location: PostgresLocation
    /// Guards `idle` and `open`, and wakes a caller waiting for a connection.
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    /// Connections open, idle or taken.
    private var open = 0
    private let nextID = Atomic<Int>(1)

    init(configuration: PostgresConnection.Configuration, location: PostgresLocation, maximum: Int = 8) {
        self.configuration = configuration
        self.location = location
        self.maximum = maximum
    }

    deinit {
        idle.forEach(Self.close)
    }

    /// An idle connection, or a new one; waits at most `timeout` for a free
    /// one. Cost: nothing when one is idle; else one connection set up.
    func take(timeout: Duration) throws(StoreError) -> PostgresConnection {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        while true {
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    condition.unlock()
                    return connection
                }
                open -= 1
            }
            if open < maximum { break }
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw .unreachable(
                    location: location.url.absoluteString,
                    reason: "all \(maximum) of this process's connections stayed busy for \(timeout.components.seconds) s")
            }
        }
        open += 1
        condition.unlock()
        do {
            let id = nextID.add(1, ordering: .relaxed).oldValue
            let connecting = PostgresConnection.connect(
                on: Self.loop(id), configuration: configuration,
                id: id, logger: LibraryDatabase.quiet)
            // One that comes after the deadline is closed as it arrives.
            return try connecting.wait(atMost: timeout, location: location, what: "a new connection") {
                connecting.whenSuccess(Self.close)
            }
        } catch {
            release()
            throw StoreError(postgres: error, location: location)
        }
    }

    /// The event loop the pool's connection number `id` runs on: the
    /// group's loops in turn, so that connections reading rows at once
    /// decode them on different threads. (The group's own turn-taking,
    /// `any()`, is shared with every other user of the group, which can
    /// leave all of the pool's connections on one loop.)
    private static func loop(_ id: Int) -> any EventLoop {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        return loops[id % loops.count]
    }

    /// Gives a connection back: kept for the next caller when its last
    /// transaction ended cleanly, closed otherwise.
    func giveBack(_ connection: PostgresConnection, reusable: Bool) {
        if reusable && !connection.isClosed {
            condition.lock()
            idle.append(connection)
            condition.signal()
            condition.unlock()
        } else {
            Self.close(connection)
            release()
        }
    }

    /// Closes a connection, keeping it until it is closed (postgres-nio
    /// requires a connection to be closed before it is released).
    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Counts a connection as no longer open and wakes a waiting caller.
    private func release() {
        condition.lock()
        open -= 1
        condition.signal()
        condition.unlock()
    }
}
