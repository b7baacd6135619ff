import Foundation
import PhotosStore

extension PHCollectionList {
    /// The folder that holds a collection, or the moment lists that hold a moment.
    public class func fetchCollectionListsContaining(_ collection: PHCollection, options: PHFetchOptions?) -> PHFetchResult<PHCollectionList> {
        let library = collection.library ?? PHPhotoLibrary.current
        if let rowID = collection.storedRowID {
            return library.fetchCollections(scope: .parent(ofRowID: rowID), options: options, as: PHCollectionList.self)
        }
        guard let moment = collection as? PHAssetCollection, case .moment(let record) = moment.content else {
            return PHFetchResult(contents: .empty)
        }
        return library.fetchComputed(options: options, as: PHCollectionList.self) {
            library.momentLists(subtype: .any).filter { $0.momentUUIDs.contains(record.uuid) }
                .map { PHCollectionList(momentList: $0, library: library) }
        }
    }

    /// The collection lists with these identifiers (folders and moment
    /// lists), in the order given unless the options sort them. A bare
    /// UUID, without its `/L0/020` suffix, names the list too.
    public class func fetchCollectionLists(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHCollectionList> {
        let library = PHPhotoLibrary.current
        return library.fetchCollections(identifiers: identifiers, entity: .collectionList, options: options) { wanted in
            library.momentLists(subtype: .any).filter { wanted.contains($0.uuid) }.map { PHCollectionList(momentList: $0, library: library) }
                + [PHCollectionList.rootFolder(of: library)].compactMap { $0 }.filter { wanted.contains($0.parsedIdentifier?.uuid ?? "") }
        }
    }

    /// Collection lists of a type: folders (`.regularFolder` or `.any`),
    /// moment lists (`.momentListYear`, `.momentListCluster` or `.any`).
    /// The library makes no smart folders, so that type gives an empty result.
    public class func fetchCollectionLists(
        with collectionListType: PHCollectionListType, subtype: PHCollectionListSubtype,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        let library = PHPhotoLibrary.current
        switch collectionListType {
        case .folder where subtype == .rootFolder:
            return library.fetchComputed(options: options, as: PHCollectionList.self) {
                [PHCollectionList.rootFolder(of: library)].compactMap { $0 }
            }
        case .folder:
            return library.fetchCollections(
                scope: .stored(.folder, subtype: subtype == .any ? nil : subtype.rawValue),
                options: options, as: PHCollectionList.self)
        case .momentList:
            return library.fetchComputed(options: options, as: PHCollectionList.self) {
                library.momentLists(subtype: subtype).map { PHCollectionList(momentList: $0, library: library) }
            }
        case .smartFolder:
            return PHFetchResult(contents: .empty)
        }
    }

    /// The moment lists of a subtype that hold a moment.
    @available(*, deprecated, message: "Moments are deprecated by Apple; OpenPhotoKit still computes them")
    public class func fetchMomentLists(
        with momentListSubtype: PHCollectionListSubtype, containingMoment moment: PHAssetCollection,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        let library = moment.library ?? PHPhotoLibrary.current
        guard case .moment(let record) = moment.content else { return PHFetchResult(contents: .empty) }
        return library.fetchComputed(options: options, as: PHCollectionList.self) {
            library.momentLists(subtype: momentListSubtype).filter { $0.momentUUIDs.contains(record.uuid) }
                .map { PHCollectionList(momentList: $0, library: library) }
        }
    }

    /// Every moment list of a subtype: one per year, or clusters of moments
    /// less than three days apart.
    @available(*, deprecated, message: "Moments are deprecated by Apple; OpenPhotoKit still computes them")
    public class func fetchMomentLists(with momentListSubtype: PHCollectionListSubtype, options: PHFetchOptions?) -> PHFetchResult<PHCollectionList> {
        fetchCollectionLists(with: .momentList, subtype: momentListSubtype, options: options)
    }

    /// A list of the given collections that lives only in memory.
    public class func transientCollectionList(with collections: [PHCollection], title: String?) -> PHCollectionList {
        PHCollectionList(
            content: .transient(collections: collections, title: title),
            localIdentifier: LocalIdentifier.make(.collectionList).description,
            library: collections.first?.library)
    }

    /// A list of a fetch result's collections that lives only in memory.
    public class func transientCollectionList(withCollectionsFetchResult fetchResult: PHFetchResult<PHCollection>, title: String?) -> PHCollectionList {
        transientCollectionList(with: fetchResult.allObjects, title: title)
    }
}
