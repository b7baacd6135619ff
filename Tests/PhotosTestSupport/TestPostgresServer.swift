import Foundation

/// The PostgreSQL server `script/services` starts, from the variables it
/// writes: a Unix socket that trusts the `postgres` user, and the role
/// `photos_password`, which must give its password.
package struct TestPostgresServer: Sendable {
    /// The socket file (`DIR/.s.PGSQL.5432`).
    package let socket: String
    /// The password of the role `photos_password`.
    package let password: String?

    package static let current: TestPostgresServer? = {
        let environment = ProcessInfo.processInfo.environment
        guard let socket = environment["PHOTOS_TEST_POSTGRES_SOCKET"], !socket.isEmpty else { return nil }
        return TestPostgresServer(socket: socket, password: environment["PHOTOS_TEST_POSTGRES_PASSWORD"])
    }()

    /// The socket's directory, as a URL's `host=` gives it.
    package var socketDirectory: String { (socket as NSString).deletingLastPathComponent }

    /// The URL of a new library (not yet created) with a unique name.
    package func newLibraryURL(user: String = "postgres") -> URL {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        return URL(string: "postgres://\(user)@/postgres?host=\(socketDirectory)&library=\(name)")!
    }
}
