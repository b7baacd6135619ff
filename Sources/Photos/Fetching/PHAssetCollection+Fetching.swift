import Foundation
import PhotosStore

extension PHAssetCollection {
    /// The asset collections with these identifiers (albums, smart albums
    /// and moments), in the order given unless the options sort them. A bare
    /// UUID, without its `/L0/040` suffix, names the collection too.
    public class func fetchAssetCollections(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        let library = PHPhotoLibrary.current
        return library.fetchCollections(identifiers: identifiers, entity: .assetCollection, options: options) { wanted in
            library.moments.filter { wanted.contains($0.uuid) }.map { PHAssetCollection(moment: $0, library: library) }
        }
    }

    /// The asset collections of a type and subtype (`.any` for all
    /// subtypes): albums, smart albums (Recently Deleted included, with
    /// its own subtype), or moments.
    public class func fetchAssetCollections(
        with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        let library = PHPhotoLibrary.current
        switch type {
        case .album, .smartAlbum:
            return library.fetchCollections(
                scope: .stored(CollectionType(type), subtype: subtype == .any ? nil : subtype.rawValue),
                options: options, as: PHAssetCollection.self)
        case .moment:
            return library.fetchComputed(options: options, as: PHAssetCollection.self) {
                library.moments.map { PHAssetCollection(moment: $0, library: library) }
            }
        }
    }

    /// The albums, or the moment, that hold an asset. Smart albums are not
    /// supported, as in PhotoKit: asking for them gives an empty result.
    public class func fetchAssetCollectionsContaining(
        _ asset: PHAsset, with type: PHAssetCollectionType,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        let library = asset.library ?? PHPhotoLibrary.current
        switch type {
        case .album:
            return library.fetchCollections(
                scope: .albumsContaining(assetRowID: asset.record.id), options: options,
                as: PHAssetCollection.self)
        case .moment:
            guard let date = asset.creationDate else { return PHFetchResult(contents: .empty) }
            return library.fetchComputed(options: options, as: PHAssetCollection.self) {
                library.moments.filter { $0.startDate <= date && date <= $0.endDate }.map { PHAssetCollection(moment: $0, library: library) }
            }
        case .smartAlbum:
            return PHFetchResult(contents: .empty)
        }
    }

    /// The moments of a moment list.
    @available(*, deprecated, message: "Moments are deprecated by Apple; OpenPhotoKit still computes them")
    public class func fetchMoments(inMomentList momentList: PHCollectionList, options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        PHCollection.fetchCollections(in: momentList, options: options).viewed(as: PHAssetCollection.self)
    }

    /// Every moment of the library, oldest first unless sorted. A moment
    /// groups the assets of the user's library taken less than four hours
    /// apart and within 10 km of each other.
    @available(*, deprecated, message: "Moments are deprecated by Apple; OpenPhotoKit still computes them")
    public class func fetchMoments(with options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        fetchAssetCollections(with: .moment, subtype: .any, options: options)
    }

    /// A collection of the given assets that lives only in memory; fetching
    /// its assets returns them in this order.
    public class func transientAssetCollection(with assets: [PHAsset], title: String?) -> PHAssetCollection {
        let dates = assets.compactMap(\.creationDate)
        return PHAssetCollection(
            content: .transient(assetRowIDs: assets.map(\.record.id), title: title, startDate: dates.min(), endDate: dates.max()),
            localIdentifier: LocalIdentifier.make(.assetCollection).description,
            library: assets.first?.library)
    }

    /// A collection of a fetch result's assets that lives only in memory.
    public class func transientAssetCollection(withAssetFetchResult fetchResult: PHFetchResult<PHAsset>, title: String?) -> PHAssetCollection {
        transientAssetCollection(with: fetchResult.allObjects, title: title)
    }
}
