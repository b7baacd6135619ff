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

    package init(createIfNeeded: Bool = true, allowsUnsafeLocation: Bool = false, client: String? = nil) {
        self.createIfNeeded = createIfNeeded
        self.allowsUnsafeLocation = allowsUnsafeLocation
        self.client = client
    }
}

/// Chooses the engine backend a library's location names, the one place
/// that does: `PHPhotoLibrary(url:)`, the `photos` command and the server
/// all open libraries here. A file URL is a library directory on SQLite
/// (``SQLitePhotoStore``); a new backend adds its URL scheme.
package enum LibraryBackend {
    /// Opens, or creates when allowed, the library at `url`.
    /// Throws `notALibrary` for a location no backend serves.
    package static func open(_ url: URL, options: StoreOpenOptions = StoreOpenOptions()) throws(StoreError) -> any PhotoStore {
        guard url.isFileURL else {
            throw .notALibrary(path: url.absoluteString, reason: "no library backend serves \(url.scheme ?? "this kind of") locations; a library is a directory")
        }
        return try SQLitePhotoStore(url: url, options: options)
    }
}
