import Foundation
import PhotosMedia
import PhotosStore

/// Stages and reads the resources of an asset a change block creates, and
/// builds the row to insert: metadata, content hash, and the thumbnail (or a
/// video's first frame) made at once, whose decoding also proves the file
/// sound. Everything here happens before the commit, so a bad file fails the
/// block with nothing stored. The thumbnails wait in the staging area with
/// the files, and join the cache only once the block commits.
/// Preparations of one block run in parallel, one per core.
struct NewAssetPreparation {
    let uuid: String
    let resources: [PHAssetChangeRequest.PendingResource]
    /// The change block's session, where the files and derivatives are staged.
    let session: CommitSession

    private static let photoTypes: Set<PHAssetResourceType> = [.photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto, .photoProxy]
    private static let videoTypes: Set<PHAssetResourceType> = [
        .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo,
        .adjustmentBasePairedVideo, .adjustmentBaseVideo,
    ]

    init(uuid: String, resources: [PHAssetChangeRequest.PendingResource], session: CommitSession) {
        self.uuid = uuid
        self.resources = resources
        self.session = session
    }

    /// The asset to insert, or the error that keeps it out, about this asset
    /// (so that an import knows which file failed, a vanished one included).
    func prepare() throws(PHPhotosError) -> NewAsset {
        do {
            return try build()
        } catch {
            throw error.concerning([LocalIdentifier(uuid: uuid, entity: .asset).description])
        }
    }

