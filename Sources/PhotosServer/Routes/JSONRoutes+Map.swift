import Photos

/// `/v1/map` and `/v1/map/clusters`: what the gallery's map draws with, and
/// the token's located photos gathered into markers.
extension JSONRoutes {
    func getMap(_ input: Operations.GetMap.Input) async throws -> Operations.GetMap.Output {
        _ = try principal()
        return .ok(
            .init(body: .json(.init(outlines: MapRoutes.outlines != nil, tileTemplate: mapTiles?.template, attribution: mapTiles?.attribution))))
    }

    func listMapClusters(_ input: Operations.ListMapClusters.Input) async throws -> Operations.ListMapClusters.Output {
        let query = input.query
        let limit = query.limit ?? 1_000
        // The generated code checks types, not ranges: the library refuses what is off the globe (limitExceeded: 400 here).
        let (library, _) = try await library()
        let clusters = try await blocking {
            try Self.clientMistakes {
                try library.mapClusters(south: query.south, west: query.west, north: query.north, east: query.east, cellDegrees: query.cell, limit: limit)
            }
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: clusters.map { cluster in
                            .init(
                                assetCount: cluster.assetCount, latitude: cluster.latitude, longitude: cluster.longitude, south: cluster.south,
                                west: cluster.west, north: cluster.north, east: cluster.east,
                                cover: ObjectID.urlForm(cluster.coverAssetLocalIdentifier), search: cluster.search)
                        }))))
    }
}
