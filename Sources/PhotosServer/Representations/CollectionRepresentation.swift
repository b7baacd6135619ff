import Foundation
import Photos

/// An album, smart album, moment or folder, as the collection routes return it.
struct CollectionRepresentation: Encodable, Sendable {
    enum Kind: String, Encodable, Sendable { case assetCollection, collectionList }

    let id: String
    let localIdentifier: String
    let kind: Kind
    let title: String?
    /// `PHAssetCollectionType` or `PHCollectionListType` by name (`"album"`, `"folder"`).
    let type: String
    /// `PHAssetCollectionSubtype` or `PHCollectionListSubtype` by name (`"recentlyDeleted"`, `"regularFolder"`).
    let subtype: String
    let estimatedAssetCount: Int?
    let startDate: Date?
    let endDate: Date?
    let canContainAssets: Bool
    let canContainCollections: Bool

    init(_ collection: PHCollection) {
        id = ObjectID.urlForm(collection.localIdentifier)
        localIdentifier = collection.localIdentifier
        title = collection.localizedTitle
        canContainAssets = collection.canContainAssets
        canContainCollections = collection.canContainCollections
        if let album = collection as? PHAssetCollection {
            kind = .assetCollection
            type = album.assetCollectionType.name
            subtype = album.assetCollectionSubtype.name
            let estimate = album.estimatedAssetCount
            estimatedAssetCount = estimate == NSNotFound ? nil : estimate
            startDate = album.startDate
            endDate = album.endDate
        } else if let list = collection as? PHCollectionList {
            kind = .collectionList
            type = list.collectionListType.name
            subtype = list.collectionListSubtype.name
            estimatedAssetCount = nil
            startDate = list.startDate
            endDate = list.endDate
        } else {
            kind = .assetCollection
            type = "unknown"
            subtype = "unknown"
            estimatedAssetCount = nil
            startDate = nil
            endDate = nil
        }
    }
}
