import Foundation

/// A request to create an asset from resources (files or data) added one by one.
public class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    /// A request to create an asset; add at least a photo or video resource.
    @discardableResult
    public class func forAsset() -> Self {
        makeCreation(api: "PHAssetCreationRequest.forAsset()")
    }

    /// Which original renders the new asset and is the base of its edits:
    /// ``PHAsset/OriginalResourceChoice-swift.enum/raw`` for a RAW+JPEG
    /// asset made of a photo and a camera raw `alternatePhoto` resource.
    /// Default `.compressed`; `.raw` for an asset without a raw alternate
    /// fails the block with `changeNotSupported`.
    public var originalResourceChoice: PHAsset.OriginalResourceChoice {
        get { newOriginalResourceChoice ?? .compressed }
        set { newOriginalResourceChoice = newValue }
    }

    /// Whether a set of resource types (`PHAssetResourceType` raw values) can
    /// make an asset: it needs a photo or a video, and only known types.
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue) }
        guard kinds.count == types.count else { return false }
        return kinds.contains(.photo) || kinds.contains(.video)
    }

    /// Adds a file as a resource. It is copied (or moved, see
    /// `PHAssetResourceCreationOptions.shouldMoveFile`) when the change block
    /// is applied; an unreadable file fails the block.
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        resources.append(
            PendingResource(
                type: type, source: .file(fileURL),
                options: options?.copy() as? PHAssetResourceCreationOptions))
    }

    /// Adds a file an import has already read as a resource: the block
    /// reads again only what `probed` does not say, or all of it when the
    /// file has changed since.
    func addResource(with type: PHAssetResourceType, fileURL: URL, probed: FileReading.Probed?) {
        resources.append(PendingResource(type: type, source: .file(fileURL), options: nil, probed: probed))
    }

    /// Adds data as a resource. Invalid data fails the block.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        resources.append(
            PendingResource(
                type: type, source: .data(data),
                options: options?.copy() as? PHAssetResourceCreationOptions))
    }
}
