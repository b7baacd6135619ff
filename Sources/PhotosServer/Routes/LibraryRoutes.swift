import Foundation
import Hummingbird
import Photos

/// `/v1/library`: what the library is to the caller: its name, the counts
/// its grant lets it see, and the change token to read history from.
struct LibraryRoutes {
    let libraries: LibraryPool

    private struct LibraryRepresentation: Encodable {
        struct Counts: Encodable {
            let photos: Int
            let videos: Int
            let albums: Int
            let folders: Int
        }

        let name: String
        let client: String?
        let readOnly: Bool
        let counts: Counts
        let changeToken: String
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.get("library") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let library = try await libraries.library(for: principal)
            let representation = try await blocking {
                library.withCurrentLibrary {
                    let counts = LibraryRepresentation.Counts(
                        photos: PHAsset.fetchAssets(with: .image, options: nil).count,
                        videos: PHAsset.fetchAssets(with: .video, options: nil).count,
                        albums: PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count,
                        folders: PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count)
                    return LibraryRepresentation(
                        name: library.name, client: principal.client,
                        readOnly: principal.isReadOnly, counts: counts,
                        changeToken: library.currentChangeToken.textRepresentation)
                }
            }
            return try context.json(representation, from: request)
        }
    }
}
