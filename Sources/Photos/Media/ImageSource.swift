import Foundation
import PhotosMedia
import PhotosStore

/// Where the pixels of an asset's image come from: the full-size file of the
/// version asked (the original, the rendering of an edit, or a video's first
/// frame) and, for the current version, the derivatives that stand in for
/// it at smaller sizes, made on first use.
struct ImageSource {
    let asset: PHAsset
    let library: PHPhotoLibrary
    /// Whether the request wants the current version; derivatives exist only for it.
    let isCurrent: Bool
    /// The upright size of the version asked.
    let width: Int
    let height: Int
    /// Which original the unedited image is: the photo, or a RAW+JPEG
    /// asset's raw alternate when chosen.
    let originalChoice: AssetOriginalResourceChoice
    private let resources: ResourceRows

    /// Reads what the request needs of the asset; its resource rows only on
    /// first need, since a request a derivative serves never needs them.
    /// `originalChoice` overrides the asset's own choice of original
    /// (a content-editing request's option).
    init(asset: PHAsset, version: PHImageRequestOptionsVersion, originalChoice: AssetOriginalResourceChoice? = nil) throws(PHPhotosError) {
        guard let library = asset.library, let store = library.store else {
            throw PHPhotosError(.identifierNotFound, "\(asset.localIdentifier) belongs to no open library", identifiers: [asset.localIdentifier])
        }
        self.asset = asset
        self.library = library
        self.originalChoice = originalChoice ?? asset.record.originalResourceChoice
        resources = ResourceRows { () throws(PHPhotosError) in
            do {
                return try store.resources(assetID: asset.record.id)
            } catch {
                throw PHPhotosError(storeError: error)
            }
        }
        isCurrent = version == .current || !asset.hasAdjustments
        if isCurrent {
            (width, height) = (asset.pixelWidth, asset.pixelHeight)
        } else {
            let rows = try resources.get()
            let original =
                (self.originalChoice == .raw ? rows.first { $0.type == .alternatePhoto } : nil)
                ?? rows.first { ResourceType.originals.contains($0.type) }
            (width, height) = (original?.pixelWidth ?? asset.pixelWidth, original?.pixelHeight ?? asset.pixelHeight)
        }
    }

    /// The photo or video resource the version asked is: the rendering of an
    /// edit for the current version, else the original. Throws
    /// `missingResource` when the asset has none.
    func primaryResource() throws(PHPhotosError) -> ResourceRecord {
        let rows = try resources.get()
        let (original, rendered): (ResourceType, ResourceType) = asset.mediaType == .video ? (.video, .fullSizeVideo) : (.photo, .fullSizePhoto)
        if isCurrent, let rendering = rows.first(where: { $0.type == rendered }) { return rendering }
        if originalChoice == .raw, asset.mediaType == .image, let raw = rows.first(where: { $0.type == .alternatePhoto }) { return raw }
        guard let resource = rows.first(where: { $0.type == original }) ?? rows.first(where: { $0.type == rendered }) else {
            throw PHPhotosError(
                .missingResource, "\(asset.localIdentifier) has no \(asset.mediaType == .video ? "video" : "photo") resource",
                identifiers: [asset.localIdentifier])
        }
        return resource
    }

    /// The file of a Live Photo's motion: the rendering of an edit's for the
    /// current version, else the paired video. Throws `missingResource`
    /// when the asset has none, or it is gone from disk.
    func pairedVideoFile() throws(PHPhotosError) -> URL {
        let rows = try resources.get()
        guard
            let resource = (isCurrent ? rows.first(where: { $0.type == .fullSizePairedVideo }) : nil)
                ?? rows.first(where: { $0.type == .pairedVideo })
        else {
            throw PHPhotosError(
                .missingResource, "\(asset.localIdentifier) is not a Live Photo: it has no paired video",
                identifiers: [asset.localIdentifier])
        }
        return try file(of: resource)
    }

    /// The primary resource's file. Throws `missingResource` when it is gone
    /// from disk, or its stored path would lead outside the library.
    func primaryFile() throws(PHPhotosError) -> URL {
        try file(of: try primaryResource())
    }

