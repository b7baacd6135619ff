import Foundation
import Photos

/// An asset with every PhotoKit property, as `/v1/assets` returns it and
/// `photos ls --json` prints it: the one JSON shape of an asset.
/// PhotoKit's enumerations go by name (``PhotoKitNamed``), never by Apple's integers.
/// `id` is the UUID that names it in URLs; `localIdentifier` is PhotoKit's.
package struct AssetRepresentation: Encodable, Sendable {
    struct Location: Codable, Sendable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    let id: String
    let localIdentifier: String
    /// `PHAssetMediaType` by name: `"image"`, `"video"`, `"audio"` or `"unknown"`.
    let mediaType: String
    /// The names of the `PHAssetMediaSubtype` options it has (`"photoLive"`).
    let mediaSubtypes: [String]
    /// `PHAsset.PlaybackStyle` by name (`"livePhoto"`).
    let playbackStyle: String
    let contentType: String
    let pixelWidth: Int
    let pixelHeight: Int
    let creationDate: Date?
    /// Seconds east of UTC where it was taken, so clients show its time as it was there.
    let creationTimeZoneOffset: Int?
    let modificationDate: Date?
    let addedDate: Date
    let location: Location?
    let duration: Double
    let isFavorite: Bool
    let isHidden: Bool
    /// `PHAssetSourceType` by name (`"userLibrary"`).
    let sourceType: String
    let burstIdentifier: String?
    let representsBurst: Bool
    /// The names of the `PHAssetBurstSelectionType` options it has.
    let burstSelectionTypes: [String]
    let hasAdjustments: Bool
    let adjustmentFormatIdentifier: String?
    let contentVersion: Int
    /// Base64 ThumbHash placeholder; absent where there is none.
    let thumbHash: String?
    let cameraMake: String?
    let cameraModel: String?
    /// The name of the file it was imported from.
    let originalFilename: String?

    /// The representation of `asset`. Cost: none beyond the fetched asset; no query.
    package init(_ asset: PHAsset) {
        id = ObjectID.urlForm(asset.localIdentifier)
        localIdentifier = asset.localIdentifier
        mediaType = asset.mediaType.name
        mediaSubtypes = asset.mediaSubtypes.names
        playbackStyle = asset.playbackStyle.name
        contentType = asset.contentType.identifier
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        creationDate = asset.creationDate
        creationTimeZoneOffset = asset.creationTimeZoneOffset
        modificationDate = asset.modificationDate
        addedDate = asset.addedDate
        // A location a client stored with coordinates off the globe (or not
        // numbers at all) is sent as none: JSON cannot hold infinities.
        location = asset.location.flatMap {
            guard (-90...90).contains($0.coordinate.latitude), (-180...180).contains($0.coordinate.longitude) else { return nil }
            return Location(
                latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                altitude: $0.altitude == 0 || !$0.altitude.isFinite ? nil : $0.altitude)
        }
        duration = asset.duration
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        sourceType = asset.sourceType.names.first ?? "userLibrary"
        burstIdentifier = asset.burstIdentifier
        representsBurst = asset.representsBurst
        burstSelectionTypes = asset.burstSelectionTypes.names
        hasAdjustments = asset.hasAdjustments
        adjustmentFormatIdentifier = asset.adjustmentFormatIdentifier
        contentVersion = asset.contentVersion
        thumbHash = asset.thumbHash?.base64EncodedString()
        cameraMake = asset.cameraMake
        cameraModel = asset.cameraModel
        originalFilename = asset.originalFilename
    }
}

/// A stored file of an asset, as `/v1/assets/{id}/resources` lists it and `photos show --json` prints it.
package struct ResourceRepresentation: Encodable, Sendable {
    /// `PHAssetResourceType` by name (`"pairedVideo"`).
    let type: String
    let originalFilename: String
    let uniformTypeIdentifier: String
    let pixelWidth: Int
    let pixelHeight: Int

    /// The representation of `resource`.
    package init(_ resource: PHAssetResource) {
        type = resource.type.name
        originalFilename = resource.originalFilename
        uniformTypeIdentifier = resource.uniformTypeIdentifier
        pixelWidth = resource.pixelWidth
        pixelHeight = resource.pixelHeight
    }
}

/// Object ids in URLs: a local identifier's UUID (`UUID/L0/001` → `UUID`),
/// checked for shape before it reaches a fetch, so a path trick is a 404.
enum ObjectID {
    static func urlForm(_ localIdentifier: String) -> String {
        String(localIdentifier.prefix { $0 != "/" })
    }

    /// The local identifier of the `type` object an id in a URL names; nil when the id is not a UUID.
    static func localIdentifier(_ id: String, of type: PHObjectType) -> String? {
        guard id.utf8.count == 36 else { return nil }
        return type.localIdentifier(id)
    }
}
