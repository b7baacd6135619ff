import Foundation
import PhotosMedia
import PhotosStore

/// Stages and reads the resources of an asset a change block creates, and
/// builds the row to insert. Everything here happens before the commit, so a
/// bad file fails the block with nothing stored.
struct NewAssetPreparation {
    let uuid: String
    let resources: [PHAssetChangeRequest.PendingResource]
    let staging: StagingArea

    private static let photoTypes: Set<PHAssetResourceType> = [.photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto, .photoProxy]
    private static let videoTypes: Set<PHAssetResourceType> = [.video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo,
                                                              .adjustmentBasePairedVideo, .adjustmentBaseVideo]

    init(uuid: String, resources: [PHAssetChangeRequest.PendingResource], staging: StagingArea) {
        self.uuid = uuid
        self.resources = resources
        self.staging = staging
    }

    mutating func prepare() throws(PHPhotosError) -> NewAsset {
        let identifier = LocalIdentifier(uuid: uuid, entity: .asset).description
        guard let primaryIndex = resources.firstIndex(where: { [.photo, .video].contains($0.type) })
                ?? resources.firstIndex(where: { [.fullSizePhoto, .fullSizeVideo].contains($0.type) }) else {
            throw PHPhotosError(.invalidResource, "a new asset needs a photo or video resource", identifiers: [identifier])
        }

        var staged: [NewResource] = []
        var primary: MediaMetadata?
        var fileDate: Date?
        for (index, resource) in resources.enumerated() {
            let file = try stage(resource)
            let expected: MediaMetadata.Kind? = Self.photoTypes.contains(resource.type) ? .image
                : Self.videoTypes.contains(resource.type) ? .video : nil
            var metadata: MediaMetadata?
            if let expected {
                do {
                    metadata = try MediaProbe.probe(fileAt: file.url)
                } catch {
                    throw PHPhotosError(.invalidResource, "\(describe(resource)): \(error.reason)", identifiers: [identifier])
                }
                guard metadata?.kind == expected else {
                    throw PHPhotosError(.invalidResource, "\(describe(resource)) is not \(expected == .image ? "an image" : "a video")",
                                        identifiers: [identifier])
                }
            }
            if index == primaryIndex {
                primary = metadata
                if case .file(let url) = resource.source {
                    fileDate = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
                }
            }
            let uti = resource.options?.uniformTypeIdentifier ?? metadata?.uniformTypeIdentifier ?? "public.data"
            staged.append(NewResource(
                type: resource.type.rawValue, file: file,
                originalFilename: originalFilename(resource, uti: uti),
                uniformTypeIdentifier: uti,
                pixelWidth: metadata?.pixelWidth ?? 0, pixelHeight: metadata?.pixelHeight ?? 0))
        }

        let metadata = primary!
        let now = Date()
        let hasPairedVideo = resources.contains { $0.type == .pairedVideo }
        var subtypes = PHAssetMediaSubtype()
        if metadata.kind == .image {
            if hasPairedVideo { subtypes.insert(.photoLive) }
            if metadata.customRendered == 2 || metadata.customRendered == 3 { subtypes.insert(.photoHDR) }
            if metadata.customRendered == 6 { subtypes.insert(.photoPanorama) }
        }
        let playbackStyle: PHAsset.PlaybackStyle = metadata.kind == .video ? .video
            : hasPairedVideo ? .livePhoto : metadata.frameCount > 1 ? .imageAnimated : .image
        let record = AssetRecord(
            uuid: uuid,
            mediaType: (metadata.kind == .image ? PHAssetMediaType.image : .video).rawValue,
            mediaSubtypes: Int(subtypes.rawValue),
            pixelWidth: metadata.pixelWidth,
            pixelHeight: metadata.pixelHeight,
            creationDate: metadata.captureDate ?? fileDate ?? now,
            modificationDate: now,
            addedDate: now,
            duration: metadata.duration,
            location: metadata.location.map {
                StoredLocation(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude,
                               timestamp: $0.timestamp, horizontalAccuracy: $0.horizontalAccuracy,
                               course: $0.course, speed: $0.speed)
            },
            playbackStyle: playbackStyle.rawValue,
            isFrontCamera: metadata.lensModel?.lowercased().contains("front") ?? false,
            hasRAWOriginal: staged.contains { UniformType.isRAW($0.uniformTypeIdentifier) },
            originalFilename: staged[primaryIndex].originalFilename,
            uniformTypeIdentifier: staged[primaryIndex].uniformTypeIdentifier,
            timeZoneOffset: metadata.captureTimeZoneOffset,
            cameraMake: metadata.cameraMake,
            cameraModel: metadata.cameraModel,
            lensModel: metadata.lensModel)
        return NewAsset(record: record, resources: staged)
    }

    private func stage(_ resource: PHAssetChangeRequest.PendingResource) throws(PHPhotosError) -> StagedFile {
        do {
            switch resource.source {
            case .file(let url):
                guard url.isFileURL else {
                    throw PHPhotosError(.invalidResource, "\(url) is not a file URL")
                }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                    throw PHPhotosError(.invalidResource, "\(url.path): no such file")
                }
                return try staging.stage(fileAt: url, move: resource.options?.shouldMoveFile ?? false)
            case .data(let data):
                let ext = resource.options?.originalFilename.map { URL(fileURLWithPath: $0).pathExtension }.flatMap { $0.isEmpty ? nil : $0 }
                    ?? resource.options?.uniformTypeIdentifier.flatMap(UniformType.preferredExtension(for:))
                    ?? UniformType.sniffExtension(of: data)
                    ?? "dat"
                return try staging.stage(data: data, pathExtension: ext)
            }
        } catch let error as PHPhotosError {
            throw error
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    private func originalFilename(_ resource: PHAssetChangeRequest.PendingResource, uti: String) -> String {
        if let name = resource.options?.originalFilename, !name.isEmpty { return name }
        if case .file(let url) = resource.source { return url.lastPathComponent }
        let ext = UniformType.preferredExtension(for: uti).map { "." + $0.uppercased() } ?? ""
        return "IMG_\(uuid.prefix(8))\(ext)"
    }

    private func describe(_ resource: PHAssetChangeRequest.PendingResource) -> String {
        switch resource.source {
        case .file(let url): url.path
        case .data(let data): "the \(data.count)-byte \(resource.type) resource"
        }
    }
}
