import Foundation
import PhotosStore

// PhotoKit's enumerations and option sets, with Apple's Swift names and raw
// values, so archived values and client code carry over unchanged.

/// How an image fits a target size.
public enum PHImageContentMode: Int, Sendable {
    /// Scales to fit the whole image inside the target size.
    case aspectFit = 0
    /// Scales to fill the target size, clipping what overflows.
    case aspectFill = 1

    /// The same as `aspectFit`.
    public static var `default`: PHImageContentMode { .aspectFit }
}

/// The kinds of collection lists.
public enum PHCollectionListType: Int, Sendable {
    /// A list of moments (deprecated by Apple, still computed here).
    case momentList = 1
    /// A folder of albums and other folders.
    case folder = 2
    /// A folder the system makes.
    case smartFolder = 3
}

/// The subtypes of collection lists.
public enum PHCollectionListSubtype: Int, Sendable {
    /// Moments grouped into clusters close in time.
    case momentListCluster = 1
    /// Moments grouped by year.
    case momentListYear = 2
    /// A folder the user made.
    case regularFolder = 100
    /// The one folder that holds a library's top-level albums and folders;
    /// it cannot be renamed or deleted.
    case rootFolder = 101
    case smartFolderEvents = 200
    case smartFolderFaces = 201
    /// Any subtype, for fetching.
    case any = 9_223_372_036_854_775_807
}

/// Edits a collection may allow; ask with `PHCollection.canPerform(_:)`.
public enum PHCollectionEditOperation: Int, Sendable {
    /// Deleting the collection's assets from the library.
    case deleteContent = 1
    /// Removing members from the collection.
    case removeContent = 2
    /// Adding existing assets or collections.
    case addContent = 3
    /// Creating new assets or collections in it.
    case createContent = 4
    /// Reordering members.
    case rearrangeContent = 5
    /// Deleting the collection itself.
    case delete = 6
    /// Renaming the collection.
    case rename = 7
}

/// The kinds of asset collections.
public enum PHAssetCollectionType: Int, Sendable {
    /// An album the user made.
    case album = 1
    /// An album computed from the assets' state.
    case smartAlbum = 2
    /// Assets taken close together in time and place (deprecated by Apple, still computed here).
    case moment = 3
}

/// The subtypes of asset collections.
///
/// `smartAlbumRecentlyDeleted` is an addition: Apple's Photos gives its
/// Recently Deleted album the private subtype 1000000201, which Swift can
/// only hold as a named case.
public enum PHAssetCollectionSubtype: Int, Sendable {
    case albumRegular = 2
    case albumSyncedEvent = 3
    case albumSyncedFaces = 4
    case albumSyncedAlbum = 5
    case albumImported = 6
    case albumMyPhotoStream = 100
    case albumCloudShared = 101
    case smartAlbumGeneric = 200
    case smartAlbumPanoramas = 201
    case smartAlbumVideos = 202
    case smartAlbumFavorites = 203
    case smartAlbumTimelapses = 204
    case smartAlbumAllHidden = 205
    case smartAlbumRecentlyAdded = 206
    case smartAlbumBursts = 207
    case smartAlbumSlomoVideos = 208
    case smartAlbumUserLibrary = 209
    case smartAlbumSelfPortraits = 210
    case smartAlbumScreenshots = 211
    case smartAlbumDepthEffect = 212
    case smartAlbumLivePhotos = 213
    case smartAlbumAnimated = 214
    case smartAlbumLongExposures = 215
    case smartAlbumUnableToUpload = 216
    case smartAlbumRAW = 217
    case smartAlbumCinematic = 218
    case smartAlbumSpatial = 219
    case smartAlbumScreenRecordings = 220
    /// Recently Deleted, with the subtype Apple's Photos gives it.
    case smartAlbumRecentlyDeleted = 1_000_000_201
    /// Any subtype, for fetching.
    case any = 9_223_372_036_854_775_807
}

/// Edits an asset may allow; ask with `PHAsset.canPerform(_:)`.
public enum PHAssetEditOperation: Int, Sendable {
    case delete = 1
    case content = 2
    case properties = 3
}

/// What an asset holds.
public enum PHAssetMediaType: Int, Sendable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3
}

/// Traits of an asset's media. The bits are Apple's, and the engine's
/// (`AssetMediaSubtypes`, where they are written).
public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable {
    /// The option bits, as Apple defines them.
    public let rawValue: UInt

    /// Wraps a raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// A panorama.
    public static let photoPanorama = PHAssetMediaSubtype(AssetMediaSubtypes.photoPanorama)
    /// A high-dynamic-range photo.
    public static let photoHDR = PHAssetMediaSubtype(AssetMediaSubtypes.photoHDR)
    /// A screenshot.
    public static let photoScreenshot = PHAssetMediaSubtype(AssetMediaSubtypes.photoScreenshot)
    /// A Live Photo: a still with a short paired video.
    public static let photoLive = PHAssetMediaSubtype(AssetMediaSubtypes.photoLive)
    /// A photo with depth data (Portrait mode).
    public static let photoDepthEffect = PHAssetMediaSubtype(AssetMediaSubtypes.photoDepthEffect)
    /// A spatial (stereoscopic) photo or video.
    public static let spatialMedia = PHAssetMediaSubtype(AssetMediaSubtypes.spatialMedia)
    /// An animated image: a GIF, an animated WebP or PNG.
    public static let photoAnimation = PHAssetMediaSubtype(AssetMediaSubtypes.photoAnimation)
    /// A video streamed rather than stored locally.
    public static let videoStreamed = PHAssetMediaSubtype(AssetMediaSubtypes.videoStreamed)
    /// A high-frame-rate (slow-motion) video.
    public static let videoHighFrameRate = PHAssetMediaSubtype(AssetMediaSubtypes.videoHighFrameRate)
    /// A time-lapse video.
    public static let videoTimelapse = PHAssetMediaSubtype(AssetMediaSubtypes.videoTimelapse)
    /// A screen recording.
    public static let videoScreenRecording = PHAssetMediaSubtype(AssetMediaSubtypes.videoScreenRecording)
    /// A Cinematic mode video.
    public static let videoCinematic = PHAssetMediaSubtype(AssetMediaSubtypes.videoCinematic)
}

