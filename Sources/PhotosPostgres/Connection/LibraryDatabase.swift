import Foundation
import Logging
import NIOCore
import NIOSSL
import PhotosStore
import PostgresNIO

/// A process's connections to one PostgreSQL library: the engine's
/// synchronous transactions (``SyncConnectionPool``), a `PostgresClient`
/// pool for async work (schema migrations, the commit watcher's re-reads),
/// and the configuration the commit listener opens its own connection with. The engine's contract is
/// synchronous, so each operation runs its async work through `Blocking`
/// and waits; every failure arrives as a typed ``StoreError``.
///
/// Every connection's `search_path` is the library's schema.
///
/// Transactions: a write runs in `READ COMMITTED` and orders itself against
/// other writers where it must (see ``ChangeBlockNumbering``); a read runs
/// in one `REPEATABLE READ READ ONLY` snapshot, so what it reports (ids and
/// the change block they reflect) is one state of the library.
package final class LibraryDatabase: Sendable {
    /// The library these connections reach.
    package let location: PostgresLocation
    /// How long an operation may wait for a connection and its statements
    /// before it is given up as `unreachable`.
    package let timeout: Duration
    let client: PostgresClient
    let connectionConfiguration: PostgresConnection.Configuration
    /// The connections of the engine's synchronous transactions.
    let transactions: SyncConnectionPool
    private let runner: Task<Void, Never>

    /// Connects to the server the location names and checks that it
    /// answers, so that a wrong address, password or TLS setting is
    /// reported here, not at the first fetch. Cost: one connection set up
    /// and closed; the pool then opens connections as they are needed.
    package init(location: PostgresLocation, password: String?, timeout: Duration = .seconds(30)) throws(StoreError) {
        self.location = location
        self.timeout = timeout
        let tls = try Self.tls(for: location)
        var poolConfiguration: PostgresClient.Configuration
        var connectionConfiguration: PostgresConnection.Configuration
        switch location.endpoint {
        case .tcp(let host, let port):
            poolConfiguration = .init(
                host: host, port: port, username: location.user, password: password,
                database: location.database, tls: tls.pool)
            connectionConfiguration = .init(
                host: host, port: port, username: location.user, password: password,
                database: location.database, tls: tls.connection)
        case .unixSocket(let path):
            poolConfiguration = .init(unixSocketPath: path, username: location.user, password: password, database: location.database)
            connectionConfiguration = .init(unixSocketPath: path, username: location.user, password: password, database: location.database)
        }
        poolConfiguration.options.connectTimeout = .seconds(10)
        poolConfiguration.options.maximumConnections = 8
        // Every connection resolves the library's tables in its schema, so
        // statements name them as the SQLite library does.
        let startup = [("application_name", "openphotokit"), ("search_path", "\"\(location.schema)\"")]
        poolConfiguration.options.additionalStartupParameters = startup
        connectionConfiguration.options.additionalStartupParameters = startup
        self.connectionConfiguration = connectionConfiguration
        transactions = SyncConnectionPool(configuration: connectionConfiguration, location: location)
        let client = PostgresClient(configuration: poolConfiguration)
        self.client = client
        runner = Task(executorPreference: DispatchTaskExecutor.shared) { await client.run() }
        do {
            try Self.probe(location: location, configuration: connectionConfiguration)
        } catch {
            runner.cancel()
            throw error
        }
    }

    /// Stops the pool, closing its connections.
    deinit {
        runner.cancel()
    }

    /// Runs `work` in one read-write transaction on a pooled connection and
    /// commits it. When `work` throws, the transaction is rolled back and
    /// its error rethrown as a `StoreError`.
    @discardableResult
    package func write<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) throws(StoreError) -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED", work)
    }

    /// Runs `work` in one read-only snapshot (`REPEATABLE READ`).
    package func read<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) throws(StoreError) -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work)
    }

    private func transaction<T: Sendable>(begin: String, _ work: @escaping @Sendable (PostgresConnection) async throws -> T) throws(StoreError) -> T {
        let location = location
        let timeout = timeout
        let client = client
        return try Blocking.run { () async throws(StoreError) -> T in
            do {
                return try await Self.withTimeout(timeout, location: location) {
                    try await client.withConnection { connection in
                        try await connection.run(PostgresQuery(unsafeSQL: begin))
                        do {
                            let value = try await work(connection)
                            try await connection.run("COMMIT")
                            return value
                        } catch {
                            _ = try? await connection.run("ROLLBACK")
                            throw error
                        }
                    }
                }
            } catch {
                throw StoreError(postgres: error, location: location)
            }
        }
    }

    /// Runs `work`, giving up after `timeout` with `unreachable` (the pool
    /// waits for a connection while the server is down, without end).
    static func withTimeout<T: Sendable>(
        _ timeout: Duration, location: PostgresLocation,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw StoreError.unreachable(
                    location: location.url.absoluteString,
                    reason: "no answer within \(timeout.components.seconds) s")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// One connection opened and closed, to report a bad address, password
    /// or TLS setting at once.
    private static func probe(location: PostgresLocation, configuration: PostgresConnection.Configuration) throws(StoreError) {
        try Blocking.run { () async throws(StoreError) in
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: quiet)
                try? await connection.close()
            } catch {
                throw StoreError(postgres: error, location: location)
            }
        }
    }

    /// A logger that drops everything: failures reach callers as errors.
    static let quiet = Logger(label: "photos.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The pool's and the listener's TLS settings for a location's `sslmode`.
    private static func tls(
        for location: PostgresLocation
    ) throws(StoreError) -> (
        pool: PostgresClient.Configuration.TLS,
        connection: PostgresConnection.Configuration.TLS
    ) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch location.tlsMode {
        case .disable:
            return (.disable, .disable)
        case .prefer, .require:
            configuration.certificateVerification = .none
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        if let root = location.rootCertificatePath {
            configuration.trustRoots = .file(root)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .unreachable(location: location.url.absoluteString, reason: "cannot set up TLS: \(error)")
        }
        return location.tlsMode == .prefer
            ? (.prefer(configuration), .prefer(context))
            : (.require(configuration), .require(context))
    }
}

