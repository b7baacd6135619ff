import Foundation
import PhotosStore

/// A place a library's photos were taken, as its search index names it
/// (an OpenPhotoKit addition: Apple's Photos shows places, but PhotoKit
/// has no API for them).
public struct LibraryPlace: Sendable, Hashable {
    /// The city (or town) that best describes where the photos were
    /// taken, in English: the nearest, its distance weighed by its size.
    public var city: String
    /// The city's first-level division (a state, a region, a province).
    public var region: String
    /// The city's country, in English.
    public var country: String
    /// The country's ISO 3166 code (`FR`).
    public var countryCode: String
    /// How many of the assets the reader sees were taken there.
    public var assetCount: Int
    /// The asset added last of those: the place's cover.
    public var coverAssetLocalIdentifier: String

    /// The search that finds exactly this place's assets
    /// (``PHAsset/fetchAssets(matchingSearch:options:)``).
    public var search: String {
        "place:\"" + [city, region, country].filter { !$0.isEmpty }.joined(separator: " ").replacingOccurrences(of: "\"", with: " ") + "\""
    }
}

extension PHPhotoLibrary {
    /// Every place the assets the reader sees were taken (as a fetch with
    /// default options shows them), by country then city, as far as the
    /// search index has named them (`PhotosIndexing`).
    /// Cost: one query over the located assets, grouped.
    public func places() throws -> [LibraryPlace] {
        let store = try requireStore()
        do {
            return try store.places().map { summary in
                LibraryPlace(
                    city: summary.place.city, region: summary.place.region, country: summary.place.country,
                    countryCode: summary.place.countryCode, assetCount: summary.assetCount,
                    coverAssetLocalIdentifier: LocalIdentifier(uuid: summary.coverUUID, entity: .asset).description)
            }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}

/// Located assets near one another, as one marker on a map of the library
/// (an OpenPhotoKit addition, like ``LibraryPlace``).
public struct LibraryMapCluster: Sendable, Hashable {
    /// How many of the assets the reader sees the marker stands for.
    public var assetCount: Int
    /// Where the marker goes: the mean of the assets' latitudes, in degrees.
    public var latitude: Double
    /// The mean of the assets' longitudes, in degrees.
    public var longitude: Double
    /// The smallest box holding them: its southern, western, northern and
    /// eastern edges, in degrees. No other cluster's box overlaps it.
    public var south: Double, west: Double, north: Double, east: Double
    /// The asset added last of them: the marker's photo.
    public var coverAssetLocalIdentifier: String
    /// The search that finds exactly these assets (`within:S,W,N,E`,
    /// ``PHAsset/fetchAssets(matchingSearch:options:)``).
    public var search: String
}

extension PHPhotoLibrary {
    /// The library's located assets inside a box of latitudes and longitudes
    /// (edges included, not across the antimeridian), gathered for a map:
    /// one cluster for each cell of a grid of `cellDegrees` laid from the
    /// box's south-west corner, the fullest `limit` of them, fullest first.
    /// Only assets the reader sees, as the library's timeline (and a
    /// search) shows them, count.
    ///
    /// Throws `PHPhotosError.limitExceeded` for a box off the globe or the
    /// wrong way round, a cell outside 0.0001…360 degrees or a limit outside
    /// 1…5,000. Cost: one query over the located assets, grouped.
    public func mapClusters(
        south: Double, west: Double, north: Double, east: Double, cellDegrees: Double, limit: Int = 1_000
    ) throws -> [LibraryMapCluster] {
        let store = try requireStore()
        do throws(StoreError) {
            guard let bounds = LocationBounds(south: south, west: west, north: north, east: east) else {
                throw StoreError.limitExceeded("a map's box is latitudes -90…90 south to north and longitudes -180…180 west to east")
            }
            return try store.locationClusters(in: bounds, cellDegrees: cellDegrees, limit: limit).map { cluster in
                LibraryMapCluster(
                    assetCount: cluster.assetCount, latitude: cluster.latitude, longitude: cluster.longitude,
                    south: cluster.bounds.south, west: cluster.bounds.west, north: cluster.bounds.north, east: cluster.bounds.east,
                    coverAssetLocalIdentifier: LocalIdentifier(uuid: cluster.coverUUID, entity: .asset).description,
                    search: cluster.bounds.searchFilter)
            }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}
