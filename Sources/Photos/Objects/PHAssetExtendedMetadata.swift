import Foundation
import PhotosStore

/// An asset's caption, keywords and original file name: properties a fetch
/// reads apart from the asset's others, on demand through
/// ``PHAsset/extendedMetadata`` or with the fetch itself when its options
/// set ``PHFetchOptions/prefetchAssetExtendedMetadata``. An immutable
/// snapshot, like the asset it came from.
public final class PHAssetExtendedMetadata: NSObject, @unchecked Sendable {
    /// The asset's caption: a short description a person wrote; nil when
    /// there is none.
    public let caption: String?
    /// The name of the file the asset was imported from; nil for an asset
    /// made from data.
    public let originalFilename: String?
    /// The asset's keywords, each once, in the order they were added.
    public let keywords: [String]

    init(_ stored: consuming ExtendedMetadataRecord, originalFilename: String?) {
        caption = stored.caption
        keywords = stored.keywords
        self.originalFilename = originalFilename
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHAssetExtendedMetadata else { return false }
        return caption == other.caption && originalFilename == other.originalFilename && keywords == other.keywords
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(caption)
        hasher.combine(originalFilename)
        hasher.combine(keywords)
        return hasher.finalize()
    }

    public override var description: String {
        "<PHAssetExtendedMetadata> caption=\(caption.map { "\"\($0)\"" } ?? "nil"), keywords=\(keywords), "
            + "originalFilename=\(originalFilename ?? "nil")"
    }
}
