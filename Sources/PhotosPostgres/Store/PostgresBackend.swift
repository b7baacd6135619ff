import Foundation
import PhotosStore

/// The PostgreSQL backend as ``LibraryBackend`` chooses it: for
/// `postgres://` and `postgresql://` library URLs.
package struct PostgresBackend: DatabaseBackend {
    /// The backend; it holds nothing until it opens a library.
    package init() {}

    package var schemes: Set<String> { PostgresLocation.schemes }

    package func open(_ url: URL, options: StoreOpenOptions) throws(StoreError) -> any PhotoStore {
        try PostgresPhotoStore(url: url, options: options)
    }
}
