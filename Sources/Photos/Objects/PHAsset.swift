import Foundation
import PhotosStore
import Synchronization

/// A photo or video in the library: an immutable snapshot of its metadata.
/// Images come from `PHImageManager`; changes go through
/// `PHAssetChangeRequest` inside a change block.
open class PHAsset: PHObject, @unchecked Sendable {
    let record: AssetRecord
    /// The caption and keywords, once made (``extendedMetadata``).
    private let extendedMetadataObject: Mutex<PHAssetExtendedMetadata?>

    init(record: consuming AssetRecord, library: PHPhotoLibrary?) {
        // Prefetched, they are made with the asset, on the thread that reads
        // a fetch's rows ahead of its enumeration rather than the caller's,
        // and move into their object, which alone keeps them.
        let prefetched = record.extendedMetadata.take()
        extendedMetadataObject = Mutex(prefetched.map { PHAssetExtendedMetadata($0, originalFilename: record.originalFilename) })
        self.record = record
        super.init(localIdentifier: LocalIdentifier(uuid: record.uuid, entity: .asset).description, library: library)
    }

    /// The caption and keywords as stored now; none when the asset cannot be read.
    private func readExtendedMetadata() -> ExtendedMetadataRecord {
        guard let store = library?.store else { return ExtendedMetadataRecord() }
        do {
            return try store.assets(ids: [record.id], extendedMetadata: true).first?.extendedMetadata ?? ExtendedMetadataRecord()
        } catch {
            Diagnostics.report(error, while: "reading an asset's extended metadata")
            return ExtendedMetadataRecord()
        }
    }

    /// An asset deleted since the fetch that named it: only its identity is left.
    convenience init(deletedUUID uuid: String, rowID: Int64, library: PHPhotoLibrary?) {
        self.init(
            record: AssetRecord(
                id: rowID, uuid: uuid, mediaType: .unknown,
                modificationDate: .distantPast, addedDate: .distantPast,
                playbackStyle: .unsupported),
            library: library)
    }

