import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// A map's clusters through the public API: what each holds, against a
/// plain model of the grid, and the search that finds them.
@Suite struct MapClustersTests {
    /// Random located assets (some hidden, some of another source, some
    /// unlocated), clustered over random boxes and cells, agree with the
    /// obvious model: the assets inside the box grouped by cell. Each
    /// cluster's search finds exactly its assets; a limited client's
    /// clusters hold only its selection.
    @Test(arguments: [1, 2, 3] as [UInt64]) func clustersAreTheGridsCells(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let test = try TestLibrary()
        var records: [AssetRecord] = []
        for index in 0..<120 {
            var record = TestLibrary.record(
                created: Date(timeIntervalSince1970: 1_600_000_000 + Double(index)), hidden: random.chance(0.1), source: random.chance(0.1) ? 2 : 1)
            if !random.chance(0.1) {
                // Around a few towns, so cells hold several; some on the globe's edges.
                let (latitude, longitude) = random.pick([(48.85, 2.35), (-33.9, 151.2), (0.0, 0.0), (64.1, -21.9), (90.0, 180.0), (-90.0, -180.0)])
                record.location = StoredLocation(
                    latitude: min(90, max(-90, latitude + Double.random(in: -0.5...0.5, using: &random))),
                    longitude: min(180, max(-180, longitude + Double.random(in: -0.5...0.5, using: &random))))
            }
            records.append(record)
        }
        let ids = try test.insert(records)
        let shown = zip(ids, records).filter { !$0.1.isHidden && $0.1.sourceType == .userLibrary && $0.1.location != nil }

        func expectModel(_ library: PHPhotoLibrary, _ visible: [(String, AssetRecord)], _ bounds: LocationBounds, cell: Double) throws {
            let clusters = try library.mapClusters(south: bounds.south, west: bounds.west, north: bounds.north, east: bounds.east, cellDegrees: cell)
            var model: [[Int]: [(String, AssetRecord)]] = [:]
            for (id, record) in visible {
                let location = record.location!
                guard (bounds.south...bounds.north).contains(location.latitude), (bounds.west...bounds.east).contains(location.longitude) else { continue }
                model[[Int((location.latitude - bounds.south) / cell), Int((location.longitude - bounds.west) / cell)], default: []].append((id, record))
            }
            #expect(clusters.count == model.count, "seed \(seed), \(bounds), cell \(cell)")
            #expect(zip(clusters, clusters.dropFirst()).allSatisfy { $0.assetCount >= $1.assetCount }, "fullest first")
            for cluster in clusters {
                let members = try #require(model.values.first { $0.contains { $0.0 == cluster.coverAssetLocalIdentifier } })
                #expect(cluster.assetCount == members.count)
                let latitudes = members.map { $0.1.location!.latitude }
                let longitudes = members.map { $0.1.location!.longitude }
                #expect(abs(cluster.latitude - latitudes.reduce(0, +) / Double(latitudes.count)) < 1e-9)
                #expect(abs(cluster.longitude - longitudes.reduce(0, +) / Double(longitudes.count)) < 1e-9)
                #expect(cluster.south == latitudes.min() && cluster.north == latitudes.max())
                #expect(cluster.west == longitudes.min() && cluster.east == longitudes.max())
                let found = try library.withCurrentLibrary {
                    let result = try PHAsset.fetchAssets(matchingSearch: cluster.search, options: nil)
                    return result.objects(at: IndexSet(integersIn: 0..<result.count)).map(\.localIdentifier)
                }
                #expect(Set(found) == Set(members.map(\.0)), "\(cluster.search) finds exactly the cluster's assets")
            }
        }

        for _ in 0..<4 {
            let south = Double.random(in: -90...60, using: &random)
            let west = Double.random(in: -180...120, using: &random)
            let bounds = LocationBounds(
                south: south, west: west, north: min(90, south + Double.random(in: 1...180, using: &random)),
                east: min(180, west + Double.random(in: 1...360, using: &random)))!
            try expectModel(test.library, shown, bounds, cell: random.pick([0.1, 1, 7.5, 45, 360]))
        }
        try expectModel(test.library, shown, .world, cell: 0.25)

        let selected = shown.filter { _ in random.chance(0.4) }.map(\.0)
        try test.library.setAccess(.limited, forClient: "com.example.map")
        try test.library.addToLimitedSelection(selected, ofClient: "com.example.map")
        let client = try test.client("com.example.map")
        try expectModel(client, shown.filter { selected.contains($0.0) }, .world, cell: 1)
    }

    /// Boxes off the globe or the wrong way round, cells and limits out of
    /// range are refused with `limitExceeded`; the limit keeps the fullest.
    @Test func badRequestsAreRefusedAndTheLimitKeepsTheFullest() throws {
        let test = try TestLibrary()
        var records: [AssetRecord] = []
        for (index, count) in [3, 1, 2].enumerated() {
            for _ in 0..<count {
                var record = TestLibrary.record(created: Date())
                record.location = StoredLocation(latitude: Double(index * 10), longitude: 5)
                records.append(record)
            }
        }
        try test.insert(records)
        let library = test.library
        #expect(try library.mapClusters(south: -90, west: -180, north: 90, east: 180, cellDegrees: 5, limit: 2).map(\.assetCount) == [3, 2])
        for (south, west, north, east) in [(10.0, 0.0, 5.0, 10.0), (-91, 0, 0, 0), (0, -181, 0, 0), (0, 10, 1, 5), (.nan, 0, 1, 1), (0, 0, .infinity, 1)] {
            expectPhotosError(.limitExceeded) { try library.mapClusters(south: south, west: west, north: north, east: east, cellDegrees: 1) }
        }
        for cell in [0, 0.00001, 361, -1, .nan] {
            expectPhotosError(.limitExceeded) { try library.mapClusters(south: 0, west: 0, north: 1, east: 1, cellDegrees: cell) }
        }
        for limit in [0, -1, 5_001] {
            expectPhotosError(.limitExceeded) { try library.mapClusters(south: 0, west: 0, north: 1, east: 1, cellDegrees: 1, limit: limit) }
        }
    }
}
