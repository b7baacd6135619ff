import Foundation
import Photos

/// An asset with every PhotoKit property, as `/v1/assets` returns it.
/// `id` is the UUID that names it in URLs; `localIdentifier` is PhotoKit's.
struct AssetRepresentation: Encodable, Sendable {
    struct Location: Codable, Sendable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    let id: String
    let localIdentifier: String
    let mediaType: Int
    let mediaSubtypes: UInt
    let playbackStyle: Int
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
    let sourceType: UInt
    let burstIdentifier: String?
    let representsBurst: Bool
    let burstSelectionTypes: UInt
    let hasAdjustments: Bool
    let adjustmentFormatIdentifier: String?
    let contentVersion: Int
    /// Base64 ThumbHash placeholder; absent where there is none.
    let thumbHash: String?
    let cameraMake: String?
    let cameraModel: String?

    init(_ asset: PHAsset) {
        id = ObjectID.urlForm(asset.localIdentifier)
        localIdentifier = asset.localIdentifier
        mediaType = asset.mediaType.rawValue
        mediaSubtypes = asset.mediaSubtypes.rawValue
        playbackStyle = asset.playbackStyle.rawValue
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
            return Location(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                            altitude: $0.altitude == 0 || !$0.altitude.isFinite ? nil : $0.altitude)
        }
        duration = asset.duration
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        sourceType = asset.sourceType.rawValue
        burstIdentifier = asset.burstIdentifier
        representsBurst = asset.representsBurst
        burstSelectionTypes = asset.burstSelectionTypes.rawValue
        hasAdjustments = asset.hasAdjustments
        adjustmentFormatIdentifier = asset.adjustmentFormatIdentifier
        contentVersion = asset.contentVersion
        thumbHash = asset.thumbHash?.base64EncodedString()
        cameraMake = asset.cameraMake
        cameraModel = asset.cameraModel
    }
}

/// A stored file of an asset.
struct ResourceRepresentation: Encodable, Sendable {
    let type: Int
    let originalFilename: String
    let uniformTypeIdentifier: String
    let pixelWidth: Int
    let pixelHeight: Int

    init(_ resource: PHAssetResource) {
        type = resource.type.rawValue
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

    /// The local identifier an id in a URL names, as `suffix` objects have
    /// it (`001` assets, `040` albums, `020` folders); nil when it is not a UUID.
    static func localIdentifier(_ id: String, suffix: String) -> String? {
        guard id.utf8.count == 36, UUID(uuidString: id) != nil else { return nil }
        return id.uppercased() + "/L0/" + suffix
    }
}
