import Photos
import PhotosIndexing

/// `/v1/search`: the assets a search finds, in the caller's grant, paged by cursor.
extension JSONRoutes {
    func searchAssets(_ input: Operations.SearchAssets.Input) async throws -> Operations.SearchAssets.Output {
        let query = input.query
        // The document's maxLength is SearchQuery's bound, which the library enforces (limitExceeded: 400 below).
        let text = query.q ?? ""
        let (library, _) = try await library()
        let options = try AssetLookup.fetchOptions(predicate: nil, sort: nil, hidden: query.hidden?.rawValue, for: PHAsset.self, defaultSort: nil)
        let page = try await blocking {
            try library.withCurrentLibrary {
                let result = try Self.clientMistakes { try PHAsset.fetchAssets(matchingSearch: text, options: options) }
                return try Page.of(result, limit: query.limit, cursor: query.cursor) { AssetRepresentation($0).schema }
            }
        }
        return .ok(.init(body: .json(.init(items: page.items, nextCursor: page.nextCursor, total: page.total))))
    }
}

/// `/v1/search/suggestions` and `/v1/places`: completions as a search is typed, and the places view.
extension JSONRoutes {
    func suggestSearches(_ input: Operations.SuggestSearches.Input) async throws -> Operations.SuggestSearches.Output {
        let text = input.query.q ?? ""
        let limit = input.query.limit ?? 8
        guard (1...50).contains(limit) else { throw Problem.badRequest("limit must be from 1 to 50") }
        let (library, _) = try await library()
        let suggestions = try await blocking { try Self.clientMistakes { try library.searchSuggestions(for: text, limit: limit) } }
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: suggestions.map { suggestion in
                            .init(kind: .init(rawValue: suggestion.kind.rawValue)!, label: suggestion.label, search: suggestion.search)
                        }))))
    }

    func listPlaces(_ input: Operations.ListPlaces.Input) async throws -> Operations.ListPlaces.Output {
        let (library, _) = try await library()
        let places = try await blocking { try library.places() }
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: places.map { place in
                            .init(
                                city: place.city, region: place.region, country: place.country, countryCode: place.countryCode,
                                assetCount: place.assetCount, cover: ObjectID.urlForm(place.coverAssetLocalIdentifier), search: place.search)
                        }))))
    }
}

/// `/v1/index`: the search index's progress, for the owner's gallery.
extension JSONRoutes {
    func getIndexStatus(_ input: Operations.GetIndexStatus.Input) async throws -> Operations.GetIndexStatus.Output {
        let (library, principal) = try await library()
        guard principal.isOwner else { throw Problem(.forbidden, "the index's progress is for the owner's tokens") }
        let languages = textLanguages
        let status = try await blocking { try LibraryIndexer(library: library, textLanguages: languages).status() }
        return .ok(
            .init(
                body: .json(
                    .init(
                        assets: status.assets, searchable: status.searchable, located: status.located,
                        kinds: status.kinds.map { kind in
                            .init(
                                name: kind.name, phase: .init(rawValue: kind.phase.rawValue)!, unavailableReason: kind.unavailableReason,
                                pendingChanges: kind.pendingChanges, indexed: kind.indexed, updatedAt: kind.updatedAt)
                        }))))
    }
}
