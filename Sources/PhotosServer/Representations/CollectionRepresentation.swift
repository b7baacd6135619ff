import Foundation
import Photos

/// An album, smart album, moment or folder, as the collection routes return it.
struct CollectionRepresentation: Encodable, Sendable {
    enum Kind: String, Encodable, Sendable { case assetCollection, collectionList }

    let id: String
    let localIdentifier: String
    let kind: Kind
    let title: String?
    /// `PHAssetCollectionType` or `PHCollectionListType`.
    let type: Int
    /// `PHAssetCollectionSubtype` or `PHCollectionListSubtype`.
    let subtype: Int
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
            type = album.assetCollectionType.rawValue
            subtype = album.assetCollectionSubtype.rawValue
            let estimate = album.estimatedAssetCount
            estimatedAssetCount = estimate == NSNotFound ? nil : estimate
            startDate = album.startDate
            endDate = album.endDate
        } else if let list = collection as? PHCollectionList {
            kind = .collectionList
            type = list.collectionListType.rawValue
            subtype = list.collectionListSubtype.rawValue
            estimatedAssetCount = nil
            startDate = list.startDate
            endDate = list.endDate
        } else {
            kind = .assetCollection
            type = 0
            subtype = 0
            estimatedAssetCount = nil
            startDate = nil
            endDate = nil
        }
    }
}
