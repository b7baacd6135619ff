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
        .ok(.init(body: .json(try await collectionPage(input.query) { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: $0) })))
    }

    func listSmartAlbums(_ input: Operations.ListSmartAlbums.Input) async throws -> Operations.ListSmartAlbums.Output {
        .ok(
            .init(body: .json(try await collectionPage(input.query) { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: $0) }))
        )
    }

    func listMoments(_ input: Operations.ListMoments.Input) async throws -> Operations.ListMoments.Output {
        .ok(.init(body: .json(try await collectionPage(input.query) { PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: $0) })))
    }

    func listTopLevelCollections(_ input: Operations.ListTopLevelCollections.Input) async throws -> Operations.ListTopLevelCollections.Output {
        .ok(.init(body: .json(try await collectionPage(input.query) { PHCollection.fetchTopLevelUserCollections(with: $0) })))
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
        return .ok(
            .init(
                body: .json(
                    try await assetPage(query, hidden: query.hidden?.rawValue, defaultSort: nil) { PHAsset.fetchAssets(in: album, options: $0) })))
    }

    func getFolder(_ input: Operations.GetFolder.Input) async throws -> Operations.GetFolder.Output {
        let (library, _) = try await library()
        let folder = try await CollectionLookup.collectionList(input.path.id, in: library)
        return .ok(.init(body: .json(CollectionRepresentation(folder).schema)))
    }

    func listFolderChildren(_ input: Operations.ListFolderChildren.Input) async throws -> Operations.ListFolderChildren.Output {
        let (library, _) = try await library()
        let folder = try await CollectionLookup.collectionList(input.path.id, in: library)
        return .ok(.init(body: .json(try await collectionPage(input.query) { PHCollection.fetchCollections(in: folder, options: $0) })))
    }

    /// A page of the collections `fetch` finds with the query's predicate,
    /// sort keys, limit and cursor.
    private func collectionPage<Object: PHCollection>(
        _ query: some FetchQuery, _ fetch: @escaping @Sendable (PHFetchOptions) -> PHFetchResult<Object>
    ) async throws -> Components.Schemas.CollectionPage {
        let (library, _) = try await library()
        let options = try AssetLookup.fetchOptions(predicate: query.predicate, sort: query.sort, hidden: nil, for: Object.self, defaultSort: nil)
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(fetch(options), limit: query.limit, cursor: query.cursor) { CollectionRepresentation($0).schema }
            }
        }
        return .init(items: page.items, nextCursor: page.nextCursor, total: page.total)
    }
}
