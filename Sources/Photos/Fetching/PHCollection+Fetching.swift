import Foundation
import PhotosStore

extension PHCollection {
    /// The collections in a collection list: a folder's albums and folders
    /// in their order, a moment list's moments, or a transient list's members.
    public class func fetchCollections(in collectionList: PHCollectionList, options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        let library = collectionList.library ?? PHPhotoLibrary.current
        switch collectionList.content {
        case .stored(let record):
            return library.fetchCollections(scope: .children(ofRowID: record.id), options: options, as: PHCollection.self)
        case .momentList(let list):
            let members = Set(list.momentUUIDs)
            return library.fetchComputed(options: options, as: PHCollection.self) {
                library.moments.filter { members.contains($0.uuid) }.map { PHAssetCollection(moment: $0, library: library) }
            }
        case .transient(let collections, _):
            return library.fetchInMemory(collections, options: options, as: PHCollection.self)
        case .root:
            return library.fetchCollections(scope: .children(ofRowID: nil), options: options, as: PHCollection.self)
        case .deleted:
            return PHFetchResult(contents: .empty)
        }
    }

    /// The albums and folders at the top level, in the user's order.
    public class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        PHPhotoLibrary.current.fetchCollections(scope: .children(ofRowID: nil), options: options, as: PHCollection.self)
    }
}
