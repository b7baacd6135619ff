import Photos

/// `/v1/search`: the assets a search finds, in the caller's grant, paged by cursor.
extension JSONRoutes {
    func searchAssets(_ input: Operations.SearchAssets.Input) async throws -> Operations.SearchAssets.Output {
        let query = input.query
        let text = query.q ?? ""
        // The document's bound, checked here too: the generated parser does not enforce maxLength.
        guard text.utf8.count <= 1_000 else { throw Problem.badRequest("q is longer than 1000 bytes") }
        let (library, _) = try await library()
        let options = try AssetLookup.fetchOptions(predicate: nil, sort: nil, hidden: query.hidden?.rawValue, for: PHAsset.self, defaultSort: nil)
        let page = try await blocking {
            try library.withCurrentLibrary {
                let result: PHFetchResult<PHAsset>
                do {
                    result = try PHAsset.fetchAssets(matchingSearch: text, options: options)
                } catch let error as PHPhotosError where error.code == .limitExceeded {
                    throw Problem.badRequest(error.localizedDescription)
                }
                return try Page.of(result, limit: query.limit, cursor: query.cursor) { AssetRepresentation($0).schema }
            }
        }
        return .ok(.init(body: .json(.init(items: page.items, nextCursor: page.nextCursor, total: page.total))))
    }
}