    private func build() throws(PHPhotosError) -> NewAsset {
        let identifier = LocalIdentifier(uuid: uuid, entity: .asset).description
        guard
            let primaryIndex = resources.firstIndex(where: { [.photo, .video].contains($0.type) })
                ?? resources.firstIndex(where: { [.fullSizePhoto, .fullSizeVideo].contains($0.type) })
        else {
            throw PHPhotosError(.invalidResource, "a new asset needs a photo or video resource", identifiers: [identifier])
        }

        // What the asset shows: the rendering when it is created edited, else the primary resource.
        let shownIndex =
            resources.firstIndex { resource in
                [.fullSizePhoto, .fullSizeVideo].contains(resource.type) && resources[primaryIndex].type != resource.type
            } ?? primaryIndex
        var staged: [NewResource] = []
        var primary: MediaMetadata?
        var fileDate: Date?
        var contentHash: String?
        var thumbHash: Data?
        var livePhotoEffect: LivePhotoEffect?
        for (index, resource) in resources.enumerated() {
            let expected: MediaMetadata.Kind? =
                Self.photoTypes.contains(resource.type)
                ? .image
                : Self.videoTypes.contains(resource.type) ? .video : nil
            var needs: FileReading.Needs = []
            if index == shownIndex { needs.insert(.shown) }
            if index == primaryIndex { needs.insert(.primary) }
            let name = originalFilename(resource, uti: "")
            // Taken before staging, which changes the file's status: a reading is of the file as it was read.
            let readAhead = expected == .image ? ReadAhead.shared.take(resource.source, originalName: name) : nil
            var probed: FileReading.Probed?
            if case .file(let url) = resource.source { probed = resource.probed?.ifStill(at: url) }
            let file = try stage(resource)
            let reading: FileReading
            do {
                reading =
                    try readAhead
                    ?? FileReading.read(
                        fileAt: file.url, originalName: name, expected: expected, needs: needs,
                        probed: probed
                    ) { poster in
                        try session.stageDerivative(poster, ofNewAsset: uuid, kind: .poster)
                    }
            } catch let error as FileReading.KindMismatch {
                throw PHPhotosError(
                    .invalidResource, "\(describe(resource)) is not \(error.expected == .image ? "an image" : "a video")",
                    identifiers: [identifier])
            } catch let error as MediaError where error.systemError != nil {
                throw PHPhotosError(
                    error.isOutOfSpace ? .notEnoughSpace : .internalError,
                    "storing \(describe(resource)): \(error.reason)", identifiers: [identifier])
            } catch let error as MediaError {
                throw PHPhotosError(.invalidResource, "\(describe(resource)): \(error.reason)", identifiers: [identifier])
            } catch {
                throw PHPhotosError(storeError: error)
            }
            let metadata = reading.metadata
            if resource.type == .adjustmentData {
                livePhotoEffect = AppleAdjustments.livePhotoEffect(ofFileAt: file.url) ?? livePhotoEffect
            } else if livePhotoEffect == nil {
                livePhotoEffect = metadata?.livePhotoEffect
            }
            if index == shownIndex {
                if let thumbnail = reading.thumbnail {
                    do {
                        try session.stageDerivative(thumbnail, ofNewAsset: uuid, kind: .thumbnail)
                    } catch {
                        throw PHPhotosError(storeError: error)
                    }
                }
                thumbHash = reading.thumbHash
            }
            if index == primaryIndex {
                contentHash = reading.contentHash
                primary = metadata
                if case .file(let url) = resource.source {
                    fileDate = FileStatus(atPath: url.path)?.modified
                }
            }
            let uti = resource.options?.uniformTypeIdentifier ?? metadata?.uniformTypeIdentifier ?? "public.data"
            staged.append(
                NewResource(
                    type: ResourceType(resource.type), file: file,
                    originalFilename: originalFilename(resource, uti: uti),
                    uniformTypeIdentifier: uti,
                    pixelWidth: metadata?.pixelWidth ?? 0, pixelHeight: metadata?.pixelHeight ?? 0))
        }

        let metadata = primary!
        if !resources.contains(where: { $0.type == .pairedVideo }), let motion = motionPhotoVideo(of: staged[primaryIndex]) {
            staged.append(motion)
        }
        let now = Date()
        let hasPairedVideo = staged.contains { $0.type == .pairedVideo }
        var subtypes = PHAssetMediaSubtype(metadata.captureTraits)
        if metadata.kind == .image && hasPairedVideo { subtypes.insert(.photoLive) }
        let playbackStyle: PHAsset.PlaybackStyle =
            metadata.kind == .video
            ? .video
            : hasPairedVideo ? .livePhoto : metadata.frameCount > 1 ? .imageAnimated : .image
        var record = AssetRecord(
            uuid: uuid,
            mediaType: metadata.kind == .image ? .image : .video,
            mediaSubtypes: AssetMediaSubtypes(subtypes),
            pixelWidth: metadata.pixelWidth,
            pixelHeight: metadata.pixelHeight,
            creationDate: metadata.captureDate ?? fileDate ?? now,
            modificationDate: now,
            addedDate: now,
            duration: metadata.duration,
            location: metadata.location.map {
                StoredLocation(
                    latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude,
                    timestamp: $0.timestamp, horizontalAccuracy: $0.horizontalAccuracy,
                    course: $0.course, speed: $0.speed)
            },
            burstIdentifier: metadata.burstIdentifier,
            playbackStyle: AssetPlaybackStyle(playbackStyle),
            isFrontCamera: metadata.lensModel?.lowercased().contains("front") ?? false,
            isLongExposure: metadata.isLongExposure,
            hasRAWOriginal: staged.contains { UniformType.isRAW($0.uniformTypeIdentifier) },
            originalFilename: staged[primaryIndex].originalFilename,
            uniformTypeIdentifier: staged[primaryIndex].uniformTypeIdentifier,
            // A file that gives no offset was read in this machine's zone (EXIF
            // without OffsetTime, a video's UTC time): that zone is recorded, as
            // Apple records it, so that the photo's day is the one it was taken
            // on and stays so on any machine and for any viewer.
            timeZoneOffset: metadata.captureTimeZoneOffset ?? TimeZone.current.secondsFromGMT(for: metadata.captureDate ?? fileDate ?? now),
            cameraMake: metadata.cameraMake,
            cameraModel: metadata.cameraModel,
            lensModel: metadata.lensModel,
            contentHash: contentHash,
            thumbHash: thumbHash,
            rating: metadata.descriptive.rating.flatMap(AssetRating.init(rawValue:)) ?? .unset,
            extendedMetadata: ExtendedMetadataRecord(fileRecorded: metadata.descriptive))
        if let livePhotoEffect { record.play(livePhotoEffect) }
        return NewAsset(
            record: record, resources: staged, representsNewBurst: metadata.burstIdentifier != nil,
            timeZoneIsAssumed: metadata.captureTimeZoneOffset == nil)
    }

