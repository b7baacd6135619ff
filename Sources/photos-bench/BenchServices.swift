import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server and the S3-compatible server the `postgres` suite
/// runs against: those `script/services` starts, found by the variables it
/// writes (`PHOTOS_TEST_POSTGRES_SOCKET`, `PHOTOS_TEST_S3_*`).
struct BenchServices {
    /// The directory of PostgreSQL's Unix socket.
    let socketDirectory: String
    let s3Endpoint: String
    let s3AccessKey: String
    let s3SecretKey: String

    /// The servers the environment names, or nil when it names none.
    static func fromEnvironment() -> BenchServices? {
        let environment = ProcessInfo.processInfo.environment
        guard let socket = environment["PHOTOS_TEST_POSTGRES_SOCKET"], !socket.isEmpty,
            let endpoint = environment["PHOTOS_TEST_S3_ENDPOINT"], let key = environment["PHOTOS_TEST_S3_ACCESS_KEY"],
            let secret = environment["PHOTOS_TEST_S3_SECRET_KEY"]
        else { return nil }
        return BenchServices(
            socketDirectory: (socket as NSString).deletingLastPathComponent,
            s3Endpoint: endpoint, s3AccessKey: key, s3SecretKey: secret)
    }

    /// The URL of the PostgreSQL library `name`, as the `postgres` user on the socket.
    func libraryURL(_ name: String) -> URL {
        URL(string: "postgres://postgres@/postgres?host=\(socketDirectory)&library=\(name)")!
    }

    /// A connection of the baseline's own, its `search_path` the library's
    /// schema (`photos_NAME`), as an application that knows the tables would open.
    func connect(library name: String) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            unixSocketPath: socketDirectory + "/.s.PGSQL.5432", username: "postgres", password: nil, database: "postgres")
        configuration.options.additionalStartupParameters = [("search_path", "photos_\(name)")]
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.quiet)
    }

    /// Runs `body` on a new ``connect(library:)`` connection, closed afterwards whatever happens.
    func withConnection<T>(library name: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await connect(library: name)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static let quiet = Logger(label: "photos-bench.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}
