import Foundation
import Photos

/// An album, smart album, moment or folder, as the collection routes return
/// it: the document's `Collection` schema, filled from a `PHCollection`.
struct CollectionRepresentation: Encodable, Sendable {
    /// The collection as the document's schema has it.
    let schema: Components.Schemas.Collection

    init(_ collection: PHCollection) {
        let id = ObjectID.urlForm(collection.localIdentifier)
        if let album = collection as? PHAssetCollection {
            let estimate = album.estimatedAssetCount
            schema = .init(
                id: id, localIdentifier: collection.localIdentifier, kind: .assetCollection, title: collection.localizedTitle,
                _type: .init(named: album.assetCollectionType.name, or: .unknown),
                subtype: .init(named: album.assetCollectionSubtype.name, or: .unknown),
                estimatedAssetCount: estimate == NSNotFound ? nil : estimate, startDate: album.startDate, endDate: album.endDate,
                canContainAssets: collection.canContainAssets, canContainCollections: collection.canContainCollections)
        } else if let list = collection as? PHCollectionList {
            schema = .init(
                id: id, localIdentifier: collection.localIdentifier, kind: .collectionList, title: collection.localizedTitle,
                _type: .init(named: list.collectionListType.name, or: .unknown),
                subtype: .init(named: list.collectionListSubtype.name, or: .unknown),
                estimatedAssetCount: nil, startDate: list.startDate, endDate: list.endDate,
                canContainAssets: collection.canContainAssets, canContainCollections: collection.canContainCollections)
        } else {
            schema = .init(
                id: id, localIdentifier: collection.localIdentifier, kind: .assetCollection, title: collection.localizedTitle,
                _type: .unknown, subtype: .unknown, canContainAssets: collection.canContainAssets,
                canContainCollections: collection.canContainCollections)
        }
    }

    func encode(to encoder: any Encoder) throws {
        try schema.encode(to: encoder)
    }
}
