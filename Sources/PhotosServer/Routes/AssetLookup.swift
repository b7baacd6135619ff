import Foundation
import Hummingbird
import Photos

/// What the routes that take an asset or a fetch share: the asset an id
/// in a URL names, and fetch options from query parameters.
enum AssetLookup {
    /// Fetch options from `predicate`, `sort` and `hidden` query parameters;
    /// a bad predicate is 400 with its position and a caret line.
    static func fetchOptions(_ query: Query, for objectClass: PHObject.Type, defaultSort: String?) throws -> PHFetchOptions {
        try fetchOptions(
            predicate: query.text("predicate"), sort: query.text("sort"), hidden: query.text("hidden"), for: objectClass,
            defaultSort: defaultSort)
    }

    /// Fetch options from a predicate, sort keys and whether hidden assets
    /// are included (`"true"`; `"false"`, empty or nil: not); an empty
    /// predicate or sort counts as none.
    static func fetchOptions(
        predicate: String?, sort: String?, hidden: String?, for objectClass: PHObject.Type, defaultSort: String?
    ) throws -> PHFetchOptions {
        let predicate = predicate.flatMap { $0.isEmpty ? nil : $0 }
        if let predicate, predicate.utf8.count > 4096 {
            throw Problem.badRequest("predicate is longer than 4096 bytes")
        }
        let options = try PHFetchOptions(
            predicateFormat: predicate, sortKeys: sort.flatMap { $0.isEmpty ? nil : $0 } ?? defaultSort, for: objectClass)
        switch hidden {
        case nil, "", "false": break
        case "true": options.includeHiddenAssets = true
        default: throw Problem.badRequest("hidden must be true or false")
        }
        // An asset's JSON carries its caption and keywords: read with the page, not one query each.
        options.prefetchAssetExtendedMetadata = objectClass is PHAsset.Type
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
