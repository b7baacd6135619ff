import Foundation

/// A box on the globe: latitudes from `south` to `north` and longitudes
/// from `west` to `east`, edges included. A box does not cross the
/// antimeridian; a view across it asks for two.
package struct LocationBounds: Sendable, Hashable {
    package var south: Double
    package var west: Double
    package var north: Double
    package var east: Double

    /// The box, or nil when a value is not a number, is off the globe, or
    /// the edges are the wrong way round.
    package init?(south: Double, west: Double, north: Double, east: Double) {
        guard [south, west, north, east].allSatisfy(\.isFinite), -90 <= south, south <= north, north <= 90, -180 <= west, west <= east,
            east <= 180
        else { return nil }
        (self.south, self.west, self.north, self.east) = (south, west, north, east)
    }

    /// The whole globe.
    package static let world = LocationBounds(south: -90, west: -180, north: 90, east: 180)!

    /// The box as a search's `within:` filter takes it: `within:S,W,N,E`,
    /// each number as short as reads back the same.
    package var searchFilter: String {
        "within:" + [south, west, north, east].map { $0 == $0.rounded() ? String(Int($0)) : "\($0)" }.joined(separator: ",")
    }

    /// The box `within:` names, from its value (`S,W,N,E`); nil when it is not one.
    package init?(searchValue: String) {
        let numbers = searchValue.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double(String($0)) }
        guard numbers.count == 4 else { return nil }
        self.init(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
    }
}

/// Located assets near one another, as a map shows them: one marker for
/// every asset in a cell of a grid laid over the map.
package struct LocationCluster: Sendable, Hashable {
    /// How many of the assets the reader sees are in the cluster.
    package var assetCount: Int
    /// Where the marker goes: the mean of their positions.
    package var latitude: Double
    package var longitude: Double
    /// The smallest box holding them all: a search `within:` it finds
    /// exactly them (clusters' boxes never overlap).
    package var bounds: LocationBounds
    /// The UUID of the asset added last of them: the marker's photo.
    package var coverUUID: String

    package init(assetCount: Int, latitude: Double, longitude: Double, bounds: LocationBounds, coverUUID: String) {
        self.assetCount = assetCount
        self.latitude = latitude
        self.longitude = longitude
        self.bounds = bounds
        self.coverUUID = coverUUID
    }

    /// The largest number of clusters one request returns.
    package static let maximumCount = 5_000
    /// The smallest cell, in degrees (about 11 m): finer is no map's.
    package static let smallestCell = 0.0001
}
