import Foundation

/// Names the place of a position, offline: the city that best describes
/// it among those within ``reach`` kilometres. The nearest city is not
/// always it: the Eiffel Tower is nearer Issy-les-Moulineaux's centre than
/// Paris's by a few hundred metres, and everyone calls it Paris. So each
/// city's distance is weighed by its size (divided by one plus the decimal
/// logarithm of its population over 15,000), which keeps a town for the
/// photos taken in it and a capital for those a little way from its centre.
package enum ReverseGeocoder {
    /// The farthest a city may be from the position to name it, in
    /// kilometres; farther (at sea, in the wilderness), no place is named.
    package static let reach = 100.0

    /// The place of a position in degrees, as the city that names it (with
    /// its region and country); nil when no city is within ``reach``, or
    /// the position is off the globe. Cost: a few microseconds.
    package static func place(latitude: Double, longitude: Double) -> GeoNamesCities.City? {
        let candidates = GeoNamesCities.shared.cities(near: latitude, longitude, within: reach)
        return candidates.min { score($0.city, $0.distance) < score($1.city, $1.distance) }?.city
    }

    /// How well a city describes a position at `distance` kilometres from its centre: lower is better.
    private static func score(_ city: GeoNamesCities.City, _ distance: Double) -> Double {
        distance / (1 + log10(max(1, Double(city.population) / 15_000)))
    }
}