/// How a photo of a burst was selected. The bits are Apple's, and the
/// engine's (`AssetBurstSelectionTypes`, where they are written).
public struct PHAssetBurstSelectionType: OptionSet, Sendable, Hashable {
    /// The option bits, as Apple defines them.
    public let rawValue: UInt

    /// Wraps a raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The camera suggested the photo.
    public static let autoPick = PHAssetBurstSelectionType(rawValue: UInt(AssetBurstSelectionTypes.autoPick.rawValue))
    /// The user picked the photo.
    public static let userPick = PHAssetBurstSelectionType(rawValue: UInt(AssetBurstSelectionTypes.userPick.rawValue))
}

/// Where an asset comes from.
public struct PHAssetSourceType: OptionSet, Sendable, Hashable {
    /// The option bits, as Apple defines them.
    public let rawValue: UInt

    /// Wraps a raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The user's own library: editable and deletable.
    public static let typeUserLibrary = PHAssetSourceType(rawValue: 1 << 0)
    /// A shared album: neither editable nor in moments.
    public static let typeCloudShared = PHAssetSourceType(rawValue: 1 << 1)
    /// Synced from a computer: neither editable nor deletable.
    public static let typeiTunesSynced = PHAssetSourceType(rawValue: 1 << 2)
}

extension PHAsset {
    /// How an asset plays back.
    public enum PlaybackStyle: Int, Sendable {
        case unsupported = 0
        case image = 1
        case imageAnimated = 2
        case livePhoto = 3
        case video = 4
        case videoLooping = 5
    }

    /// Which Live Photo effect an asset plays with.
    public enum PlaybackVariation: Int, Sendable, Hashable {
        /// Not a Live Photo, or one played as it was taken.
        case none = 0
        /// Played as a loop.
        case autoloop = 1
        /// Played forwards and back (Bounce).
        case mirror = 2
        /// Shown as a long exposure.
        case longExposure = 3
    }

    /// Whether an asset's content has been adjusted, and by whom.
    public enum AdjustmentsState: Int, Sendable, Hashable {
        /// As captured, with nothing applied.
        case none = 0
        /// Edited by a person (an app's content editing output).
        case userAdjusted = 2
        /// Adjusted by the camera as it captured (HDR, Portrait), and not edited since.
        case cameraAutoAdjusted = 3
    }

    /// Which original renders a RAW+JPEG asset and is the base of its edits.
    public enum OriginalResourceChoice: Int, Sendable, Hashable {
        /// The JPEG or HEIC; every asset with one original has this.
        case compressed = 0
        /// The camera raw file (the asset's alternate photo).
        case raw = 1
    }

    /// How many stars a person gave an asset: none chosen, or one to five.
    public enum Rating: Int, Sendable, Hashable, CaseIterable {
        case unset = 0
        case one = 1
        case two = 2
        case three = 3
        case four = 4
        case five = 5
    }
}

/// The kinds of files an asset can have.
public enum PHAssetResourceType: Int, Sendable {
    case photo = 1
    case video = 2
    case audio = 3
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19
}

/// The kinds of objects change history reports.
public enum PHObjectType: Int, Sendable {
    case asset = 1
    case assetCollection = 2
    case collectionList = 3
}

/// Whether this process may use the library.
public enum PHAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

/// The access a process asks for.
public enum PHAccessLevel: Int, Sendable {
    /// Adding assets only.
    case addOnly = 1
    /// Reading and changing the library.
    case readWrite = 2
}

/// Which version of an asset's image to deliver.
public enum PHImageRequestOptionsVersion: Int, Sendable {
    /// With edits applied, or the original when there are none.
    case current = 0
    /// Without edits.
    case unadjusted = 1
    /// The original, highest-fidelity format (RAW of a RAW+JPEG pair).
    case original = 2
}

/// How the image manager trades speed for quality.
public enum PHImageRequestOptionsDeliveryMode: Int, Sendable {
    /// A quick degraded image first, then the final one.
    case opportunistic = 0
    /// One result, as asked or better.
    case highQualityFormat = 1
    /// One quick result, possibly degraded.
    case fastFormat = 2
}

/// How exactly the delivered image matches the target size.
public enum PHImageRequestOptionsResizeMode: Int, Sendable {
    case none = 0
    case fast = 1
    case exact = 2
}

/// Which version of a video to deliver.
public enum PHVideoRequestOptionsVersion: Int, Sendable {
    case current = 0
    case original = 1
}

/// How the image manager trades speed for quality for video.
public enum PHVideoRequestOptionsDeliveryMode: Int, Sendable {
    case automatic = 0
    case highQualityFormat = 1
    case mediumQualityFormat = 2
    case fastFormat = 3
}

/// Which frame of a Live Photo an editing context renders.
public enum PHLivePhotoFrameType: Int, Sendable {
    case photo = 0
    case video = 1
}
