import Foundation
import PhotosMedia
import PhotosStore

/// Requesting what an editor starts from.
extension PHAsset {
    /// Prepares a content-editing input, off the calling thread, and calls
    /// `completionHandler` with it (or nil and `PHContentEditingInputErrorKey`)
    /// on a serial queue of the library's. Cost: copying the file to edit
    /// into a folder of the input's own, and rendering a display-size image.
    @discardableResult
    public func requestContentEditingInput(
        with options: PHContentEditingInputRequestOptions?,
        completionHandler: @escaping (PHContentEditingInput?, [AnyHashable: Any]) -> Void
    )
        -> PHContentEditingInputRequestID
    {
        let requests = ContentEditingRequests.shared
        let id = requests.start()
        let handler = UncheckedSendable(completionHandler)
        let canHandle = UncheckedSendable(options?.canHandleAdjustmentData ?? { _ in false })
        let (skipsDisplay, choice) = (options?.skipsDisplaySizeImage ?? false, options?.originalResourceChoice)
        requests.queue.async { [self] in
            var info: [AnyHashable: Any] = [PHContentEditingInputResultIsInCloudKey: false]
            var input: PHContentEditingInput?
            do {
                input = try makeContentEditingInput(canHandle: canHandle.value, skipsDisplaySizeImage: skipsDisplay, originalChoice: choice)
            } catch {
                info[PHContentEditingInputErrorKey] = error
            }
            guard requests.finish(id) else {
                // The input's folder goes with it.
                info[PHContentEditingInputCancelledKey] = true
                return handler.value(nil, info)
            }
            handler.value(input, info)
        }
        return id
    }

    /// Cancels a content-editing input request: its handler gets nil and
    /// `PHContentEditingInputCancelledKey`, unless it was already called.
    public func cancelContentEditingInputRequest(_ requestID: PHContentEditingInputRequestID) {
        ContentEditingRequests.shared.cancel(requestID)
    }

    private func makeContentEditingInput(
        canHandle: (PHAdjustmentData) -> Bool, skipsDisplaySizeImage: Bool, originalChoice: PHAsset.OriginalResourceChoice?
    ) throws -> PHContentEditingInput {
        guard let library, let store = library.store else {
            throw PHPhotosError(.identifierNotFound, "\(localIdentifier) belongs to no open library", identifiers: [localIdentifier])
        }
        let resources = try store.resources(assetID: record.id)
        let stored = resources.first { $0.type == .adjustmentData }
            .flatMap { try? library.storedFileURL($0.relativePath) }
            .flatMap { try? Data(contentsOf: $0) }
            .flatMap { PHAdjustmentData(propertyList: $0) }
        // Resuming an edit starts from the original; otherwise from what is shown now.
        let resumes = stored.map(canHandle) ?? false
        if originalChoice != nil, !resources.contains(where: { $0.type == .alternatePhoto }) {
            throw PHPhotosError(
                .requestNotSupportedForAsset, "\(localIdentifier) has one original: originalResourceChoice applies to RAW+JPEG assets",
                identifiers: [localIdentifier])
        }
        // A choice of original other than the asset's starts from that original, as unedited.
        let startsFromOtherOriginal = originalChoice.map { $0 != originalResourceChoice } ?? false
        let source = try ImageSource(
            asset: self, version: resumes || startsFromOtherOriginal ? .unadjusted : .current,
            originalChoice: originalChoice.map(AssetOriginalResourceChoice.init))
        let folder = EditingFolder()
        let file = try source.primaryFile()
        let copy = folder.url.appendingPathComponent("original." + (file.pathExtension.isEmpty ? "dat" : file.pathExtension))
        try FileManager.default.copyItem(at: file, to: copy)
        let displayImage =
            skipsDisplaySizeImage
            ? nil
            : try? source.withFullSizeImage { url, width, height in
                try? ImageRenderer.render(
                    fileAt: url, sourceWidth: width, sourceHeight: height,
                    RenderSpec(targetWidth: 2048, targetHeight: 2048, mode: .fit, exact: false))
            }.map { UIImage(pixels: $0) }
        let isVideo = mediaType == .video
        return PHContentEditingInput(
            asset: self, adjustmentData: resumes ? stored : nil,
            imageURL: isVideo ? nil : copy, imageType: isVideo ? nil : (try? source.primaryResource())?.uniformTypeIdentifier,
            orientation: Int32(isVideo ? 1 : MediaProbe.orientation(ofImageAt: copy) ?? 1),
            displaySizeImage: displayImage, videoURL: isVideo ? copy : nil, folder: folder)
    }
}

/// Content-editing input requests in flight, to cancel them.
final class ContentEditingRequests: @unchecked Sendable {
    static let shared = ContentEditingRequests()

    let queue = DispatchQueue(label: "photos.content-editing")
    private let lock = NSLock()
    private var last = 0
    private var active = Set<Int>()

    func start() -> Int {
        lock.withLock {
            last += 1
            active.insert(last)
            return last
        }
    }

    /// Ends a request; false when it was cancelled.
    func finish(_ id: Int) -> Bool {
        lock.withLock { active.remove(id) != nil }
    }

    func cancel(_ id: Int) {
        _ = lock.withLock { active.remove(id) }
    }
}
