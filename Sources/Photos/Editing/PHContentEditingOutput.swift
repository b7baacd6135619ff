import Foundation

/// The result of an edit: write the rendered image (JPEG, or another image
/// format libvips reads) or video to `renderedContentURL`, set
/// `adjustmentData`, and pass the output to `PHAssetChangeRequest.contentEditingOutput`.
open class PHContentEditingOutput: NSObject, @unchecked Sendable {
    /// Required: how to reopen the edit.
    open var adjustmentData: PHAdjustmentData?
    /// Where to write the rendered content: a JPEG for photos, an MPEG-4
    /// movie for videos. Nothing is written there until you do.
    public let renderedContentURL: URL

    /// The asset the output is for; nil for one a change block creates.
    let asset: PHAsset?
    /// Where the rendered content is written, kept while the output is.
    private let folder: EditingFolder

    /// An output for an edit of the input's asset.
    public init(contentEditingInput: PHContentEditingInput) {
        asset = contentEditingInput.asset
        folder = contentEditingInput.folder
        renderedContentURL = Self.renderedContentURL(in: folder, isVideo: contentEditingInput.mediaType == .video)
    }

    /// An output for an asset a change block creates, edited from the start.
    public convenience init(placeholderForCreatedAsset placeholder: PHObjectPlaceholder) {
        self.init(folder: EditingFolder())
    }

    private init(folder: EditingFolder) {
        asset = nil
        self.folder = folder
        renderedContentURL = Self.renderedContentURL(in: folder, isVideo: false)
    }

    private static func renderedContentURL(in folder: EditingFolder, isVideo: Bool) -> URL {
        folder.url.appendingPathComponent(isVideo ? "rendered.mp4" : "rendered.jpg")
    }

    /// The type `renderedContentURL` expects.
    public var defaultRenderedContentType: UTType? {
        renderedContentURL.pathExtension == "mp4" ? .mpeg4Movie : .jpeg
    }

    /// The types an output may be rendered in.
    public var supportedRenderedContentTypes: [UTType] {
        defaultRenderedContentType == .mpeg4Movie ? [.mpeg4Movie, .quickTimeMovie] : [.jpeg, .heic, .png]
    }

    /// Where to write the rendered content in `type`; throws
    /// `PHPhotosError.invalidResource` for a type not supported.
    public func renderedContentURL(for type: UTType) throws -> URL {
        guard supportedRenderedContentTypes.contains(type), let ext = type.preferredFilenameExtension else {
            throw PHPhotosError(.invalidResource, "\(type.identifier) is not a supported rendered content type")
        }
        return renderedContentURL.deletingPathExtension().appendingPathExtension(ext)
    }

    /// The rendered file written, whichever supported type it is in.
    var writtenContent: URL? {
        ([renderedContentURL] + supportedRenderedContentTypes.compactMap { try? renderedContentURL(for: $0) })
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
