import Foundation
import PhotosMedia
import PhotosStore
import Synchronization

/// Videos as web browsers play them, an OpenPhotoKit addition for the
/// server and its gallery. On Apple platforms AVFoundation plays every
/// video the camera makes; a browser on Linux plays none of HEVC (every
/// iPhone video), MPEG-4 Part 2, MPEG transport streams or AVI.
extension PHImageManager {
    /// Which video of an asset: a video asset's own, or a Live Photo's motion.
    public enum PlayableVideoPart: String, Sendable, CaseIterable {
        /// A video asset's video (an edit's rendering when it has one).
        case video
        /// A Live Photo's paired video (an edit's rendering when it has one).
        case motion

        var derivativeKind: DerivativeCache.Kind {
            switch self {
            case .video: .playableVideo
            case .motion: .playableMotion
            }
        }
    }

    /// The file of the asset's video as browsers play it: its own file when
    /// browsers play that, else an H.264/AAC MP4 made from it once and kept
    /// with the derivatives. Throws `missingResource` when the asset has no
    /// such video, `invalidResource` when it cannot be read or converted. Cost: once per asset version and process, one
    /// ffprobe; the first time a copy is needed, one ffmpeg run at low
    /// priority (about real time for a phone video, on one core).
    public func playableVideo(of asset: PHAsset, _ part: PlayableVideoPart = .video) throws -> URL {
        let (source, original) = try playableSource(of: asset, part)
        if let ready = try readyPlayableVideo(source, original: original, part) { return ready }
        do {
            return try source.library.derivatives.store(
                assetUUID: asset.record.uuid, version: asset.record.contentVersion,
                kind: part.derivativeKind
            ) { temporary in
                try PlayableVideo.make(from: original, to: temporary)
            }
        } catch let error as MediaError {
            throw PHPhotosError(.invalidResource, error.description, identifiers: [asset.localIdentifier])
        } catch {
            throw PHPhotosError(
                .internalError, "cannot keep a playable copy of \(asset.localIdentifier): \(error)",
                identifiers: [asset.localIdentifier])
        }
    }

    /// ``playableVideo(of:_:)`` when it needs no conversion: the video's own
    /// file when browsers play it, or the copy made already; nil when a
    /// copy has yet to be made. Cost: a `stat`; once per asset version and
    /// process, one ffprobe.
    public func existingPlayableVideo(of asset: PHAsset, _ part: PlayableVideoPart = .video) throws -> URL? {
        let (source, original) = try playableSource(of: asset, part)
        return try readyPlayableVideo(source, original: original, part)
    }

    private func playableSource(of asset: PHAsset, _ part: PlayableVideoPart) throws(PHPhotosError) -> (ImageSource, URL) {
        let source = try ImageSource(asset: asset, version: .current)
        switch part {
        case .video:
            guard asset.mediaType == .video else {
                throw PHPhotosError(.missingResource, "\(asset.localIdentifier) is not a video", identifiers: [asset.localIdentifier])
            }
            return (source, try source.primaryFile())
        case .motion:
            return (source, try source.pairedVideoFile())
        }
    }

    private func readyPlayableVideo(_ source: ImageSource, original: URL, _ part: PlayableVideoPart) throws(PHPhotosError) -> URL? {
        let asset = source.asset
        let key = PlayableOriginals.Key(file: original.path, version: asset.record.contentVersion)
        let playsAsItIs: Bool
        if let known = PlayableOriginals.shared.lookUp(key) {
            playsAsItIs = known
        } else {
            do {
                playsAsItIs = try PlayableVideo.isBrowserPlayable(fileAt: original)
            } catch {
                throw PHPhotosError(.invalidResource, error.description, identifiers: [asset.localIdentifier])
            }
            PlayableOriginals.shared.remember(key, playsAsItIs)
        }
        if playsAsItIs { return original }
        return source.library.derivatives.existing(
            assetUUID: asset.record.uuid, version: asset.record.contentVersion,
            kind: part.derivativeKind)
    }
}

/// Whether browsers play a stored video file as it is, remembered so that
/// each range request of a playing video does not run ffprobe again.
/// Stored files never change in place (an edit writes a new one), so a
/// file's answer holds for the process; at most `capacity` are kept.
private final class PlayableOriginals: Sendable {
    struct Key: Hashable {
        var file: String
        var version: Int
    }

    static let shared = PlayableOriginals()
    private static let capacity = 100_000
    private let answers = Mutex<[Key: Bool]>([:])

    func lookUp(_ key: Key) -> Bool? {
        answers.withLock { $0[key] }
    }

    func remember(_ key: Key, _ playsAsItIs: Bool) {
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            answers[key] = playsAsItIs
        }
    }
}
