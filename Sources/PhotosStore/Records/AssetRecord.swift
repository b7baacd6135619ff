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

    package init(
        latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil,
        horizontalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil
    ) {
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
    package var mediaSubtypes: AssetMediaSubtypes
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
    package var burstSelectionTypes: AssetBurstSelectionTypes
    package var representsBurst: Bool
    package var playbackStyle: AssetPlaybackStyle
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
    package var rating: AssetRating
    /// When the content was last edited, or reverted; nil when never.
    package var adjustmentTimestamp: Date?
    package var originalResourceChoice: AssetOriginalResourceChoice
    /// The effect a Live Photo plays with, as its files or their sidecar said when it was added.
    package var playbackVariation: AssetPlaybackVariation
    /// The caption and keywords, when the read that made the record asked
    /// for them (``SQLPhotoStore/assets(ids:extendedMetadata:)``); nil when it did not.
    package var extendedMetadata: ExtendedMetadataRecord?

    package init(
        id: Int64 = 0, uuid: String, mediaType: AssetMediaType, mediaSubtypes: AssetMediaSubtypes = [],
        pixelWidth: Int = 0, pixelHeight: Int = 0, creationDate: Date? = nil,
        modificationDate: Date, addedDate: Date, duration: Double = 0,
        location: StoredLocation? = nil, isFavorite: Bool = false, isHidden: Bool = false,
        sourceType: AssetSourceTypes = .userLibrary, burstIdentifier: String? = nil, burstSelectionTypes: AssetBurstSelectionTypes = [],
        representsBurst: Bool = false, playbackStyle: AssetPlaybackStyle, adjustmentFormatIdentifier: String? = nil,
        trashedDate: Date? = nil, isFrontCamera: Bool = false, isLongExposure: Bool = false,
        hasRAWOriginal: Bool = false, originalFilename: String? = nil,
        uniformTypeIdentifier: String? = nil, timeZoneOffset: Int? = nil,
        cameraMake: String? = nil, cameraModel: String? = nil, lensModel: String? = nil,
        contentHash: String? = nil, contentVersion: Int = 0, adjustmentFormatVersion: String? = nil,
        thumbHash: Data? = nil, rating: AssetRating = .unset, extendedMetadata: ExtendedMetadataRecord? = nil,
        adjustmentTimestamp: Date? = nil, originalResourceChoice: AssetOriginalResourceChoice = .compressed,
        playbackVariation: AssetPlaybackVariation = .none
    ) {
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
        self.rating = rating
        self.extendedMetadata = extendedMetadata
        self.adjustmentTimestamp = adjustmentTimestamp
        self.originalResourceChoice = originalResourceChoice
        self.playbackVariation = playbackVariation
    }

    /// The `asset` table's columns, declared once: their order is the
    /// order `selection` reads them in and `init(row:)` decodes them, and
    /// `value(of:)` must say what each one stores (the compiler checks that
    /// none is left out).
    enum Column: Int, ColumnList {
        case id, uuid, mediaType, mediaSubtypes, pixelWidth, pixelHeight
        case creationDate, modificationDate, addedDate, duration
        case latitude, longitude, altitude, locationDate, horizontalAccuracy, course, speed
        case isFavorite, isHidden, sourceType, burstIdentifier, burstSelectionTypes
        case representsBurst, playbackStyle, adjustmentFormatIdentifier, trashedDate
        case isFrontCamera, isLongExposure, hasRawOriginal, originalFilename
        case uniformTypeIdentifier, timeZoneOffset, cameraMake, cameraModel, lensModel
        case contentHash, contentVersion, adjustmentFormatVersion, thumbHash, rating
        case adjustmentTimestamp, originalResourceChoice, playbackVariation
    }

    /// Every column, qualified by the alias `a`, in ``Column`` order.
    static let selection = Column.selection(.asset)

    /// The statement selecting one asset by id (its one argument), written
    /// once: a fetch result reads one at random this way.
    static let selectionByID = "SELECT \(selection) FROM asset a WHERE a.id = ?"

    /// Every column, then the caption and keywords (``ExtendedMetadataRecord``).
    static let selectionWithExtendedMetadata =
        selection + ", " + ExtendedMetadataRecord.columns.map { TableAlias.asset[$0] }.joined(separator: ", ")

    /// ``selectionByID`` with the caption and keywords.
    static let selectionWithExtendedMetadataByID = "SELECT \(selectionWithExtendedMetadata) FROM asset a WHERE a.id = ?"

    /// Decodes a row selected with ``selectionWithExtendedMetadata``.
    init(rowWithExtendedMetadata row: any SQLColumnReader) throws(StoredValueError) {
        try self.init(row: row, withExtendedMetadata: true)
    }

    /// Decodes a row selected with `selection`, kept or read in place.
    init(row: any SQLColumnReader) throws(StoredValueError) {
        try self.init(row: row, withExtendedMetadata: false)
    }

    /// Decodes a row's columns, and the caption and keywords after them
    /// when it has them: every property set once, in place, since a record
    /// decoded and then completed is copied whole, which an enumeration
    /// would pay per row.
    private init(row: any SQLColumnReader, withExtendedMetadata: Bool) throws(StoredValueError) {
        typealias C = Column
        id = try row[C.id.rawValue]
        uuid = try row[C.uuid.rawValue]
        mediaType = AssetMediaType(rawValue: try row[C.mediaType.rawValue]) ?? .unknown
        mediaSubtypes = AssetMediaSubtypes(rawValue: try row[C.mediaSubtypes.rawValue])
        pixelWidth = try row[C.pixelWidth.rawValue]
        pixelHeight = try row[C.pixelHeight.rawValue]
        creationDate = (try row[C.creationDate.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
        modificationDate = Date(timeIntervalSince1970: try row[C.modificationDate.rawValue])
        addedDate = Date(timeIntervalSince1970: try row[C.addedDate.rawValue])
        duration = try row[C.duration.rawValue]
        if let latitude = try row[C.latitude.rawValue] as Double?, let longitude = try row[C.longitude.rawValue] as Double? {
            location = StoredLocation(
                latitude: latitude, longitude: longitude, altitude: try row[C.altitude.rawValue],
                timestamp: (try row[C.locationDate.rawValue] as Double?).map(Date.init(timeIntervalSince1970:)),
                horizontalAccuracy: try row[C.horizontalAccuracy.rawValue], course: try row[C.course.rawValue], speed: try row[C.speed.rawValue])
        } else {
            location = nil
        }
        isFavorite = try row[C.isFavorite.rawValue]
        isHidden = try row[C.isHidden.rawValue]
        sourceType = AssetSourceTypes(rawValue: try row[C.sourceType.rawValue])
        burstIdentifier = try row[C.burstIdentifier.rawValue]
        burstSelectionTypes = AssetBurstSelectionTypes(rawValue: try row[C.burstSelectionTypes.rawValue])
        representsBurst = try row[C.representsBurst.rawValue]
        playbackStyle = AssetPlaybackStyle(rawValue: try row[C.playbackStyle.rawValue]) ?? .unsupported
        adjustmentFormatIdentifier = try row[C.adjustmentFormatIdentifier.rawValue]
        trashedDate = (try row[C.trashedDate.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
        isFrontCamera = try row[C.isFrontCamera.rawValue]
        isLongExposure = try row[C.isLongExposure.rawValue]
        hasRAWOriginal = try row[C.hasRawOriginal.rawValue]
        originalFilename = try row[C.originalFilename.rawValue]
        uniformTypeIdentifier = try row[C.uniformTypeIdentifier.rawValue]
        timeZoneOffset = try row[C.timeZoneOffset.rawValue]
        cameraMake = try row[C.cameraMake.rawValue]
        cameraModel = try row[C.cameraModel.rawValue]
        lensModel = try row[C.lensModel.rawValue]
        contentHash = try row[C.contentHash.rawValue]
        contentVersion = try row[C.contentVersion.rawValue]
        adjustmentFormatVersion = try row[C.adjustmentFormatVersion.rawValue]
        thumbHash = try row[C.thumbHash.rawValue]
        rating = AssetRating(rawValue: try row[C.rating.rawValue]) ?? .unset
        adjustmentTimestamp = (try row[C.adjustmentTimestamp.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
        originalResourceChoice = AssetOriginalResourceChoice(rawValue: try row[C.originalResourceChoice.rawValue]) ?? .compressed
        playbackVariation = AssetPlaybackVariation(rawValue: try row[C.playbackVariation.rawValue]) ?? .none
        extendedMetadata = withExtendedMetadata ? try ExtendedMetadataRecord(row: row, at: Column.allCases.count) : nil
    }

    /// What the record stores in a column.
    func value(of column: Column) -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .uuid: uuid
        case .mediaType: mediaType.rawValue
        case .mediaSubtypes: mediaSubtypes.rawValue
        case .pixelWidth: pixelWidth
        case .pixelHeight: pixelHeight
        case .creationDate: creationDate?.timeIntervalSince1970
        case .modificationDate: modificationDate.timeIntervalSince1970
        case .addedDate: addedDate.timeIntervalSince1970
        case .duration: duration
        case .latitude: location?.latitude
        case .longitude: location?.longitude
        case .altitude: location?.altitude
        case .locationDate: location?.timestamp?.timeIntervalSince1970
        case .horizontalAccuracy: location?.horizontalAccuracy
        case .course: location?.course
        case .speed: location?.speed
        case .isFavorite: isFavorite
        case .isHidden: isHidden
        case .sourceType: sourceType.rawValue
        case .burstIdentifier: burstIdentifier
        case .burstSelectionTypes: burstSelectionTypes.rawValue
        case .representsBurst: representsBurst
        case .playbackStyle: playbackStyle.rawValue
        case .adjustmentFormatIdentifier: adjustmentFormatIdentifier
        case .trashedDate: trashedDate?.timeIntervalSince1970
        case .isFrontCamera: isFrontCamera
        case .isLongExposure: isLongExposure
        case .hasRawOriginal: hasRAWOriginal
        case .originalFilename: originalFilename
        case .uniformTypeIdentifier: uniformTypeIdentifier
        case .timeZoneOffset: timeZoneOffset
        case .cameraMake: cameraMake
        case .cameraModel: cameraModel
        case .lensModel: lensModel
        case .contentHash: contentHash
        case .contentVersion: contentVersion
        case .adjustmentFormatVersion: adjustmentFormatVersion
        case .thumbHash: thumbHash
        case .rating: rating.rawValue
        case .adjustmentTimestamp: adjustmentTimestamp?.timeIntervalSince1970
        case .originalResourceChoice: originalResourceChoice.rawValue
        case .playbackVariation: playbackVariation.rawValue
        }
    }

    /// The columns an insert writes: all but `id`, which SQLite assigns.
    private static let insertedColumns = Column.allCases.dropFirst()

    /// Values for ``insertSQL``: every inserted column's, then the
    /// original's placeholder (the same at creation), which a revert
    /// restores, then the caption and keywords a new asset comes with.
    package var insertArguments: SQLArguments {
        SQLArguments(
            Self.insertedColumns.map(value(of:)) + [
                thumbHash, extendedMetadata?.caption, ExtendedMetadataRecord.stored(keywords: extendedMetadata?.keywords ?? []),
            ])
    }

    /// The statement inserting one asset with ``insertArguments``.
    package static let insertSQL = """
        INSERT INTO asset (\(insertedColumns.map(\.name).joined(separator: ", ")), original_thumb_hash, \(
            ExtendedMetadataRecord.columns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: insertedColumns.count + 1 + ExtendedMetadataRecord.columns.count).joined(separator: ", ")))
        """
}
