import Foundation

/// Options for opening a library, whatever its backend.
package struct StoreOpenOptions: Sendable {
    /// Create the library when it is missing (an empty or missing directory).
    package var createIfNeeded = true
    /// Open even on a network or FUSE file system or inside a synced folder.
    package var allowsUnsafeLocation = false
    /// How long a writer waits for another process's write to finish.
    package var busyTimeout: TimeInterval = 30
    /// The client this process acts for; nil for the library's owner.
    package var client: String?
    /// Off only in benchmarks that measure what history costs: change
    /// blocks then leave no object changes for observers or history.
    package var writesHistoryEntries = true
    /// Where a new library keeps its originals, when not in its own
    /// directory (an object storage location, `s3://…`). Recorded in the
    /// library when it is created; an existing library must name the same
    /// place or none.
    package var originals: String?
    /// Makes the library's file storage for the place its originals are
    /// recorded in. The default serves only the library's own directory.
    package var fileStorage: any FileStorageOpener = LocalFileStorage.Opener()

    /// The backends the program links, each opening the libraries of its
    /// URL schemes (`file` for a library directory, on SQLite; `postgres`).
    /// The engine knows none itself; the layer above passes those it links.
    package var databases: [any DatabaseBackend] = []

    package init(
        createIfNeeded: Bool = true, allowsUnsafeLocation: Bool = false, client: String? = nil,
        originals: String? = nil, fileStorage: any FileStorageOpener = LocalFileStorage.Opener(),
        databases: [any DatabaseBackend] = []
    ) {
        self.createIfNeeded = createIfNeeded
        self.allowsUnsafeLocation = allowsUnsafeLocation
        self.client = client
        self.originals = originals
        self.fileStorage = fileStorage
        self.databases = databases
    }
}

/// Opens a library's file storage from where its originals are recorded to
/// be: nil for the library's own directory, or a location (`s3://…`) that
/// a storage module serves. The engine cannot know every storage, so the
/// layer above passes the opener that knows them all.
package protocol FileStorageOpener: Sendable {
    /// The storage for a library in `layout` whose originals are at
    /// `originals`. Throws `notALibrary` for a location it does not serve,
    /// and what reaching the storage failed with.
    func open(layout: LibraryLayout, originals: String?) throws(StoreError) -> any LibraryFileStorage
}

/// A backend, which opens the libraries at the URLs of its schemes.
package protocol DatabaseBackend: Sendable {
    /// The URL schemes it serves, lowercase (`file` for directories).
    var schemes: Set<String> { get }
    /// Opens, or creates when allowed, the library at `url`.
    func open(_ url: URL, options: StoreOpenOptions) throws(StoreError) -> any PhotoStore
}

/// Chooses the engine backend a library's location names, the one place
/// that does: `PHPhotoLibrary(url:)`, the `photos` command and the server
/// all open libraries here. A location goes to the backend among
/// ``StoreOpenOptions/databases`` that serves its scheme: a directory's
/// (`file`) to SQLite's, `postgres://…` to PostgreSQL's.
package enum LibraryBackend {
    /// Opens, or creates when allowed, the library at `url`.
    /// Throws `notALibrary` for a location no backend serves.
    package static func open(_ url: URL, options: StoreOpenOptions = StoreOpenOptions()) throws(StoreError) -> any PhotoStore {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let backend = options.databases.first(where: { $0.schemes.contains(scheme) }) else {
            let known = options.databases.flatMap(\.schemes).sorted().map { $0 == "file" ? "a directory" : "\($0)://…" }
            throw .notALibrary(
                path: url.isFileURL ? url.path : url.absoluteString,
                reason: "no library backend serves \(scheme.isEmpty ? "this kind of" : scheme + "://") locations; a library is "
                    + (known.isEmpty ? "nothing this program can open" : known.joined(separator: ", ")))
        }
        return try backend.open(url, options: options)
    }
}
