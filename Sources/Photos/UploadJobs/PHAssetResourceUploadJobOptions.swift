import Foundation

/// How the performer treats a client's upload jobs, given when its
/// extension is enabled (``PHPhotoLibrary/enableUploadJobExtension(with:)``).
public final class PHAssetResourceUploadJobOptions: NSObject, NSCopying, @unchecked Sendable {
    /// Whether jobs wait for a network that costs nothing (no cellular
    /// plan). Default false. A Linux machine's network is taken as such,
    /// so this is kept, and reported, but changes nothing here.
    public var preventsExpensiveNetworkAccess = false

    /// The command that runs the client's extension (an OpenPhotoKit
    /// addition: on Apple's systems the extension point names it): the
    /// performer runs it, with `PHOTOS_LIBRARY` and `PHOTOS_CLIENT_ID` set,
    /// to call ``PHBackgroundResourceUploadJobExtension/processJobs()``
    /// when the client's jobs move. Nil (the default) for none: the app
    /// then acknowledges and retries its jobs itself.
    public var extensionCommand: [String]?

    /// Options with the defaults.
    public override init() {}

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceUploadJobOptions()
        copy.preventsExpensiveNetworkAccess = preventsExpensiveNetworkAccess
        copy.extensionCommand = extensionCommand
        return copy
    }
}
