import Foundation

/// Identifies an image request, to cancel it.
public typealias PHImageRequestID = Int32

/// A request ID no request has.
public let PHInvalidImageRequestID: PHImageRequestID = 0

/// The target size that asks for the full-size image; resizing and content
/// mode do not apply.
public let PHImageManagerMaximumSize = CGSize(width: -1, height: -1)

/// Info key: whether the image must be downloaded first. Always `false`
/// here: a library's files are local.
public let PHImageResultIsInCloudKey = "PHImageResultIsInCloudKey"
/// Info key: whether the image is a quick, lower-quality stand-in that a
/// better one follows (opportunistic requests), or the best one to come
/// (fast requests).
public let PHImageResultIsDegradedKey = "PHImageResultIsDegradedKey"
/// Info key: the `PHImageRequestID` of the request.
public let PHImageResultRequestIDKey = "PHImageResultRequestIDKey"
/// Info key: whether the request was cancelled.
public let PHImageCancelledKey = "PHImageCancelledKey"
/// Info key: the error that kept the request from delivering an image.
public let PHImageErrorKey = "PHImageErrorKey"

/// Reports download progress; never called here, where files are local.
public typealias PHAssetImageProgressHandler = (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void
/// Reports download progress of a video; never called here, where files are local.
public typealias PHAssetVideoProgressHandler = (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// The EXIF orientation of image data, as ImageIO names it.
public enum CGImagePropertyOrientation: UInt32, Sendable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8
}
