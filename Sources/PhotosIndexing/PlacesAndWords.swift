import Foundation
import Photos
import PhotosMedia
import PhotosStore

/// The first analyzer: where each asset was taken, named offline by
/// ``ReverseGeocoder`` from GeoNames' cities, and the words of its own
/// descriptive metadata (caption, keywords, file name, camera). Costs
/// microseconds an asset: it reads no file.
struct PlacesAndWords: AssetAnalyzer {
    var kind: IndexKind { .metadata }
    var batchSize: Int { 256 }
    var unavailability: String? { nil }

    func analyze(_ assets: [PHAsset]) -> [IndexedAsset] {
        assets.map { asset in
            let metadata = asset.extendedMetadata
            let place = asset.location.flatMap { location in
                ReverseGeocoder.place(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
            }
            let words = [metadata.caption, metadata.originalFilename, asset.cameraMake, asset.cameraModel].compactMap { $0 } + metadata.keywords
            let placeWords = place.map { [$0.name, $0.region, $0.country] } ?? []
            return IndexedAsset(
                uuid: asset.uuid,
                searchText: [.words: SearchWords.document(words), .place: SearchWords.document(placeWords)],
                writesPlace: true,
                place: place.map { IndexedPlace(city: $0.name, region: $0.region, country: $0.country, countryCode: $0.countryCode) })
        }
    }
}
