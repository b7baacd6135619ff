import Foundation
import PhotosStore

/// The base of asset collections (albums, smart albums, moments) and
/// collection lists (folders, moment lists).
open class PHCollection: PHObject, @unchecked Sendable {
    /// Whether the collection holds assets (asset collections do).
    public var canContainAssets: Bool { false }
    /// Whether the collection holds other collections (collection lists do).
    public var canContainCollections: Bool { false }
    /// The collection's title, as the user sees it.
    public var localizedTitle: String? { nil }

    /// Whether the collection allows an edit.
    public func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool { false }

    /// The row id when the collection is stored in the library.
    var storedRowID: Int64? { nil }
}
