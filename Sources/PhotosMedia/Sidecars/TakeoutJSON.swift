import Foundation

/// The JSON Google Takeout writes beside each photo and in each album
/// folder. A photo's has `photoTakenTime` (seconds since 1970, as text),
/// `geoData` (where Google Photos places it, the person's corrections
/// included) and `geoDataExif` (what the file said), `favorited`,
/// `archived`, and the `description` the person wrote (its `title` is the
/// file's name); an album's has a `title` and no `photoTakenTime`, in
/// whatever language its file is named (`metadata.json`, `Metadaten.json`...).
package enum TakeoutJSON {
    /// The file's top-level object; nil when it is not a small JSON object.
    static func object(at url: URL) -> [String: Any]? {
        guard Sidecar.isSmallFile(url), let data = try? Data(contentsOf: url) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// A photo's record; nil for an album's or other JSON.
    static func sidecar(_ object: [String: Any], file: URL) -> Sidecar? {
        guard let taken = object["photoTakenTime"] as? [String: Any] else { return nil }
        let seconds = (taken["timestamp"] as? String).flatMap(Double.init) ?? (taken["timestamp"] as? NSNumber)?.doubleValue
        let captureTime = seconds.flatMap { $0 > 86_400 && $0 < 253_402_300_800 ? CaptureTime(date: Date(timeIntervalSince1970: $0), utcOffset: nil) : nil }
        let place = location(object["geoData"])
        let recorded = location(object["geoDataExif"])
        return Sidecar(
            kind: .googleTakeout, file: file, captureTime: captureTime, location: place,
            locationWasCorrected: place != nil && !isSamePlace(place, recorded),
            isFavorite: object["favorited"] as? Bool, isArchived: object["archived"] as? Bool,
            descriptive: DescriptiveMetadata(caption: (object["description"] as? String).flatMap(DescriptiveMetadata.cleaned)))
    }

    /// The title of the album whose folder holds this JSON; nil for a photo's or other JSON.
    package static func albumTitle(at url: URL) -> String? {
        guard let object = object(at: url), object["photoTakenTime"] == nil,
            let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !title.isEmpty
        else { return nil }
        return title
    }

    /// Takeout's place, where 0, 0 means none.
    private static func location(_ value: Any?) -> MediaLocation? {
        guard let place = value as? [String: Any],
            let latitude = (place["latitude"] as? NSNumber)?.doubleValue, let longitude = (place["longitude"] as? NSNumber)?.doubleValue,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            !(latitude == 0 && longitude == 0)
        else { return nil }
        let altitude = (place["altitude"] as? NSNumber)?.doubleValue
        return MediaLocation(latitude: latitude, longitude: longitude, altitude: altitude.flatMap { $0.isFinite && $0 != 0 ? $0 : nil })
    }

    private static func isSamePlace(_ a: MediaLocation?, _ b: MediaLocation?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.latitude - b.latitude) < 1e-6 && abs(a.longitude - b.longitude) < 1e-6
    }
}
