import Photos

/// `/v1/assets`: fetches in PhotoKit's predicate language with its sort
/// keys, paged by cursor; one asset; its resources; the albums holding it.
extension JSONRoutes {
    func listAssets(_ input: Operations.ListAssets.Input) async throws -> Operations.ListAssets.Output {
        let (library, _) = try await library()
        let query = input.query
        let options = try AssetLookup.fetchOptions(
            predicate: query.predicate, sort: query.sort, hidden: query.hidden?.rawValue, for: PHAsset.self, defaultSort: "creationDate")
        let page = try await blocking {
            try library.withCurrentLibrary {
                try Page.of(PHAsset.fetchAssets(with: options), limit: query.limit, cursor: query.cursor) { AssetRepresentation($0).schema }
            }
        }
        return .ok(.init(body: .json(.init(items: page.items, nextCursor: page.nextCursor, total: page.total))))
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
}
