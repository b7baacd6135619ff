import Foundation
import Hummingbird
import Photos

/// Albums, smart albums, moments and folders (PhotoKit's asset collections
/// and collection lists), each list paged like assets:
/// - `/v1/albums`, `/v1/smart-albums`, `/v1/moments`: asset collections;
/// - `/v1/albums/{id}` and `/v1/albums/{id}/assets`: any asset collection
///   (a smart album or moment too) and its assets, with `predicate` and `sort`;
/// - `/v1/folders`: the top level of the user's albums and folders;
///   `/v1/folders/{id}` a folder and `/v1/folders/{id}/children` what it holds.
struct CollectionRoutes {
    let libraries: LibraryPool

    func add(to group: RouterGroup<ServerContext>) {
        list(group, "albums") { options in PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options) }
        list(group, "smart-albums") { options in
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options)
        }
        list(group, "moments") { options in PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: options) }
        list(group, "folders") { options in PHCollection.fetchTopLevelUserCollections(with: options) }

        group.get("albums/:id") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let album = try await Self.assetCollection(context.parameters.get("id"), in: library)
            return try context.json(CollectionRepresentation(album), from: request)
        }
        group.get("albums/:id/assets") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let album = try await Self.assetCollection(context.parameters.get("id"), in: library)
            let query = Query(request: request)
            let options = try AssetLookup.fetchOptions(query, for: PHAsset.self, defaultSort: nil)
            let page = try await blocking {
                try library.withCurrentLibrary {
                    try Page.of(PHAsset.fetchAssets(in: album, options: options), query: query, AssetRepresentation.init)
                }
            }
            return try context.json(page, from: request)
        }
        group.get("folders/:id") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let folder = try await Self.collectionList(context.parameters.get("id"), in: library)
            return try context.json(CollectionRepresentation(folder), from: request)
        }
        group.get("folders/:id/children") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let folder = try await Self.collectionList(context.parameters.get("id"), in: library)
            let query = Query(request: request)
            let options = try AssetLookup.fetchOptions(query, for: PHCollection.self, defaultSort: nil)
            let page = try await blocking {
                try library.withCurrentLibrary {
                    try Page.of(PHCollection.fetchCollections(in: folder, options: options), query: query, CollectionRepresentation.init)
                }
            }
            return try context.json(page, from: request)
        }
    }

    private func list<Object: PHCollection>(
        _ group: RouterGroup<ServerContext>, _ path: String,
        _ fetch: @escaping @Sendable (PHFetchOptions) -> PHFetchResult<Object>
    ) {
        group.get(RouterPath(stringLiteral: path)) { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let query = Query(request: request)
            let options = try AssetLookup.fetchOptions(query, for: Object.self, defaultSort: nil)
            let page = try await blocking {
                try library.withCurrentLibrary { try Page.of(fetch(options), query: query, CollectionRepresentation.init) }
            }
            return try context.json(page, from: request)
        }
    }

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
