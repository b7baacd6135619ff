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
