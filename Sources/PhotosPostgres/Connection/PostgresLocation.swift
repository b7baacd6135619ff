import Foundation
import PhotosStore

/// A library on PostgreSQL, as its URL names it:
///
///     postgres://USER@HOST[:PORT]/DATABASE?library=NAME[&sslmode=MODE][&sslrootcert=FILE]
///     postgres://USER@/DATABASE?host=/run/postgresql&library=NAME      (a Unix socket)
///
/// `library` names the library inside the database; each library lives in
/// a schema of its own, `photos_NAME`, so one database can hold several.
/// A name is data, never SQL: lowercase letters, digits and underscores,
/// starting with a letter, at most 48 characters.
///
/// The password never travels in the URL, which shows in process lists and
/// shell histories: it comes from `PHOTOS_POSTGRES_PASSWORD`, from the file
/// `PHOTOS_POSTGRES_PASSWORD_FILE` names, or from libpq's `PGPASSWORD`, in
/// that order (see ``PostgresCredentials``).
///
/// `sslmode` keeps libpq's meanings: `disable`; `prefer` (the default: TLS
/// when the server offers it, certificate unchecked); `require` (TLS or
/// nothing, certificate unchecked); `verify-ca` (the chain checked against
/// `sslrootcert` or the system's roots); `verify-full` (the host name too).
/// A Unix socket never uses TLS.
package struct PostgresLocation: Sendable, Hashable {
    /// Where the server listens.
    package enum Endpoint: Sendable, Hashable {
        /// A host name or address and its port.
        case tcp(host: String, port: Int)
        /// The socket file itself (`DIR/.s.PGSQL.PORT`).
        case unixSocket(path: String)
    }

    /// How the connection is encrypted, with libpq's names.
    package enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it, its certificate unchecked.
        case prefer
        /// TLS or no connection, the certificate unchecked.
        case require
        /// TLS with the certificate's chain checked.
        case verifyCA = "verify-ca"
        /// TLS with the chain and the host name checked.
        case verifyFull = "verify-full"
    }

    /// The server's address: a host and port, or a Unix socket.
    package var endpoint: Endpoint
    /// The role the library connects as.
    package var user: String
    /// The database holding the library's schema.
    package var database: String
    /// The library's name inside the database.
    package var library: String
    /// How the connection is encrypted (`sslmode`).
    package var tlsMode: TLSMode
    /// The certificates a `verify-ca` or `verify-full` connection trusts
    /// (PEM); the system's roots when nil.
    package var rootCertificatePath: String?

    /// The URL schemes that name a PostgreSQL library.
    package static let schemes: Set<String> = ["postgres", "postgresql"]

    /// The schema the library's tables live in.
    package var schema: String { "photos_\(library)" }
    /// The channel each commit notifies with its change block's number.
    package var channel: String { "photos_\(library)_commits" }

    /// The URL without secrets, as messages and the store's `location` show it.
    package var url: URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.path = "/" + database
        var query = [URLQueryItem(name: "library", value: library)]
        switch endpoint {
        case .tcp(let host, let port):
            components.host = host
            if port != 5432 { components.port = port }
        case .unixSocket(let path):
            components.host = ""
            query.insert(URLQueryItem(name: "host", value: (path as NSString).deletingLastPathComponent), at: 0)
            let port = Int(path.split(separator: ".").last ?? "") ?? 5432
            if port != 5432 { query.insert(URLQueryItem(name: "port", value: String(port)), at: 1) }
        }
        if tlsMode != .prefer, case .tcp = endpoint { query.append(URLQueryItem(name: "sslmode", value: tlsMode.rawValue)) }
        if let rootCertificatePath { query.append(URLQueryItem(name: "sslrootcert", value: rootCertificatePath)) }
        components.queryItems = query
        return components.url!
    }

    /// Reads a library URL; throws `notALibrary` saying what is wrong with it.
    package init(url: URL) throws(StoreError) {
        func refuse(_ reason: String) -> StoreError {
            .notALibrary(path: Self.redacted(url), reason: reason)
        }
        guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw refuse("a PostgreSQL library's URL starts with postgres://")
        }
        if components.password != nil {
            throw refuse(
                "the URL carries a password, which process lists and shell histories would show; "
                    + "give it in PHOTOS_POSTGRES_PASSWORD or in a file named by PHOTOS_POSTGRES_PASSWORD_FILE")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["library", "host", "port", "sslmode", "sslrootcert"].contains(item.name) else {
                throw refuse("unknown parameter \(item.name); the URL takes library, host, port, sslmode and sslrootcert")
            }
            guard parameters[item.name] == nil else { throw refuse("the parameter \(item.name) is given twice") }
            parameters[item.name] = item.value ?? ""
        }
        guard let user = components.user, !user.isEmpty else {
            throw refuse("the URL names no user (postgres://USER@HOST/DATABASE?library=NAME)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw refuse("the URL names no database (postgres://USER@HOST/DATABASE?library=NAME)")
        }
        guard let library = parameters["library"] else {
            throw refuse("the URL names no library: add ?library=NAME")
        }
        guard Self.isValidLibraryName(library) else {
            throw refuse("the library name \(library) is not lowercase letters, digits and underscores starting with a letter, at most 48 characters")
        }
        var port = components.port ?? 5432
        if let given = parameters["port"] {
            guard let number = Int(given), (1...65535).contains(number), components.port == nil || components.port == number else {
                throw refuse("the port \(given) is not a port number, or disagrees with the host's")
            }
            port = number
        }
        let host = components.host ?? ""
        if let socketDirectory = parameters["host"] {
            guard socketDirectory.hasPrefix("/"), host.isEmpty else {
                throw refuse("host= takes the absolute path of a Unix socket's directory, and then the URL names no host (postgres://USER@/DATABASE?host=/DIR)")
            }
            endpoint = .unixSocket(path: (socketDirectory as NSString).appendingPathComponent(".s.PGSQL.\(port)"))
        } else {
            guard !host.isEmpty else { throw refuse("the URL names no host; for a Unix socket give host=/DIR") }
            endpoint = .tcp(host: host, port: port)
        }
        guard let mode = TLSMode(rawValue: parameters["sslmode"] ?? TLSMode.prefer.rawValue) else {
            throw refuse("sslmode \(parameters["sslmode"]!) is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let root = parameters["sslrootcert"], !root.hasPrefix("/") {
            throw refuse("sslrootcert takes an absolute path")
        }
        self.user = user
        self.database = database
        self.library = library
        self.tlsMode = mode
        self.rootCertificatePath = parameters["sslrootcert"]
    }

    static func isValidLibraryName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 48 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// A URL as an error may show it: any password replaced.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = "…"
        return components.string ?? "postgres://…"
    }
}
