import Foundation
import Hummingbird
import Photos

/// `/v1/assets`: fetches in PhotoKit's predicate language with its sort
/// keys, paged by cursor; one asset; its resources; the albums holding it.
struct AssetRoutes {
    let libraries: LibraryPool

    func add(to group: RouterGroup<ServerContext>) {
        group.get("assets") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let query = Query(request: request)
            let options = try Self.fetchOptions(query, for: PHAsset.self, defaultSort: "creationDate")
            let page = try await blocking {
                try library.withCurrentLibrary {
                    try Page.of(PHAsset.fetchAssets(with: options), query: query, AssetRepresentation.init)
                }
            }
            return try context.json(page, from: request)
        }
        group.get("assets/:id") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let asset = try await Self.asset(context.parameters.get("id"), in: library)
            return try context.json(AssetRepresentation(asset), from: request)
        }
        group.get("assets/:id/resources") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let asset = try await Self.asset(context.parameters.get("id"), in: library)
            let resources = try await blocking { library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) } }
            return try context.json(resources.map(ResourceRepresentation.init), from: request)
        }
        group.get("assets/:id/albums") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let asset = try await Self.asset(context.parameters.get("id"), in: library)
            let query = Query(request: request)
            let page = try await blocking {
                try library.withCurrentLibrary {
                    try Page.of(
                        PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil), query: query,
                        CollectionRepresentation.init)
                }
            }
            return try context.json(page, from: request)
        }
    }

    /// Fetch options from `predicate`, `sort` and `hidden` query parameters;
    /// a bad predicate is 400 with its position and a caret line.
    static func fetchOptions(_ query: Query, for objectClass: PHObject.Type, defaultSort: String?) throws -> PHFetchOptions {
        if let predicate = query.text("predicate"), predicate.utf8.count > 4096 {
            throw Problem.badRequest("predicate is longer than 4096 bytes")
        }
        let options = try PHFetchOptions(
            predicateFormat: query.text("predicate"), sortKeys: query.text("sort") ?? defaultSort,
            for: objectClass)
        switch query.text("hidden") {
        case nil, "false": break
        case "true": options.includeHiddenAssets = true
        default: throw Problem.badRequest("hidden must be true or false")
        }
        return options
    }

    /// The asset an id in a URL names, as the caller may see it, one in
    /// Recently Deleted included (so that it can be shown before it is
    /// restored); 404 otherwise.
    static func asset(_ id: String?, in library: PHPhotoLibrary) async throws -> PHAsset {
        guard let id, let identifier = ObjectID.localIdentifier(id, of: .asset) else {
            throw Problem.notFound("no asset has the id \(id ?? "")")
        }
        guard
            let asset = try await blocking({
                library.withCurrentLibrary {
                    PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject ?? recentlyDeleted([id])[id.uppercased()]
                }
            })
        else {
            throw Problem.notFound("no asset has the id \(id)")
        }
        return asset
    }

    /// The assets of `ids` (URL ids) that are in Recently Deleted, by
    /// uppercased id: fetches leave those out. Cost: a walk of Recently
    /// Deleted; call it for ids not found otherwise, inside `withCurrentLibrary`.
    static func recentlyDeleted(_ ids: Set<String>) -> [String: PHAsset] {
        let wanted = Set(ids.map { $0.uppercased() })
        guard !wanted.isEmpty,
            let trash = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil).firstObject
        else { return [:] }
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        var found: [String: PHAsset] = [:]
        PHAsset.fetchAssets(in: trash, options: options).enumerateObjects { asset, _, stop in
            let id = ObjectID.urlForm(asset.localIdentifier).uppercased()
            if wanted.contains(id) { found[id] = asset }
            if found.count == wanted.count { stop.pointee = true }
        }
        return found
    }
}
