import Foundation
import PhotosMedia
import PhotosStore

/// The JPEG renditions the library keeps of each asset's current version,
/// an OpenPhotoKit addition for servers and tools that send images on
/// rather than show them: the bytes as stored, never re-encoded.
extension PHImageManager {
    /// A rendition kept on disk.
    public enum Rendition: String, Sendable, CaseIterable {
        /// Short edge 360 pixels (the whole image when it is smaller).
        case thumbnail
        /// Short edge 1,440 pixels (the whole image when it is smaller).
        case preview

        var kind: DerivativeCache.Kind {
            switch self {
            case .thumbnail: .thumbnail
            case .preview: .preview
            }
        }
    }

    /// The rendition's JPEG file, made from the original on first use.
    /// In a library this process cannot write, the JPEG is made each time
    /// and returned as data; otherwise `file` is set. Throws
    /// `missingResource` or `invalidResource` when the original is gone or
    /// cannot be decoded. Cost: a `stat` when the rendition exists;
    /// otherwise a decode of the original.
    public func rendition(_ rendition: Rendition, of asset: PHAsset) throws -> (file: URL?, jpeg: Data?) {
        let source = try ImageSource(asset: asset, version: .current)
        if let url = source.existingDerivative(rendition.kind) { return (url, nil) }
        let jpeg = try source.makeDerivative(rendition.kind)
        if let url = source.existingDerivative(rendition.kind) { return (url, nil) }
        return (nil, jpeg)
    }
}

extension PHAssetResource {
    /// Where the resource's file lies in the library, for reading it in
    /// place (ranges of a video, say), an OpenPhotoKit addition. Throws
    /// `missingResource` when the file is gone. Cost: a `stat`.
    public func fileURL() throws -> URL {
        try storedFile()
    }
}