    private func file(of resource: ResourceRecord) throws(PHPhotosError) -> URL {
        guard let url = try library.storedFileURL(resource.relativePath),
            FileManager.default.fileExists(atPath: url.path)
        else {
            throw PHPhotosError(
                .missingResource, "the file of \(asset.localIdentifier) is missing: \(resource.relativePath)",
                identifiers: [asset.localIdentifier])
        }
        return url
    }

    /// Runs `body` with the full-size image file: the primary file, or its
    /// poster when the primary file is not an image libvips shows (a
    /// video's first frame, a camera raw file's embedded JPEG), extracted
    /// once and kept with the derivatives. The size is 0 × 0 when it must be
    /// read from the file. Where the derivatives cannot be written (a
    /// read-only library), the poster lives in a temporary file for `body`.
    func withFullSizeImage<T>(_ body: (_ url: URL, _ width: Int, _ height: Int) throws(PHPhotosError) -> T) throws(PHPhotosError) -> T {
        let file = try primaryFile()
        let isRaw = UniformType.isRAW(try primaryResource().uniformTypeIdentifier)
        guard asset.mediaType == .video || isRaw else { return try body(file, width, height) }
        let version = isCurrent ? asset.record.contentVersion : -1
        if let poster = library.derivatives.existing(assetUUID: asset.record.uuid, version: version, kind: .poster) {
            return try body(poster, 0, 0)
        }
        let image: Data
        do {
            image = isRaw ? try CameraRaw.preview(ofFileAt: file) : try VideoFrame.poster(ofVideoAt: file)
        } catch {
            throw PHPhotosError(.invalidResource, error.description, identifiers: [asset.localIdentifier])
        }
        if let stored = try? library.derivatives.store(image, assetUUID: asset.record.uuid, version: version, kind: .poster) {
            return try body(stored, 0, 0)
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("photos-poster-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try image.write(to: temporary)
        } catch {
            throw PHPhotosError(
                .internalError, "cannot write a temporary file: \(error.localizedDescription)",
                identifiers: [asset.localIdentifier])
        }
        return try body(temporary, 0, 0)
    }

    /// The smallest derivative kind whose short edge serves `neededShortEdge`,
    /// or nil when only the full-size image does (or for other versions than the current one).
    func derivativeKind(servingShortEdge neededShortEdge: Double) -> DerivativeCache.Kind? {
        guard isCurrent else { return nil }
        let shortest = Double(max(1, min(width, height)))
        for kind in [DerivativeCache.Kind.thumbnail, .preview] {
            let edge = Double(kind.shortEdge!)
            // A derivative of an image smaller than its class is the image itself: it serves anything.
            if neededShortEdge <= edge || shortest <= edge { return kind }
        }
        return nil
    }

    /// The derivative's file, when it exists.
    func existingDerivative(_ kind: DerivativeCache.Kind) -> URL? {
        library.derivatives.existing(assetUUID: asset.record.uuid, version: asset.record.contentVersion, kind: kind)
    }

    /// Makes a derivative from the full-size image and keeps it with the
    /// others, when they can be written; returns its JPEG.
    func makeDerivative(_ kind: DerivativeCache.Kind) throws(PHPhotosError) -> Data {
        let derivative = try withFullSizeImage { url, width, height throws(PHPhotosError) in
            do throws(MediaError) {
                return try ImageRenderer.derivative(fileAt: url, sourceWidth: width, sourceHeight: height, shortEdge: kind.shortEdge!)
            } catch {
                throw PHPhotosError(.invalidResource, error.description, identifiers: [asset.localIdentifier])
            }
        }
        _ = try? library.derivatives.store(derivative.jpeg, assetUUID: asset.record.uuid, version: asset.record.contentVersion, kind: kind)
        return derivative.jpeg
    }
}

/// An asset's resource rows, read at most once.
private final class ResourceRows {
    private let load: () throws(PHPhotosError) -> [ResourceRecord]
    private var loaded: [ResourceRecord]?

    init(_ load: @escaping () throws(PHPhotosError) -> [ResourceRecord]) {
        self.load = load
    }

    func get() throws(PHPhotosError) -> [ResourceRecord] {
        if let loaded { return loaded }
        let rows = try load()
        loaded = rows
        return rows
    }
}
