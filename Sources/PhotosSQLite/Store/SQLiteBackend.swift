import Foundation
import PhotosStore

/// What ``LibraryBackend`` opens a library directory with (a `file` URL):
/// a ``SQLitePhotoStore`` on its database. Cost: opening the store.
package struct SQLiteBackend: DatabaseBackend {
    package init() {}

    package var schemes: Set<String> { ["file"] }

    package func open(_ url: URL, options: StoreOpenOptions) throws(StoreError) -> any PhotoStore {
        try SQLitePhotoStore(url: url, options: options)
    }
}
