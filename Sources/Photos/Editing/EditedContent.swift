import Foundation
import PhotosMedia
import PhotosStore

/// A content-editing output checked and turned into what the library
/// stores: the rendered file, its size and type, and the adjustment data as
/// a property list.
struct EditedContent {
    let rendered: URL
    let metadata: MediaMetadata
    let adjustment: PHAdjustmentData

    /// Checks the output: adjustment data set, a rendered file written that
    /// reads as the asset's kind of media (an image for a new asset).
    init(_ output: PHContentEditingOutput, asset: PHAsset?) throws(PHPhotosError) {
        let identifiers = asset.map { [$0.localIdentifier] } ?? []
        guard let adjustment = output.adjustmentData else {
            throw PHPhotosError(.invalidResource, "the content editing output has no adjustment data", identifiers: identifiers)
        }
        guard let rendered = output.writtenContent else {
            throw PHPhotosError(
                .invalidResource, "nothing was written to the output's renderedContentURL \(output.renderedContentURL.path)",
                identifiers: identifiers)
        }
        do {
            metadata = try MediaProbe.probe(fileAt: rendered)
        } catch {
            throw PHPhotosError(.invalidResource, "the rendered content cannot be read: \(error.reason)", identifiers: identifiers)
        }
        let expected: MediaMetadata.Kind = asset?.mediaType == .video ? .video : .image
        guard metadata.kind == expected else {
            throw PHPhotosError(
                .invalidResource, "the rendered content of \(expected == .video ? "a video" : "a photo") must be one too",
                identifiers: identifiers)
        }
        self.rendered = rendered
        self.adjustment = adjustment
    }

    private var renderedType: PHAssetResourceType { metadata.kind == .video ? .fullSizeVideo : .fullSizePhoto }
    private var renderedName: String { "FullSizeRender." + (rendered.pathExtension.isEmpty ? "jpg" : rendered.pathExtension) }

    /// The edit as a change of an existing asset, its files staged.
    func staged(in session: CommitSession) throws(PHPhotosError) -> AdjustedContent {
        do {
            let renderedFile = try session.stage(fileAt: rendered, move: false)
            let adjustmentFile = try session.stage(data: adjustment.propertyList, pathExtension: "plist")
            return AdjustedContent(
                rendered: NewResource(
                    type: ResourceType(renderedType), file: renderedFile, originalFilename: renderedName,
                    uniformTypeIdentifier: metadata.uniformTypeIdentifier,
                    pixelWidth: metadata.pixelWidth, pixelHeight: metadata.pixelHeight),
                adjustmentData: NewResource(
                    type: .adjustmentData, file: adjustmentFile,
                    originalFilename: "Adjustments.plist", uniformTypeIdentifier: "com.apple.property-list",
                    pixelWidth: 0, pixelHeight: 0),
                formatIdentifier: adjustment.formatIdentifier, formatVersion: adjustment.formatVersion,
                thumbHash: placeholder)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// The rendering's ThumbHash placeholder (a video's from its first
    /// frame); nil when it cannot be made, which leaves the asset without one.
    private var placeholder: Data? {
        if metadata.kind == .video {
            return (try? VideoFrame.poster(ofVideoAt: rendered)).flatMap { try? ThumbHash.ofImage(data: $0) }
        }
        return try? ThumbHash.ofImage(fileAt: rendered)
    }

    /// The edit as resources of an asset being created.
    var pendingResources: [PHAssetChangeRequest.PendingResource] {
        let options = PHAssetResourceCreationOptions()
        options.originalFilename = renderedName
        let adjustmentOptions = PHAssetResourceCreationOptions()
        adjustmentOptions.originalFilename = "Adjustments.plist"
        adjustmentOptions.uniformTypeIdentifier = "com.apple.property-list"
        return [
            .init(type: renderedType, source: .file(rendered), options: options),
            .init(type: .adjustmentData, source: .data(adjustment.propertyList), options: adjustmentOptions),
        ]
    }

    /// Marks a new asset as edited: the rendering's size is what it shows.
    func apply(to asset: inout NewAsset) {
        asset.record.adjustmentFormatIdentifier = adjustment.formatIdentifier
        asset.record.adjustmentFormatVersion = adjustment.formatVersion
        asset.record.pixelWidth = metadata.pixelWidth
        asset.record.pixelHeight = metadata.pixelHeight
    }
}
