import Foundation
import PhotosMedia

/// Identifies a request for a content-editing input, to cancel it.
public typealias PHContentEditingInputRequestID = Int

/// Info key: whether the content must be downloaded first; always `false` here.
public let PHContentEditingInputResultIsInCloudKey = "PHContentEditingInputResultIsInCloudKey"
/// Info key: whether the request was cancelled.
public let PHContentEditingInputCancelledKey = "PHContentEditingInputCancelledKey"
/// Info key: the error that kept the input back.
public let PHContentEditingInputErrorKey = "PHContentEditingInputErrorKey"

/// How to prepare a content-editing input.
open class PHContentEditingInputRequestOptions: NSObject, @unchecked Sendable {
    /// Whether your editor can resume an earlier edit in this format. When
    /// it says yes for the asset's adjustment data, the input holds the
    /// original and that data; otherwise the current rendering and no data.
    open var canHandleAdjustmentData: (PHAdjustmentData) -> Bool = { _ in false }
    /// Whether to download from the network; files are local here, so it changes nothing.
    open var isNetworkAccessAllowed = false
    /// Download progress; never called here, where files are local.
    open var progressHandler: ((Double, UnsafeMutablePointer<ObjCBool>) -> Void)?
    /// Whether to leave out ``PHContentEditingInput/displaySizeImage``,
    /// sparing its rendering when the editor will not show it. Default false.
    open var skipsDisplaySizeImage = false
    /// Which original of a RAW+JPEG asset the input starts from, whatever
    /// the asset's own choice: its camera raw file or its JPEG. Default
    /// nil here: the asset's ``PHAsset/originalResourceChoice``. Asking a
    /// choice of an asset with one original fails the request with
    /// `requestNotSupportedForAsset`.
    open var originalResourceChoice: PHAsset.OriginalResourceChoice?

    /// Options with PhotoKit's defaults.
    public override init() {}
}

/// What an editor starts from: the asset's image (or video) as a file of
/// its own to read, a display-size image, the adjustment data to resume,
/// and the asset's metadata.
open class PHContentEditingInput: NSObject, @unchecked Sendable {
    /// Image or video.
    public let mediaType: PHAssetMediaType
    /// The asset's subtypes (Live Photo, panorama...), as the asset has them.
    public let mediaSubtypes: PHAssetMediaSubtype
    /// When the asset was taken.
    public let creationDate: Date?
    /// Where the asset was taken.
    public let location: CLLocation?
    /// The format of the full-size file, such as `public.jpeg`.
    public let uniformTypeIdentifier: String?
    /// How the asset plays back (image, Live Photo, video...).
    public let playbackStyle: PHAsset.PlaybackStyle
    /// The edit to resume, when the options said the editor handles it.
    public let adjustmentData: PHAdjustmentData?
    /// A copy of the image to edit, at full size, in a folder of its own.
    public let fullSizeImageURL: URL?
    /// The EXIF orientation of `fullSizeImageURL`'s pixels.
    public let fullSizeImageOrientation: Int32
    /// The image to show while editing, at most 2,048 pixels on its long edge.
    public let displaySizeImage: UIImage?
    /// A copy of the video to edit, for a video asset. An OpenPhotoKit
    /// stand-in for `audiovisualAsset`, since Linux has no AVFoundation.
    public let fullSizeVideoURL: URL?

    /// The asset the input was made for.
    let asset: PHAsset
    /// The folder the copies live in, where outputs are written too.
    let folder: EditingFolder

    init(
        asset: PHAsset, adjustmentData: PHAdjustmentData?, imageURL: URL?, imageType: String?, orientation: Int32,
        displaySizeImage: UIImage?, videoURL: URL?, folder: EditingFolder
    ) {
        mediaType = asset.mediaType
        mediaSubtypes = asset.mediaSubtypes
        creationDate = asset.creationDate
        location = asset.location
        uniformTypeIdentifier = imageType
        playbackStyle = asset.playbackStyle
        self.adjustmentData = adjustmentData
        fullSizeImageURL = imageURL
        fullSizeImageOrientation = orientation
        self.displaySizeImage = displaySizeImage
        fullSizeVideoURL = videoURL
        self.asset = asset
        self.folder = folder
    }

    /// The format of the full-size file, as a type.
    public var contentType: UTType? { uniformTypeIdentifier.flatMap { UTType($0) } }
}
