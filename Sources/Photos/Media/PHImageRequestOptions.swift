import Foundation

/// How the image manager delivers an image.
open class PHImageRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    /// Which version: with edits (`.current`, the default) or without.
    open var version: PHImageRequestOptionsVersion = .current
    /// Speed against quality; `.opportunistic` by default: a quick degraded
    /// image first when the final one takes longer, then the final one.
    open var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    /// How closely the image matches the target size; `.fast` by default:
    /// at least the size asked, at the cheapest decoding scale.
    open var resizeMode: PHImageRequestOptionsResizeMode = .fast
    /// A crop in unit coordinates of the image (origin at the top left),
    /// for `.exact` resizing; `.zero` for none.
    open var normalizedCropRect: CGRect = .zero
    /// Whether to download from the network; files are local here, so it changes nothing.
    open var isNetworkAccessAllowed = false
    /// Run the request on the calling thread and call the handler once,
    /// with the final image, before returning.
    open var isSynchronous = false
    /// Download progress; never called here, where files are local.
    open var progressHandler: PHAssetImageProgressHandler?
    /// Allow a second degraded image before the final one; there is never
    /// more than one here.
    open var allowSecondaryDegradedImage = false

    /// Options with PhotoKit's defaults.
    public override init() {}

    /// A copy with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHImageRequestOptions()
        copy.version = version
        copy.deliveryMode = deliveryMode
        copy.resizeMode = resizeMode
        copy.normalizedCropRect = normalizedCropRect
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.isSynchronous = isSynchronous
        copy.progressHandler = progressHandler
        copy.allowSecondaryDegradedImage = allowSecondaryDegradedImage
        return copy
    }
}

/// How the image manager delivers a video.
open class PHVideoRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    /// Whether to download from the network; files are local here, so it changes nothing.
    open var isNetworkAccessAllowed = false
    /// With edits (`.current`, the default) or the original.
    open var version: PHVideoRequestOptionsVersion = .current
    /// Quality; the stored file is always delivered here.
    open var deliveryMode: PHVideoRequestOptionsDeliveryMode = .automatic
    /// Download progress; never called here, where files are local.
    open var progressHandler: PHAssetVideoProgressHandler?

    /// Options with PhotoKit's defaults.
    public override init() {}

    /// A copy with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHVideoRequestOptions()
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.version = version
        copy.deliveryMode = deliveryMode
        copy.progressHandler = progressHandler
        return copy
    }
}
