import Foundation

/// The time zone of a place, offline: on land, the zone whose boundary
/// holds it (``TimeZoneBoundaries``, which `script/bootstrap` installs); at
/// sea, or without the boundaries, the zone of the nearest of GeoNames'
/// 24,000 cities of 15,000 people or more, as Debian's libgeonames0 ships
/// them (a camera at sea keeps the clock of the shore it left). The nearest
/// city's zone is the place's for nearly every photo taken on land, but not
/// near a border that runs between two cities.
package enum TimeZoneLocator {
    /// The zone at a latitude and longitude in degrees; nil for a position
    /// off the globe. Cost: a fraction of a millisecond.
    package static func zone(latitude: Double, longitude: Double) -> TimeZone? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        if let boundaries = TimeZoneBoundaries.installed {
            return boundaries.zone(latitude: latitude, longitude: longitude) ?? nearestCityZone(latitude: latitude, longitude: longitude)
        }
        return nearestCityZone(latitude: latitude, longitude: longitude)
    }

    /// The zone of the nearest city (``GeoNamesCities``). Cost: a pass over the cities (about 0.2 ms).
    static func nearestCityZone(latitude: Double, longitude: Double) -> TimeZone? {
        let cities = GeoNamesCities.shared
        var nearest: (distance: Double, zone: Int)?
        for city in cities.cities {
            guard let zone = city.timeZone else { continue }
            let distance = GeoNamesCities.distance(latitude, longitude, city.latitude, city.longitude)
            if distance < nearest?.distance ?? .infinity { nearest = (distance, zone) }
        }
        return nearest.map { cities.timeZones[$0.zone] }
    }
}
