import Foundation

/// Whether a collection holds assets or other collections. Raw values are
/// stored (`collection.kind`).
package enum CollectionKind: Int, Sendable, CaseIterable {
    /// An album, smart album or moment (PhotoKit's `PHAssetCollection`).
    case assetCollection = 1
    /// A folder or moment list (PhotoKit's `PHCollectionList`).
    case collectionList = 2

    /// The kind of object this kind of collection is.
    package var entity: StoreEntity {
        switch self {
        case .assetCollection: .assetCollection
        case .collectionList: .collectionList
        }
    }
}

/// What a collection is: one case per kind of collection the engine knows,
/// so that no two of them share a value.
///
/// The `collection` table stores it as two columns, `kind` and `type`, the
/// latter PhotoKit's type raw value within the kind (`PHAssetCollectionType`
/// or `PHCollectionListType`); ``init(kind:storedType:)`` and
/// ``storedType`` convert. Moments and moment lists are computed, never stored.
package enum CollectionType: Sendable, Hashable, CaseIterable {
    /// A regular album the user made.
    case album
    /// An album whose members follow a rule.
    case smartAlbum
    /// Assets taken close together in time and place.
    case moment
    /// A list of moments.
    case momentList
    /// A folder of albums and folders the user made.
    case folder

    package var kind: CollectionKind {
        switch self {
        case .album, .smartAlbum, .moment: .assetCollection
        case .momentList, .folder: .collectionList
        }
    }

    /// The `collection.type` column's value.
    package var storedType: Int {
        switch self {
        case .album: 1
        case .smartAlbum: 2
        case .moment: 3
        case .momentList: 1
        case .folder: 2
        }
    }

    /// The type of a stored row; a type this version does not know reads as
    /// the kind's user collection (an album or a folder).
    package init(kind: CollectionKind, storedType: Int) {
        self =
            Self.allCases.first { $0.kind == kind && $0.storedType == storedType }
            ?? (kind == .assetCollection ? .album : .folder)
    }

    /// Whether the user makes and edits collections of this type (albums and folders).
    package var isUserCollection: Bool { self == .album || self == .folder }

    /// The SQL condition selecting collections of this type from the table aliased `alias`.
    package func condition(_ alias: TableAlias) -> String {
        "(\(alias["kind"]) = \(kind.rawValue) AND \(alias["type"]) = \(storedType))"
    }
}

/// PhotoKit's collection subtype raw values the engine stores or computes
/// itself (smart albums have ``SmartAlbumSubtype``).
package enum CollectionSubtype {
    /// `PHAssetCollectionSubtype.albumRegular`
    package static let albumRegular = 2
    /// `PHCollectionListSubtype.regularFolder`
    package static let regularFolder = 100
    /// `PHCollectionListSubtype.momentListCluster`
    package static let momentListCluster = 1
    /// `PHCollectionListSubtype.momentListYear`
    package static let momentListYear = 2
}
