import Foundation
import PhotosStore

/// The engine backend the backend-neutral suites run against, chosen by
/// one switch: the environment variable `PHOTOS_TEST_BACKEND` (default
/// `sqlite`). The contract's conformance suite, and the public-API suites
/// through their test libraries, take every library from here, so a new
/// backend runs all of them once it has a case.
package enum TestBackend: String, CaseIterable, Sendable {
    /// A library directory on SQLite, in a temporary folder.
    case sqlite

    /// The backend `PHOTOS_TEST_BACKEND` names. An unknown name stops the
    /// run rather than silently testing the default.
    package static let selected: TestBackend = {
        let name = ProcessInfo.processInfo.environment["PHOTOS_TEST_BACKEND"].flatMap { $0.isEmpty ? nil : $0 } ?? "sqlite"
        guard let backend = TestBackend(rawValue: name) else {
            fatalError("PHOTOS_TEST_BACKEND=\(name) names no backend; known: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return backend
    }()

    /// The location of a new, empty library whose scratch space is `directory`
    /// (which the caller removes afterwards).
    package func newLibraryURL(in directory: URL) -> URL {
        switch self {
        case .sqlite: directory.appendingPathComponent("Test.photoslibrary", isDirectory: true)
        }
    }

    /// Opens (creating it when new) the library at `url` as `client` (nil: the owner).
    package func open(_ url: URL, client: String? = nil) throws -> any PhotoStore {
        try LibraryBackend.open(url, options: StoreOpenOptions(client: client))
    }
}
