import Foundation
import PhotosStore

/// The password a PostgreSQL library is opened with, from the environment,
/// never from a command line: `PHOTOS_POSTGRES_PASSWORD`, else the first
/// line of the file `PHOTOS_POSTGRES_PASSWORD_FILE` names (for a secret
/// mounted as a file), else libpq's `PGPASSWORD`. An empty variable counts
/// as unset. No password at all suits a server that trusts the connection
/// (a Unix socket's peer, a certificate).
package enum PostgresCredentials {
    /// The variable holding the password itself.
    package static let passwordVariable = "PHOTOS_POSTGRES_PASSWORD"
    /// The variable naming a file whose first line is the password.
    package static let passwordFileVariable = "PHOTOS_POSTGRES_PASSWORD_FILE"

    /// The password the environment gives, if any. Throws `unreachable`
    /// when a named password file cannot be read. Cost: at most one small file read.
    package static func password(
        for location: PostgresLocation,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreError) -> String? {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let password = value(passwordVariable) { return password }
        if let file = value(passwordFileVariable) {
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .unreachable(location: location.url.absoluteString, reason: "cannot read the password file \(file) that \(passwordFileVariable) names")
            }
            let password = contents.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !password.isEmpty else {
                throw .unreachable(location: location.url.absoluteString, reason: "the password file \(file) that \(passwordFileVariable) names is empty")
            }
            return password
        }
        return value("PGPASSWORD")
    }
}
