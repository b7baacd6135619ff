import Foundation
import PhotosStore

/// The PostgreSQL backend as ``LibraryBackend`` chooses it: for
/// `postgres://` and `postgresql://` library URLs.
package struct PostgresBackend: DatabaseBackend {
    package init() {}

    package var schemes: Set<String> { PostgresLocation.schemes }

    package func open(_ url: URL, options: StoreOpenOptions) throws(StoreError) -> any PhotoStore {
        try PostgresPhotoStore(url: url, options: options)
    }
}
