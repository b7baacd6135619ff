import CGeonames
import Foundation

/// GeoNames' 24,000 cities of 15,000 people or more, as Debian's
/// libgeonames0 ships them (data CC BY 4.0, geonames.org): each city's
/// position, English name, region (first-level division), country, and
/// time zone, read once and indexed by one-degree cells, so that the cities
/// near a position are found without a pass over all of them.
package struct GeoNamesCities: Sendable {
    /// One city.
    package struct City: Sendable, Equatable {
        package var latitude: Double
        package var longitude: Double
        package var name: String
        /// The first-level division it is in (a state, a region, a province).
        package var region: String
        package var country: String
        /// ISO 3166-1 alpha-2.
        package var countryCode: String
        package var population: Int
        /// The index of its zone in ``GeoNamesCities/timeZones``; nil when Foundation knows no such zone.
        package var timeZone: Int?
    }

    package let cities: [City]
    /// The zones the cities name, each once.
    package let timeZones: [TimeZone]
    /// The cities of each one-degree cell, by ``cell(latitude:longitude:)``.
    private let cells: [Int: [Int]]

    /// The cities, read from libgeonames once per process (a few milliseconds); none when it has none.
    package static let shared = GeoNamesCities()

    /// The mean radius of the Earth, in kilometres.
    package static let earthRadius = 6_371.0

    private init() {
        var zoneIndex: [String: Int] = [:]
        var zones: [TimeZone] = []
        var cities: [City] = []
        var cells: [Int: [Int]] = [:]
        func text(_ pointer: UnsafePointer<gchar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        let count = Int(geonames_get_n_cities())
        cities.reserveCapacity(count)
        for index in 0..<count {
            guard let city = geonames_get_city(gint(index)) else { continue }
            defer { geonames_city_free(city) }
            let latitude = geonames_city_get_latitude(city)
            let longitude = geonames_city_get_longitude(city)
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
            var zone: Int?
            let zoneName = text(geonames_city_get_timezone(city))
            if let known = zoneIndex[zoneName] {
                zone = known
            } else if let timeZone = TimeZone(identifier: zoneName) {
                zone = zones.count
                zones.append(timeZone)
                zoneIndex[zoneName] = zone
            }
            cells[Self.cell(latitude: latitude, longitude: longitude), default: []].append(cities.count)
            cities.append(
                City(
                    latitude: latitude, longitude: longitude, name: text(geonames_city_get_name(city)),
                    region: text(geonames_city_get_state(city)), country: text(geonames_city_get_country(city)),
                    countryCode: text(geonames_city_get_country_code(city)), population: Int(geonames_city_get_population(city)),
                    timeZone: zone))
        }
        self.cities = cities
        self.timeZones = zones
        self.cells = cells
    }

    /// The cell of a position: its whole degrees of latitude and longitude.
    private static func cell(latitude: Double, longitude: Double) -> Int {
        cell(row: Int(latitude.rounded(.down)), column: Int(longitude.rounded(.down)))
    }

    private static func cell(row: Int, column: Int) -> Int {
        // Longitudes wrap: column 180 is column -180.
        let wrapped = ((column + 180) % 360 + 360) % 360 - 180
        return (row + 90) * 360 + (wrapped + 180)
    }

    /// The cities within `radius` kilometres of a position, with their
    /// distances in kilometres. Cost: the cities of the few cells the circle
    /// touches (a whole ring of cells near the poles).
    package func cities(near latitude: Double, _ longitude: Double, within radius: Double) -> [(city: City, distance: Double)] {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180, radius.isFinite, radius >= 0 else { return [] }
        let degrees = radius / (Self.earthRadius * .pi / 180)
        let rows = Int((latitude - degrees).rounded(.down))...Int((latitude + degrees).rounded(.down))
        // The narrowest a degree of longitude gets within the rows, as a share of one at the equator.
        let narrowest = cos(min(89.9, max(abs(latitude) + degrees, 0)) * .pi / 180)
        let spread = min(180, degrees / max(narrowest, 1e-3))
        let columns = Int((longitude - spread).rounded(.down))...Int((longitude + spread).rounded(.down))
        var found: [(City, Double)] = []
        var seen = Set<Int>()
        for row in rows where row >= -90 && row < 90 {
            for column in columns {
                let key = Self.cell(row: row, column: column)
                guard seen.insert(key).inserted, let members = cells[key] else { continue }
                for index in members {
                    let distance = Self.distance(latitude, longitude, cities[index].latitude, cities[index].longitude)
                    if distance <= radius { found.append((cities[index], distance)) }
                }
            }
        }
        return found
    }

    /// The great-circle distance between two positions in degrees, in kilometres (haversine).
    package static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let phi1 = latitude1 * .pi / 180
        let phi2 = latitude2 * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (longitude2 - longitude1) * .pi / 180
        let a = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }
}
