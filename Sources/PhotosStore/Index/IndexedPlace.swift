import Foundation

/// A place as the index keeps it (`asset_place`).
package struct IndexedPlace: Sendable, Hashable {
    package var city: String
    package var region: String
    package var country: String
    package var countryCode: String

    package init(city: String, region: String, country: String, countryCode: String) {
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }
}
