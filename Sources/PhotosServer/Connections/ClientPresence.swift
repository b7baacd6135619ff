import Synchronization

/// Whether each connection's client is still there: set gone when it
/// closes its side (``ConnectionLifecycleHandler``), read by blocking work
/// done for one of its requests, which stops rather than compute an answer
/// nobody will read. Found by the connection's identity, without a hop to
/// its event loop.
final class ClientPresence: Sendable {
    /// One connection's client.
    final class Client: Sendable {
        private let gone = Atomic(false)
        var isGone: Bool { gone.load(ordering: .relaxed) }
        func leave() { gone.store(true, ordering: .relaxed) }
    }

    static let shared = ClientPresence()
    private let clients = Mutex<[ObjectIdentifier: Client]>([:])

    func register(_ connection: ObjectIdentifier) -> Client {
        let client = Client()
        clients.withLock { $0[connection] = client }
        return client
    }

    func unregister(_ connection: ObjectIdentifier) {
        clients.withLock { $0[connection] = nil }
    }

    /// The client of a connection; nil when it is not registered (closed).
    func client(of connection: ObjectIdentifier) -> Client? {
        clients.withLock { $0[connection] }
    }
}