extension StoreError {
    /// The typed error a PostgreSQL failure is, by its SQLSTATE code and
    /// postgres-nio's error code, never by message text.
    init(postgres error: any Error, location: PostgresLocation) {
        let place = location.url.absoluteString
        switch error {
        case let error as StoreError:
            self = error
        case let error as StoredValueError:
            self = .damaged(path: place, reason: error.description)
        case let error as PostgresTransactionError:
            self.init(postgres: error.closureError ?? error.commitError ?? error.beginError ?? error, location: location)
        case let error as PSQLError:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            switch (error.code, state) {
            case (.server, "40001"), (.server, "40P01"), (.server, "55P03"):
                self = .busy("PostgreSQL: \(message)")
            case (.server, "53100"):
                self = .diskFull(path: place)
            case (.server, "25006"):
                self = .readOnly(path: place, reason: message)
            case (.server, "57014") where StatementBudget.current != nil:
                // statement_timeout, set from the thread's budget (see LibraryDatabase.transaction).
                let budget = StatementBudget.current!
                budget.record(.deadline)
                self = .stopped(budget)
            case (.server, let state) where state.hasPrefix("08") || state.hasPrefix("28") || state.hasPrefix("57P") || state == "3D000" || state == "53300":
                self = .unreachable(location: place, reason: message)
            case (.server, _):
                self = .database("PostgreSQL: \(message) (SQLSTATE \(state))")
            case (.sslUnsupported, _):
                self = .unreachable(location: place, reason: "the server does not offer TLS, which sslmode=\(location.tlsMode.rawValue) requires")
            case (.connectionError, _), (.serverClosedConnection, _), (.clientClosedConnection, _), (.poolClosed, _),
                (.failedToAddSSLHandler, _), (.uncleanShutdown, _), (.authMechanismRequiresPassword, _),
                (.unsupportedAuthMechanism, _), (.saslError, _):
                let reason =
                    error.code == .authMechanismRequiresPassword
                    ? "the server asks for a password: set \(PostgresCredentials.passwordVariable) or \(PostgresCredentials.passwordFileVariable)"
                    : error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
                self = .unreachable(location: place, reason: reason)
            default:
                self = .database("PostgreSQL: \(message)")
            }
        case is CancellationError:
            self = .unreachable(location: place, reason: "the operation was cancelled")
        default:
            self = .unreachable(location: place, reason: String(describing: error))
        }
    }
}