    /// How the asset plays back: still, animated, Live Photo, video, looping video.
    public var playbackStyle: PlaybackStyle { PlaybackStyle(record.playbackStyle) }
    /// Image, video or audio.
    public var mediaType: PHAssetMediaType { PHAssetMediaType(record.mediaType) }
    /// Traits such as panorama, HDR, Live Photo, time-lapse.
    public var mediaSubtypes: PHAssetMediaSubtype { PHAssetMediaSubtype(record.mediaSubtypes) }
    /// The type of the asset's original file, such as JPEG or QuickTime movie.
    public var contentType: UTType {
        record.uniformTypeIdentifier.flatMap { UTType($0) } ?? (mediaType == .video ? .movie : mediaType == .image ? .image : .data)
    }
    /// Width in pixels, as displayed (the EXIF orientation applied).
    public var pixelWidth: Int { record.pixelWidth }
    /// Height in pixels, as displayed (the EXIF orientation applied).
    public var pixelHeight: Int { record.pixelHeight }
    /// When the photo or video was taken; the user can change it.
    public var creationDate: Date? { record.creationDate }
    /// When the asset or one of its properties last changed.
    public var modificationDate: Date? { record.modificationDate }
    /// When the asset was added to the library.
    public var addedDate: Date { record.addedDate }
    /// Where the photo or video was taken.
    public var location: CLLocation? {
        guard let stored = record.location else { return nil }
        return CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: stored.latitude, longitude: stored.longitude),
            altitude: stored.altitude ?? 0,
            horizontalAccuracy: stored.horizontalAccuracy ?? 0,
            verticalAccuracy: stored.altitude == nil ? -1 : 0,
            course: stored.course ?? -1, courseAccuracy: -1,
            speed: stored.speed ?? -1, speedAccuracy: -1,
            timestamp: stored.timestamp ?? record.creationDate ?? record.addedDate)
    }
    /// Length of a video in seconds; 0 for photos.
    public var duration: TimeInterval { record.duration }
    /// Whether the user hid the asset: fetches leave it out unless they include hidden assets.
    public var isHidden: Bool { record.isHidden }
    /// Whether the user marked the asset as a favorite.
    public var isFavorite: Bool { record.isFavorite }
    /// How many stars a person gave the asset; ``Rating-swift.enum/unset`` when none.
    public var rating: Rating { Rating(record.rating) }
    /// Whether the asset's content is as captured, edited by a person, or
    /// adjusted by the camera (an HDR or Portrait capture) and not edited since.
    public var adjustmentsState: AdjustmentsState {
        if hasAdjustments { return .userAdjusted }
        return record.mediaSubtypes.contains(.photoHDR) || record.mediaSubtypes.contains(.photoDepthEffect) ? .cameraAutoAdjusted : .none
    }
    /// When the content was last edited, or reverted after an edit; nil
    /// for an asset never edited.
    public var adjustmentTimestamp: Date? { record.adjustmentTimestamp }
    /// Which original renders the asset when unedited and is the base of
    /// its edits: ``OriginalResourceChoice-swift.enum/raw`` only for a
    /// RAW+JPEG asset whose raw file was chosen
    /// (``PHAssetChangeRequest/revertAssetContent(to:)``).
    public var originalResourceChoice: OriginalResourceChoice { OriginalResourceChoice(record.originalResourceChoice) }
    /// The Live Photo effect the asset plays with (Loop, Bounce, Long
    /// Exposure), as its files said when it was added: the `.AAE` sidecar
    /// Apple's Photos writes beside an exported Live Photo, or an
    /// `adjustmentData` resource holding one, or the effect a rendered
    /// video of Apple's names. ``PlaybackVariation-swift.enum/none`` for
    /// every other asset. Cost: none (read with the asset).
    public var playbackVariation: PlaybackVariation { PlaybackVariation(record.playbackVariation) }
    /// The asset's caption, keywords and original file name, which a fetch
    /// reads apart from its other properties. Cost: none when the fetch
    /// that made the asset prefetched them
    /// (``PHFetchOptions/prefetchAssetExtendedMetadata``); otherwise one
    /// query the first time it is read on this object, which keeps what it
    /// read. An asset that cannot be read any more (deleted since) has an
    /// empty caption and no keywords.
    public var extendedMetadata: PHAssetExtendedMetadata {
        extendedMetadataObject.withLock { cached in
            if let cached { return cached }
            let read = PHAssetExtendedMetadata(readExtendedMetadata(), originalFilename: record.originalFilename)
            cached = read
            return read
        }
    }
    /// The caption and keywords if they were prefetched or read already,
    /// without reading them: nil otherwise.
    var extendedMetadataIfRead: PHAssetExtendedMetadata? { extendedMetadataObject.withLock { $0 } }

    /// Shared by the photos of one burst.
    public var burstIdentifier: String? { record.burstIdentifier }
    /// Whether the camera suggested, or the user picked, this photo of its burst.
    public var burstSelectionTypes: PHAssetBurstSelectionType {
        PHAssetBurstSelectionType(rawValue: UInt(record.burstSelectionTypes.rawValue))
    }
    /// Whether this photo stands for its burst in fetches.
    public var representsBurst: Bool { record.representsBurst }
    /// Where the asset comes from: the user's library, a shared album, a sync.
    public var sourceType: PHAssetSourceType { PHAssetSourceType(record.sourceType) }
    /// Whether the asset has edits.
    public var hasAdjustments: Bool { record.adjustmentFormatIdentifier != nil }
    /// Who made the edits; nil when there are none.
    public var adjustmentFormatIdentifier: String? { record.adjustmentFormatIdentifier }
    /// The version of what the asset shows, an OpenPhotoKit addition: it
    /// grows with each edit or revert and never goes back, so it names a
    /// rendition for caching.
    public var contentVersion: Int { record.contentVersion }
    /// Seconds east of UTC of the clock that recorded ``creationDate`` (the
    /// file's own offset, else the importing machine's zone then); nil when
    /// unknown. The day and time the photo was taken where it was taken.
    package var creationTimeZoneOffset: Int? { record.timeZoneOffset }
    /// The name of the file it was imported from, kept with the asset (no
    /// resource is fetched for it); nil for an asset made from data.
    package var originalFilename: String? { record.originalFilename }
    /// The maker of the camera that took it, from the original's metadata;
    /// an OpenPhotoKit addition (Apple's clients read it from the file).
    public var cameraMake: String? { record.cameraMake }
    /// The model of the camera that took it, from the original's metadata;
    /// an OpenPhotoKit addition.
    public var cameraModel: String? { record.cameraModel }

    /// Whether the asset allows an edit. Assets of the user's library allow
    /// every edit; shared and synced assets allow none.
    public func canPerform(_ editOperation: PHAssetEditOperation) -> Bool {
        sourceType == .typeUserLibrary && mediaType != .unknown
    }

    open override var description: String {
        let date = creationDate.map { "\($0)" } ?? "nil"
        return "<PHAsset> \(localIdentifier) mediaType=\(mediaType.rawValue)/\(mediaSubtypes.rawValue), "
            + "sourceType=\(sourceType.rawValue), (\(pixelWidth)x\(pixelHeight)), creationDate=\(date), "
            + "location=\(record.location == nil ? 0 : 1), hidden=\(isHidden ? 1 : 0), favorite=\(isFavorite ? 1 : 0)"
    }
}