    /// The video a Google Motion Photo carries after its JPEG (``MotionPhoto``),
    /// staged as the paired video that makes the asset a Live Photo, as
    /// Apple keeps one; nil when `photo` is not a Motion Photo's still, or
    /// what its XMP points at is not a video. Every path that creates an
    /// asset (`importFiles`, `photos import`, the server's uploads, a
    /// client's own creation request) goes through here.
    /// Cost: a read of a JPEG's head; for a Motion Photo, a copy of its
    /// video and one ffprobe.
    private func motionPhotoVideo(of photo: NewResource) -> NewResource? {
        guard photo.type == .photo, photo.uniformTypeIdentifier == "public.jpeg",
            let range = MotionPhoto.videoRange(inFileAt: photo.file.url.path),
            let handle = try? FileHandle(forReadingFrom: photo.file.url)
        else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(range.lowerBound))) != nil,
            let bytes = try? handle.read(upToCount: range.count), bytes.count == range.count,
            let file = try? session.stage(data: bytes, pathExtension: "mp4"),
            let reading = try? FileReading.read(
                fileAt: file.url, originalName: "", expected: .video, needs: [],
                keepPoster: { _ in file.url }),
            let metadata = reading.metadata
        else { return nil }
        let stem = (photo.originalFilename as NSString).deletingPathExtension
        return NewResource(
            type: .pairedVideo, file: file, originalFilename: (stem.hasSuffix(".MP") ? String(stem.dropLast(3)) : stem) + ".MP4",
            uniformTypeIdentifier: metadata.uniformTypeIdentifier,
            pixelWidth: metadata.pixelWidth, pixelHeight: metadata.pixelHeight)
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
                guard MediaProbe.isRegularFile(url) else {
                    throw PHPhotosError(.invalidResource, "\(url.path): not a regular file")
                }
                return try session.stage(
                    fileAt: url, move: resource.options?.shouldMoveFile ?? false,
                    pathExtension: Self.storedExtension(of: url, originalFilename: resource.options?.originalFilename))
            case .data(let data):
                let ext =
                    resource.options?.originalFilename.map { URL(fileURLWithPath: $0).pathExtension }.flatMap { $0.isEmpty ? nil : $0 }
                    ?? resource.options?.uniformTypeIdentifier.flatMap(UniformType.preferredExtension(for:))
                    ?? UniformType.sniffExtension(of: data)
                    ?? "dat"
                return try session.stage(data: data, pathExtension: ext)
            }
        } catch let error as PHPhotosError {
            throw error
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// The extension a file is stored under, so that a backup or a file
    /// manager knows it for what it is: its own when that names a format
    /// the library reads, else the original name's, unless the file's first
    /// bytes are an image of another type (a HEIC named `.JPG`; not a
    /// camera raw file, TIFF inside), whose extension it then gets; else
    /// the one its first bytes say (a file
    /// uploaded as `ID.part`, named nothing); else its own.
    static func storedExtension(of url: URL, originalFilename: String?) -> String {
        let head =
            (try? FileHandle(forReadingFrom: url)).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 256)
            } ?? Data()
        let sniffed = UniformType.sniffExtension(of: head)
        let named =
            UniformType.isKnown(pathExtension: url.pathExtension)
            ? url.pathExtension
            : originalFilename.flatMap { FileName.safeExtension(URL(fileURLWithPath: $0).pathExtension) }
        if let named {
            // Camera raw files are TIFF inside: their own extension says more than their first bytes.
            if let type = UniformType.type(head: head), let namedType = UniformType.forExtension(named),
                namedType != type, !UniformType.isRAW(namedType), let sniffed
            {
                return sniffed
            }
            return named
        }
        return sniffed ?? FileName.safeExtension(url.pathExtension) ?? ""
    }

    /// The name a file keeps when the client or the file gives one that is
    /// safe (``originalFilename(_:uti:)`` makes one up otherwise).
    static func knownName(originalFilename: String?, fileURL: URL?) -> String? {
        originalFilename.flatMap(FileName.safe) ?? fileURL.flatMap { FileName.safe($0.lastPathComponent) }
    }

    /// The name the file keeps: the one the client gave or the file had,
    /// reduced to a safe last path component (`FileName.safe`), else one
    /// made from the asset's identifier and the file's type.
    private func originalFilename(_ resource: PHAssetChangeRequest.PendingResource, uti: String) -> String {
        let fileURL: URL? = if case .file(let url) = resource.source { url } else { nil }
        if let name = Self.knownName(originalFilename: resource.options?.originalFilename, fileURL: fileURL) { return name }
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

extension AssetRecord {
    /// Plays a Live Photo with `effect` (``PHAsset/playbackVariation``),
    /// as Apple's Photos does once the effect is chosen: Loop and Bounce as
    /// a looping video, Long Exposure as its still. Only a Live Photo has
    /// an effect: other assets stay as they are.
    mutating func play(_ effect: LivePhotoEffect) {
        guard mediaSubtypes.contains(.photoLive) else { return }
        playbackVariation = AssetPlaybackVariation(effect)
        playbackStyle = AssetPlaybackStyle(livePhotoPlaying: playbackVariation)
    }
}

extension ExtendedMetadataRecord {
    /// The caption and keywords a file or sidecar records, fitted to what
    /// the library takes (``DescriptiveText``), so that an import never
    /// fails for them; nil when it records neither.
    init?(fileRecorded descriptive: DescriptiveMetadata) {
        let caption = descriptive.caption.flatMap(DescriptiveText.fitted(caption:))
        let keywords = DescriptiveText.fitted(keywords: descriptive.keywords)
        guard caption != nil || !keywords.isEmpty else { return nil }
        self.init(caption: caption, keywords: keywords)
    }
}
