import Foundation
import PhotosMedia
import PhotosStore

/// What one file of a new asset says, as much as its part in the asset
/// needs: its metadata; its content hash when it is the asset's primary
/// file; and when it is the file the asset shows, the thumbnail (made
/// through a poster for a video or a camera raw file) with its ThumbHash.
/// Reading is most of what a new asset costs; it happens in the change
/// block, or before it for files waiting to be added (``ReadAhead``).
struct FileReading: Sendable {
    /// What the file holds; nil for a resource that is neither a photo nor a video.
    let metadata: MediaMetadata?
    /// The file's content hash, when read.
    let contentHash: String?
    /// The thumbnail's JPEG, when the file is the one shown (a raw file
    /// embedding no preview has none), and its ThumbHash placeholder.
    let thumbnail: Data?
    let thumbHash: Data?

    /// What the file must give.
    struct Needs: OptionSet, Sendable {
        let rawValue: Int
        /// The asset shows this file: its thumbnail, whose decoding proves it sound.
        static let shown = Needs(rawValue: 1)
        /// It is the asset's primary file: its content hash.
        static let primary = Needs(rawValue: 2)
    }

    /// What was learnt of a file before its change block, as it was then:
    /// an import reads every file first to pair and deduplicate them, and
    /// its blocks need not read them again.
    struct Probed: Sendable {
        /// The file when it was probed; the probe holds only while the file is still so.
        let identity: FileStatus.Identity
        /// What the probe found, read under the file's own name and without
        /// the trial decode, which its thumbnail makes.
        let metadata: MediaMetadata
        let contentHash: String

        /// The probe, if the file at `url` has not changed since.
        func ifStill(at url: URL) -> Probed? {
            FileStatus(atPath: url.path)?.identity == identity ? self : nil
        }
    }

    /// Reads the file at `url`, expected to hold `expected` (nil: any
    /// file, read for nothing). A video's or raw file's poster is handed
    /// to `keepPoster`, which returns where the thumbnail is made from.
    /// What `probed` found is not read again: the metadata of a file whose
    /// thumbnail is made here or of a video (neither needs the trial
    /// decode), and the content hash.
    /// Cost: a header read; for the shown file, a shrink-on-load decode (a
    /// video's first frame by ffmpeg); for the primary file, one read to hash.
    static func read(
        fileAt url: URL, originalName: String, expected: MediaMetadata.Kind?, needs: Needs, probed: Probed? = nil,
        keepPoster: (Data) throws -> URL
    ) throws -> FileReading {
        guard let expected else { return FileReading(metadata: nil, contentHash: nil, thumbnail: nil, thumbHash: nil) }
        // The thumbnail below decodes the shown file, which proves it sound.
        let metadata =
            try probed.flatMap { needs.contains(.shown) || $0.metadata.kind == .video ? $0.metadata : nil }
            ?? MediaProbe.probe(fileAt: url, verifiesDecoding: !needs.contains(.shown), originalName: originalName)
        guard metadata.kind == expected else { throw KindMismatch(expected: expected) }
        var thumbnail: ImageRenderer.Derivative?
        if needs.contains(.shown) {
            thumbnail = try makeThumbnail(of: url, metadata, keepPoster: keepPoster)
        }
        return FileReading(
            metadata: metadata,
            contentHash: needs.contains(.primary) ? try probed?.contentHash ?? ContentHash.ofFile(at: url) : nil,
            thumbnail: thumbnail?.jpeg,
            thumbHash: thumbnail?.placeholderPixels.map { ThumbHash.encode($0) })
    }

    /// The file is not the kind its resource type says.
    struct KindMismatch: Error {
        let expected: MediaMetadata.Kind
    }

    /// Whether a file is read without a poster: a still image the library
    /// decodes itself, the only kind read ahead.
    static func isReadDirectly(_ metadata: MediaMetadata) -> Bool {
        metadata.kind == .image && !UniformType.isRAW(metadata.uniformTypeIdentifier)
    }

    /// The thumbnail of an image, or of the poster of a video or camera raw
    /// file; nil for a raw file embedding no preview, which is stored
    /// without one: it keeps its metadata and file, and image requests
    /// report that it cannot be shown.
    private static func makeThumbnail(
        of url: URL, _ metadata: MediaMetadata,
        keepPoster: (Data) throws -> URL
    ) throws -> ImageRenderer.Derivative? {
        var source = url
        var size = (metadata.pixelWidth, metadata.pixelHeight)
        if metadata.kind == .video {
            source = try keepPoster(try VideoFrame.poster(ofVideoAt: url, dynamicRange: metadata.dynamicRange))
            size = (0, 0)
        } else if UniformType.isRAW(metadata.uniformTypeIdentifier) {
            guard let preview = try? CameraRaw.preview(ofFileAt: url) else { return nil }
            source = try keepPoster(preview)
            size = (0, 0)
        }
        return try ImageRenderer.derivative(
            fileAt: source, sourceWidth: size.0, sourceHeight: size.1,
            shortEdge: DerivativeCache.Kind.thumbnail.shortEdge!, placeholder: true)
    }
}
