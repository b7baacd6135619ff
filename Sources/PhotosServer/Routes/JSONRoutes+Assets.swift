import Photos

/// `/v1/assets`: fetches in PhotoKit's predicate language with its sort
/// keys, paged by cursor; one asset; its resources; the albums holding it.
extension JSONRoutes {
    func listAssets(_ input: Operations.ListAssets.Input) async throws -> Operations.ListAssets.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await assetPage(query, hidden: query.hidden?.rawValue, defaultSort: "creationDate") { PHAsset.fetchAssets(with: $0) })))
    }

    func getAsset(_ input: Operations.GetAsset.Input) async throws -> Operations.GetAsset.Output {
        let (library, _) = try await library()
        let asset = try await AssetLookup.asset(input.path.id, in: library)
        return .ok(.init(body: .json(AssetRepresentation(asset).schema)))
    }

    func listAssetResources(_ input: Operations.ListAssetResources.Input) async throws -> Operations.ListAssetResources.Output {
        let (library, _) = try await library()
        let asset = try await AssetLookup.asset(input.path.id, in: library)
        let resources = try await blocking { library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) } }
        return .ok(.init(body: .json(resources.map { ResourceRepresentation($0).schema })))
    }

    func listAssetAlbums(_ input: Operations.ListAssetAlbums.Input) async throws -> Operations.ListAssetAlbums.Output {
        let (library, _) = try await library()
        let asset = try await AssetLookup.asset(input.path.id, in: library)
        let query = input.query
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(
                    PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil), limit: query.limit,
                    cursor: query.cursor
                ) { CollectionRepresentation($0).schema }
            }
        }
        return .ok(.init(body: .json(.init(items: page.items, nextCursor: page.nextCursor, total: page.total))))
    }

    /// A page of the assets `fetch` finds with the query's predicate, sort
    /// keys (`defaultSort` without), limit and cursor, hidden ones included
    /// when `hidden` is `"true"`.
    func assetPage(
        _ query: some FetchQuery, hidden: String?, defaultSort: String?,
        _ fetch: @escaping @Sendable (PHFetchOptions) -> PHFetchResult<PHAsset>
    ) async throws -> Components.Schemas.AssetPage {
        let (library, _) = try await library()
        let options = try AssetLookup.fetchOptions(
            predicate: query.predicate, sort: query.sort, hidden: hidden, for: PHAsset.self, defaultSort: defaultSort)
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(fetch(options), limit: query.limit, cursor: query.cursor) { AssetRepresentation($0).schema }
            }
        }
        return .init(items: page.items, nextCursor: page.nextCursor, total: page.total)
    }
}

/// The parameters every paged fetch of the document takes (its
/// `predicate`, `sort`, `limit` and `cursor` parameters), which the
/// generator writes into each operation's own query type.
protocol FetchQuery: Sendable {
    var predicate: String? { get }
    var sort: String? { get }
    var limit: Int? { get }
    var cursor: String? { get }
}

extension Operations.ListAssets.Input.Query: FetchQuery {}
extension Operations.ListAlbumAssets.Input.Query: FetchQuery {}
extension Operations.ListPersonAssets.Input.Query: FetchQuery {}
extension Operations.ListAlbums.Input.Query: FetchQuery {}
extension Operations.ListSmartAlbums.Input.Query: FetchQuery {}
extension Operations.ListMoments.Input.Query: FetchQuery {}
extension Operations.ListTopLevelCollections.Input.Query: FetchQuery {}
extension Operations.ListFolderChildren.Input.Query: FetchQuery {}
