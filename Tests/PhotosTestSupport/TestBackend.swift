import Foundation
import PhotosObjectStorage
import PhotosPostgres
import PhotosSQLite
import PhotosStore

/// The engine backend the backend-neutral suites run against, chosen by
/// one switch: the environment variable `PHOTOS_TEST_BACKEND` (default
/// `sqlite`). The contract's conformance suite runs on every backend
/// ``available``; the public-API suites, through their test libraries,
/// run on the one selected, so a new backend runs all of them once it has
/// a case here.
package enum TestBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A library directory on SQLite, in a temporary folder.
    case sqlite
    /// SQLite, with the originals in S3-compatible object storage: a new
    /// bucket of the server `script/services` starts, per library.
    case sqliteObjectStorage = "sqlite-s3"
    /// PostgreSQL (the server `script/services` starts, a new library per
    /// test), with the originals in a directory, as servers sharing one
    /// mount keep them.
    case postgres
    /// PostgreSQL, with the originals in object storage: what several
    /// servers without a shared mount run on.
    case postgresObjectStorage = "postgres-s3"

    package var description: String { rawValue }

    /// The backend `PHOTOS_TEST_BACKEND` names. An unknown name stops the
    /// run rather than silently testing the default.
    package static let selected: TestBackend = {
        let name = ProcessInfo.processInfo.environment["PHOTOS_TEST_BACKEND"].flatMap { $0.isEmpty ? nil : $0 } ?? "sqlite"
        guard let backend = TestBackend(rawValue: name) else {
            fatalError("PHOTOS_TEST_BACKEND=\(name) names no backend; known: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return backend
    }()

    /// The backends whose servers this run has: SQLite always, the others
    /// when `script/services` runs (as `script/test` makes sure).
    package static var available: [TestBackend] {
        allCases.filter { backend in
            switch backend {
            case .sqlite: true
            case .sqliteObjectStorage: TestObjectStorageServer.current != nil
            case .postgres: TestPostgresServer.current != nil
            case .postgresObjectStorage: TestPostgresServer.current != nil && TestObjectStorageServer.current != nil
            }
        }
    }

    /// The backends the run says it expects (`PHOTOS_TEST_EXPECTED_BACKENDS`,
    /// names apart by spaces), whose absence fails it; none by default.
    package static var expected: [String] {
        (ProcessInfo.processInfo.environment["PHOTOS_TEST_EXPECTED_BACKENDS"] ?? "").split(separator: " ").map(String.init)
    }

    /// Whether a library keeps its originals in its own directory, where
    /// the tests of that directory's files (reading, damaging or deleting
    /// them) apply.
    package var keepsOriginalsInItsDirectory: Bool { self == .sqlite }

    /// Whether the catalogue is an SQLite file in the library's directory,
    /// which the tests of SQLite's own files (its log, its pages, a copy
    /// of the directory) damage or copy.
    package var isSQLite: Bool { self == .sqlite || self == .sqliteObjectStorage }

    /// The location of a new, empty library whose scratch space is `directory`
    /// (which the caller removes afterwards).
    package func newLibraryURL(in directory: URL) -> URL {
        switch self {
        case .sqlite, .sqliteObjectStorage:
            return directory.appendingPathComponent("Test.photoslibrary", isDirectory: true)
        case .postgres, .postgresObjectStorage:
            guard let server = TestPostgresServer.current else {
                fatalError("PHOTOS_TEST_BACKEND=\(rawValue) needs the PostgreSQL server script/services starts")
            }
            return server.newLibraryURL()
        }
    }

    /// Where a new library of this backend, whose scratch space is
    /// `directory`, keeps its originals: nil for its own directory, a new
    /// bucket, or a directory beside it.
    package func newOriginals(in directory: URL) throws -> URL? {
        switch self {
        case .sqlite: return nil
        case .postgres: return directory.appendingPathComponent("library-files", isDirectory: true)
        case .sqliteObjectStorage, .postgresObjectStorage:
            guard let server = TestObjectStorageServer.current else {
                throw StoreError.fileSystem("PHOTOS_TEST_BACKEND=\(rawValue) needs the S3 server script/services starts")
            }
            return try server.newBucket()
        }
    }

    /// Opens (creating it when new, with `originals`) the library at `url` as `client` (nil: the owner).
    package func open(_ url: URL, client: String? = nil, originals: URL? = nil) throws -> any PhotoStore {
        try LibraryBackend.open(
            url,
            options: StoreOpenOptions(
                client: client, originals: originals?.absoluteString,
                fileStorage: StorageOpener(), databases: [SQLiteBackend(), PostgresBackend()]))
    }
}

/// The S3 server `script/services` starts, from the variables it writes;
/// the library under test reads the same credentials from the environment
/// as a user's would.
package struct TestObjectStorageServer: Sendable {
    package let endpoint: URL
    package let credentials: StorageCredentials

    package static let current: TestObjectStorageServer? = {
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint = environment["PHOTOS_TEST_S3_ENDPOINT"].flatMap(URL.init(string:)),
            let key = environment["PHOTOS_TEST_S3_ACCESS_KEY"], let secret = environment["PHOTOS_TEST_S3_SECRET_KEY"]
        else { return nil }
        setenv("PHOTOS_S3_ACCESS_KEY_ID", key, 1)
        setenv("PHOTOS_S3_SECRET_ACCESS_KEY", secret, 1)
        return TestObjectStorageServer(endpoint: endpoint, credentials: StorageCredentials(accessKeyID: key, secretAccessKey: secret))
    }()

    /// A client of a new bucket, its objects under `prefix`.
    package func newBucketClient(prefix: String = "library", partSize: Int = 16 << 20) throws -> S3Client {
        let location = S3Location(endpoint: endpoint, bucket: "photos-\(UUID().uuidString.lowercased())", prefix: prefix)
        let client = S3Client(location: location, credentials: credentials, partSize: partSize)
        try Blocking.run { () async throws(ObjectStorageError) in try await client.createBucket() }
        return client
    }

    /// The location of a new bucket, as a library names its originals.
    package func newBucket() throws -> URL {
        URL(string: try newBucketClient().location.description)!
    }
}
