import Foundation
import Hummingbird
import Photos

/// The album or folder an id in a URL names, as the caller may see it; 404 otherwise.
enum CollectionLookup {
    static func assetCollection(_ id: String?, in library: PHPhotoLibrary) async throws -> PHAssetCollection {
        guard let id, let identifier = ObjectID.localIdentifier(id, of: .assetCollection),
            let album = try await blocking({
                library.withCurrentLibrary {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject
                }
            })
        else { throw Problem.notFound("no album has the id \(id ?? "")") }
        return album
    }

    static func collectionList(_ id: String?, in library: PHPhotoLibrary) async throws -> PHCollectionList {
        guard let id, let identifier = ObjectID.localIdentifier(id, of: .collectionList),
            let folder = try await blocking({
                library.withCurrentLibrary {
                    PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [identifier], options: nil).firstObject
                }
            })
        else { throw Problem.notFound("no folder has the id \(id ?? "")") }
        return folder
    }
}
