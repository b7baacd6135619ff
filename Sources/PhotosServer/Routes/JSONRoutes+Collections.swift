import Photos

/// Albums, smart albums, moments and folders (PhotoKit's asset collections
/// and collection lists), each list paged like assets:
/// - `/v1/albums`, `/v1/smart-albums`, `/v1/moments`: asset collections;
/// - `/v1/albums/{id}` and `/v1/albums/{id}/assets`: any asset collection
///   (a smart album or moment too) and its assets, with `predicate` and `sort`;
/// - `/v1/folders`: the top level of the user's albums and folders;
///   `/v1/folders/{id}` a folder and `/v1/folders/{id}/children` what it holds.
extension JSONRoutes {
    func listAlbums(_ input: Operations.ListAlbums.Input) async throws -> Operations.ListAlbums.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await collectionPage(predicate: query.predicate, sort: query.sort, limit: query.limit, cursor: query.cursor) { options in
                        PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                    })))
    }

    func listSmartAlbums(_ input: Operations.ListSmartAlbums.Input) async throws -> Operations.ListSmartAlbums.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await collectionPage(predicate: query.predicate, sort: query.sort, limit: query.limit, cursor: query.cursor) { options in
                        PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options)
                    })))
    }

    func listMoments(_ input: Operations.ListMoments.Input) async throws -> Operations.ListMoments.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await collectionPage(predicate: query.predicate, sort: query.sort, limit: query.limit, cursor: query.cursor) { options in
                        PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: options)
                    })))
    }

    func listTopLevelCollections(_ input: Operations.ListTopLevelCollections.Input) async throws -> Operations.ListTopLevelCollections.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await collectionPage(predicate: query.predicate, sort: query.sort, limit: query.limit, cursor: query.cursor) { options in
                        PHCollection.fetchTopLevelUserCollections(with: options)
                    })))
    }

    func getAlbum(_ input: Operations.GetAlbum.Input) async throws -> Operations.GetAlbum.Output {
        let (library, _) = try await library()
        let album = try await CollectionLookup.assetCollection(input.path.id, in: library)
        return .ok(.init(body: .json(CollectionRepresentation(album).schema)))
    }

    func listAlbumAssets(_ input: Operations.ListAlbumAssets.Input) async throws -> Operations.ListAlbumAssets.Output {
        let (library, _) = try await library()
        let album = try await CollectionLookup.assetCollection(input.path.id, in: library)
        let query = input.query
        let options = try AssetLookup.fetchOptions(
            predicate: query.predicate, sort: query.sort, hidden: query.hidden?.rawValue, for: PHAsset.self, defaultSort: nil)
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(PHAsset.fetchAssets(in: album, options: options), limit: query.limit, cursor: query.cursor) {
                    AssetRepresentation($0).schema
                }
            }
        }
        return .ok(.init(body: .json(.init(items: page.items, nextCursor: page.nextCursor, total: page.total))))
    }

    func getFolder(_ input: Operations.GetFolder.Input) async throws -> Operations.GetFolder.Output {
        let (library, _) = try await library()
        let folder = try await CollectionLookup.collectionList(input.path.id, in: library)
        return .ok(.init(body: .json(CollectionRepresentation(folder).schema)))
    }

    func listFolderChildren(_ input: Operations.ListFolderChildren.Input) async throws -> Operations.ListFolderChildren.Output {
        let (library, _) = try await library()
        let folder = try await CollectionLookup.collectionList(input.path.id, in: library)
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await collectionPage(predicate: query.predicate, sort: query.sort, limit: query.limit, cursor: query.cursor) { options in
                        PHCollection.fetchCollections(in: folder, options: options)
                    })))
    }

    /// A page of the collections `fetch` finds with the request's options.
    private func collectionPage<Object: PHCollection>(
        predicate: String?, sort: String?, limit: Int?, cursor: String?,
        _ fetch: @escaping @Sendable (PHFetchOptions) -> PHFetchResult<Object>
    ) async throws -> Components.Schemas.CollectionPage {
        let (library, _) = try await library()
        let options = try AssetLookup.fetchOptions(predicate: predicate, sort: sort, hidden: nil, for: Object.self, defaultSort: nil)
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(fetch(options), limit: limit, cursor: cursor) { CollectionRepresentation($0).schema }
            }
        }
        return .init(items: page.items, nextCursor: page.nextCursor, total: page.total)
    }
}
