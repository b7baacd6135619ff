import Foundation
import GRDB

/// A stored position. Mirrors what PhotoKit's `CLLocation` carries.
package struct StoredLocation: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    package var altitude: Double?
    package var timestamp: Date?
    package var horizontalAccuracy: Double?
    package var course: Double?
    package var speed: Double?

    package init(latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil,
                 horizontalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
        self.horizontalAccuracy = horizontalAccuracy
        self.course = course
        self.speed = speed
    }
}

/// One row of the `asset` table. Integer codes are PhotoKit's raw values.
package struct AssetRecord: Sendable, Equatable {
    /// The row id; 0 for an asset not stored yet.
    package var id: Int64
    package var uuid: String
    package var mediaType: AssetMediaType
    package var mediaSubtypes: Int
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var creationDate: Date?
    package var modificationDate: Date
    package var addedDate: Date
    package var duration: Double
    package var location: StoredLocation?
    package var isFavorite: Bool
    package var isHidden: Bool
    package var sourceType: AssetSourceTypes
    package var burstIdentifier: String?
    package var burstSelectionTypes: Int
    package var representsBurst: Bool
    package var playbackStyle: Int
    package var adjustmentFormatIdentifier: String?
    /// When the asset was moved to Recently Deleted; nil when it is not there.
    package var trashedDate: Date?
    package var isFrontCamera: Bool
    package var isLongExposure: Bool
    package var hasRAWOriginal: Bool
    package var originalFilename: String?
    package var uniformTypeIdentifier: String?
    /// Seconds east of UTC the capture date was recorded in, when known.
    package var timeZoneOffset: Int?
    package var cameraMake: String?
    package var cameraModel: String?
    package var lensModel: String?
    /// The XXH3-128 hash of the original's bytes, to recognise duplicates.
    package var contentHash: String?
    /// Counts edits of the asset's content (and reverts): derivatives made
    /// for one version are stale for the next.
    package var contentVersion: Int
    /// The version of the adjustment format of the current edit.
    package var adjustmentFormatVersion: String?
    /// The ThumbHash placeholder of what the asset shows (~25 bytes).
    package var thumbHash: Data?

    package init(id: Int64 = 0, uuid: String, mediaType: AssetMediaType, mediaSubtypes: Int = 0,
                 pixelWidth: Int = 0, pixelHeight: Int = 0, creationDate: Date? = nil,
                 modificationDate: Date, addedDate: Date, duration: Double = 0,
                 location: StoredLocation? = nil, isFavorite: Bool = false, isHidden: Bool = false,
                 sourceType: AssetSourceTypes = .userLibrary, burstIdentifier: String? = nil, burstSelectionTypes: Int = 0,
                 representsBurst: Bool = false, playbackStyle: Int, adjustmentFormatIdentifier: String? = nil,
                 trashedDate: Date? = nil, isFrontCamera: Bool = false, isLongExposure: Bool = false,
                 hasRAWOriginal: Bool = false, originalFilename: String? = nil,
                 uniformTypeIdentifier: String? = nil, timeZoneOffset: Int? = nil,
                 cameraMake: String? = nil, cameraModel: String? = nil, lensModel: String? = nil,
                 contentHash: String? = nil, contentVersion: Int = 0, adjustmentFormatVersion: String? = nil,
                 thumbHash: Data? = nil) {
        self.id = id
        self.uuid = uuid
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.addedDate = addedDate
        self.duration = duration
        self.location = location
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.sourceType = sourceType
        self.burstIdentifier = burstIdentifier
        self.burstSelectionTypes = burstSelectionTypes
        self.representsBurst = representsBurst
        self.playbackStyle = playbackStyle
        self.adjustmentFormatIdentifier = adjustmentFormatIdentifier
        self.trashedDate = trashedDate
        self.isFrontCamera = isFrontCamera
        self.isLongExposure = isLongExposure
        self.hasRAWOriginal = hasRAWOriginal
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.timeZoneOffset = timeZoneOffset
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.lensModel = lensModel
        self.contentHash = contentHash
        self.contentVersion = contentVersion
        self.adjustmentFormatVersion = adjustmentFormatVersion
        self.thumbHash = thumbHash
    }

    /// The stored columns, in the order `init(row:)` reads and `insertArguments` writes them.
    static let columns = [
        "id", "uuid", "media_type", "media_subtypes", "pixel_width", "pixel_height",
        "creation_date", "modification_date", "added_date", "duration",
        "latitude", "longitude", "altitude", "location_date", "horizontal_accuracy", "course", "speed",
        "is_favorite", "is_hidden", "source_type", "burst_identifier", "burst_selection_types",
        "represents_burst", "playback_style", "adjustment_format_identifier", "trashed_date",
        "is_front_camera", "is_long_exposure", "has_raw_original", "original_filename",
        "uniform_type_identifier", "time_zone_offset", "camera_make", "camera_model", "lens_model",
        "content_hash", "content_version", "adjustment_format_version", "thumb_hash",
    ]

    static let selection = columns.map { "a." + $0 }.joined(separator: ", ")

    /// Decodes a row selected with `selection`.
    init(row: Row) {
        id = row[0]
        uuid = row[1]
        mediaType = AssetMediaType(rawValue: row[2]) ?? .unknown
        mediaSubtypes = row[3]
        pixelWidth = row[4]
        pixelHeight = row[5]
        creationDate = (row[6] as Double?).map(Date.init(timeIntervalSince1970:))
        modificationDate = Date(timeIntervalSince1970: row[7])
        addedDate = Date(timeIntervalSince1970: row[8])
        duration = row[9]
        if let latitude = row[10] as Double?, let longitude = row[11] as Double? {
            location = StoredLocation(
                latitude: latitude, longitude: longitude, altitude: row[12],
                timestamp: (row[13] as Double?).map(Date.init(timeIntervalSince1970:)),
                horizontalAccuracy: row[14], course: row[15], speed: row[16])
        } else {
            location = nil
        }
        isFavorite = row[17]
        isHidden = row[18]
        sourceType = AssetSourceTypes(rawValue: row[19])
        burstIdentifier = row[20]
        burstSelectionTypes = row[21]
        representsBurst = row[22]
        playbackStyle = row[23]
        adjustmentFormatIdentifier = row[24]
        trashedDate = (row[25] as Double?).map(Date.init(timeIntervalSince1970:))
        isFrontCamera = row[26]
        isLongExposure = row[27]
        hasRAWOriginal = row[28]
        originalFilename = row[29]
        uniformTypeIdentifier = row[30]
        timeZoneOffset = row[31]
        cameraMake = row[32]
        cameraModel = row[33]
        lensModel = row[34]
        contentHash = row[35]
        contentVersion = row[36]
        adjustmentFormatVersion = row[37]
        thumbHash = row[38]
    }

    /// Values for every column but `id`, in `columns` order, then the
    /// original's placeholder (the same at creation), which a revert restores.
    package var insertArguments: StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            uuid, mediaType.rawValue, mediaSubtypes, pixelWidth, pixelHeight,
            creationDate?.timeIntervalSince1970, modificationDate.timeIntervalSince1970,
            addedDate.timeIntervalSince1970, duration,
            location?.latitude, location?.longitude, location?.altitude,
            location?.timestamp?.timeIntervalSince1970, location?.horizontalAccuracy, location?.course, location?.speed,
            isFavorite, isHidden, sourceType.rawValue, burstIdentifier, burstSelectionTypes,
            representsBurst, playbackStyle, adjustmentFormatIdentifier, trashedDate?.timeIntervalSince1970,
            isFrontCamera, isLongExposure, hasRAWOriginal, originalFilename,
            uniformTypeIdentifier, timeZoneOffset, cameraMake, cameraModel, lensModel,
            contentHash, contentVersion, adjustmentFormatVersion, thumbHash,
            thumbHash,
        ]
        return StatementArguments(values)
    }

    /// The statement inserting one asset with ``insertArguments``.
    package static let insertSQL = """
        INSERT INTO asset (\(columns.dropFirst().joined(separator: ", ")), original_thumb_hash)
        VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
        """
}
