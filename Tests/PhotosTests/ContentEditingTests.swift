import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

private func size(_ image: UIImage?) -> [Int] {
    guard let image else { return [] }
    return [Int(image.size.width), Int(image.size.height)]
}

@Suite struct ContentEditingTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func input(_ asset: PHAsset, handles: Bool) throws -> PHContentEditingInput {
        try Self.input(for: asset, handles: handles)
    }

    /// The editing input of an asset, asked the way an editing extension asks.
    static func input(for asset: PHAsset, handles: Bool = true) throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = { $0.formatIdentifier == "com.example.crop" && handles }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received: PHContentEditingInput?
        nonisolated(unsafe) var info: [AnyHashable: Any] = [:]
        asset.requestContentEditingInput(with: options) { input, details in
            received = input
            info = details
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(info[PHContentEditingInputErrorKey] == nil, "\(info)")
        return try #require(received)
    }

    private func fullSizeImage(_ asset: PHAsset, version: PHImageRequestOptionsVersion = .current) -> UIImage? {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.version = version
        var image: UIImage?
        PHImageManager.default().requestImage(
            for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .default,
            options: options
        ) { result, _ in image = result }
        return image
    }

    private func refetched(_ asset: PHAsset) -> PHAsset {
        test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil)[0] }
    }

    /// An edit that crops the input's image to a centred square.
    private func squareCrop(of input: PHContentEditingInput) throws -> PHContentEditingOutput {
        let output = PHContentEditingOutput(contentEditingInput: input)
        let url = try #require(input.fullSizeImageURL)
        let side = min(input.displaySizeImage!.size.width, input.displaySizeImage!.size.height)
        let square = try ImageRenderer.render(
            fileAt: url,
            RenderSpec(
                targetWidth: Int(side), targetHeight: Int(side),
                mode: .fill, exact: true))
        try ImageCodec.encode(square, as: .jpeg(quality: 90)).write(to: output.renderedContentURL)
        output.adjustmentData = PHAdjustmentData(
            formatIdentifier: "com.example.crop", formatVersion: "1.0",
            data: Data("square".utf8))
        return output
    }

    @Test func anEditingSessionsFilesGoWithItsInputAndOutput() throws {
        let asset = try test.importAsset(try test.jpeg(width: 400, height: 300))
        var folder: URL?
        do {
            let input = try input(asset, handles: true)
            let copy = try #require(input.fullSizeImageURL)
            folder = copy.deletingLastPathComponent()
            let output = try squareCrop(of: input)
            #expect(FileManager.default.fileExists(atPath: output.renderedContentURL.path))
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
            #expect(FileManager.default.fileExists(atPath: copy.path), "kept while the input is")
        }
        let released = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: released.path), "the copy and the rendering are removed")
        #expect(refetched(asset).pixelWidth == 300, "after the edit was stored")
    }

    @Test func anEditIsStoredShownReportedAndReverted() throws {
        let asset = try test.importAsset(try test.jpeg(width: 400, height: 300))
        let fetchResult = test.fetch { PHAsset.fetchAssets(with: nil) }
        let observer = RecordingObserver()
        test.library.register(observer)
        defer { test.library.unregisterChangeObserver(observer) }
        let token = test.library.currentChangeToken

        let first = try input(asset, handles: true)
        #expect(first.adjustmentData == nil, "nothing to resume yet")
        #expect(size(first.displaySizeImage) == [400, 300], "never scaled up")
        #expect(first.mediaType == .image && first.uniformTypeIdentifier == "public.jpeg" && first.fullSizeImageOrientation == 1)
        let copy = try #require(first.fullSizeImageURL)
        #expect(!copy.path.hasPrefix(test.library.url.path), "the input is a copy, not the library's file")

        let output = try squareCrop(of: first)
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        let edited = refetched(asset)
        #expect(edited.hasAdjustments && edited.adjustmentFormatIdentifier == "com.example.crop")
        #expect(edited.pixelWidth == 300 && edited.pixelHeight == 300)
        #expect(size(fullSizeImage(edited)) == [300, 300])
        let originalPlaceholder = try #require(asset.thumbHash)
        #expect(edited.thumbHash != nil && edited.thumbHash != originalPlaceholder, "the placeholder shows the edit")
        #expect(ThumbHash.aspectRatio(of: edited.thumbHash!) == 1)
        #expect(size(fullSizeImage(edited, version: .unadjusted)) == [400, 300], "the original is kept")
        #expect(Set(PHAssetResource.assetResources(for: edited).map(\.type)) == [.photo, .fullSizePhoto, .adjustmentData])
        #expect(
            test.library.derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .thumbnail) == nil,
            "the old version's thumbnail is gone")

        #expect(observer.wait())
        let details = try #require(observer.received.last?.changeDetails(for: asset))
        #expect(details.assetContentChanged && !details.objectWasDeleted)
        #expect(observer.received.last?.changeDetails(for: fetchResult)?.changedObjects.map(\.localIdentifier) == [asset.localIdentifier])
        let history = try test.library.fetchPersistentChanges(since: token).map { try $0.changeDetails(for: .asset) }
        #expect(history.map(\.updatedLocalIdentifiers) == [[asset.localIdentifier]])

        // Resuming starts from the original with the edit's data; otherwise from the rendering.
        let resumed = try input(edited, handles: true)
        #expect(resumed.adjustmentData?.data == Data("square".utf8) && resumed.adjustmentData?.formatVersion == "1.0")
        #expect(size(resumed.displaySizeImage) == [400, 300])
        let fresh = try input(edited, handles: false)
        #expect(fresh.adjustmentData == nil && size(fresh.displaySizeImage) == [300, 300])

        let editFiles = try PHAssetResource.assetResources(for: edited).filter { $0.type != .photo }.map { try $0.storedFile() }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        let reverted = refetched(asset)
        #expect(!reverted.hasAdjustments && reverted.adjustmentFormatIdentifier == nil)
        #expect(reverted.pixelWidth == 400 && reverted.pixelHeight == 300)
        #expect(size(fullSizeImage(reverted)) == [400, 300])
        #expect(reverted.thumbHash == originalPlaceholder, "the original's placeholder is back")
        #expect(PHAssetResource.assetResources(for: reverted).map(\.type) == [.photo])
        #expect(editFiles.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "the edit's files are deleted")
        #expect(observer.wait())
        #expect(observer.received.last?.changeDetails(for: edited)?.assetContentChanged == true)
    }

    @Test func badOutputsFailTheBlockAndChangeNothing() throws {
        let asset = try test.importAsset(try test.jpeg(width: 64, height: 48))
        let base = try input(asset, handles: false)

        let unwritten = PHContentEditingOutput(contentEditingInput: try input(asset, handles: false))
        unwritten.adjustmentData = PHAdjustmentData(formatIdentifier: "x", formatVersion: "1", data: Data())
        let undescribed = try squareCrop(of: base)
        undescribed.adjustmentData = nil
        let garbage = PHContentEditingOutput(contentEditingInput: try input(asset, handles: false))
        try Data("not a jpeg".utf8).write(to: garbage.renderedContentURL)
        garbage.adjustmentData = PHAdjustmentData(formatIdentifier: "x", formatVersion: "1", data: Data())

        for output in [unwritten, undescribed, garbage] {
            expectPhotosError(.invalidResource) {
                try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
            }
        }
        let unchanged = refetched(asset)
        #expect(!unchanged.hasAdjustments && PHAssetResource.assetResources(for: unchanged).count == 1)
        #expect(test.originalFiles.count == 1, "no file of a failed edit is left")
    }

    @Test func anAssetCanBeCreatedEdited() throws {
        let original = try test.jpeg(width: 200, height: 100)
        let rendered = PHContentEditingOutput(placeholderForCreatedAsset: PHObjectPlaceholder(localIdentifier: "", library: nil))
        try Data(contentsOf: try test.jpeg(width: 100, height: 100)).write(to: rendered.renderedContentURL)
        rendered.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.crop", formatVersion: "2", data: Data([1]))
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: original, options: nil)
            request.contentEditingOutput = rendered
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
        #expect(asset.hasAdjustments && asset.pixelWidth == 100 && asset.pixelHeight == 100)
        #expect(size(fullSizeImage(asset)) == [100, 100])
        #expect(size(fullSizeImage(asset, version: .original)) == [200, 100])
        var thumbnail: UIImage?
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.resizeMode = .none
        PHImageManager.default().requestImage(
            for: asset, targetSize: CGSize(width: 50, height: 50), contentMode: .aspectFit,
            options: options
        ) { image, _ in thumbnail = image }
        #expect(size(thumbnail) == [100, 100], "the thumbnail made at import shows the rendering")
    }
}

@Suite struct ResourceTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    @Test func resourcesDescribeTheStoredFiles() throws {
        let file = try test.jpeg("IMG_0042.JPG", width: 120, height: 80)
        let asset = try test.importAsset(file)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.count == 1)
        let resource = try #require(resources.first)
        #expect(resource.type == .photo && resource.originalFilename == "IMG_0042.JPG")
        #expect(resource.uniformTypeIdentifier == "public.jpeg" && resource.contentType == .jpeg)
        #expect(resource.assetLocalIdentifier == asset.localIdentifier)
        #expect(resource.pixelWidth == 120 && resource.pixelHeight == 80)
    }

    @Test func dataStreamsInChunksAndCopiesToFiles() async throws {
        // Large enough for several chunks: random bytes in the file's EXIF user comment.
        let big = try test.jpeg(width: 1500, height: 1500)
        let asset = try test.importAsset(big)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let expected = try Data(contentsOf: big)

        final class Received: @unchecked Sendable {
            var data = Data()
            var chunks = 0
            var progress: [Double] = []
        }
        let received = Received()
        let options = PHAssetResourceRequestOptions()
        options.progressHandler = { received.progress.append($0) }
        let error: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().requestData(
                for: resource, options: options,
                dataReceivedHandler: { chunk in
                    received.data.append(chunk)
                    received.chunks += 1
                }, completionHandler: { continuation.resume(returning: $0) })
        }
        #expect(error == nil)
        #expect(received.data == expected)
        #expect(received.chunks == (expected.count + PHAssetResourceManager.chunkSize - 1) / PHAssetResourceManager.chunkSize)
        #expect(received.progress.last == 1 && received.progress == received.progress.sorted())

        let destination = test.directory.appendingPathComponent("exported.jpg")
        try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
        #expect(try Data(contentsOf: destination) == expected)
        await #expect(throws: (any Error).self) {
            try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
        }
    }

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func cancelledAndMissingDataRequestsSayWhy() async throws {
        let asset = try test.importAsset(try test.jpeg(width: 1500, height: 1500))
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let manager = PHAssetResourceManager()
        let gate = DispatchSemaphore(value: 0)
        let cancelled: (any Error)? = await withCheckedContinuation { continuation in
            var id = PHInvalidAssetResourceDataRequestID
            id = manager.requestData(
                for: resource, options: nil,
                dataReceivedHandler: { _ in
                    manager.cancelDataRequest(id)
                    gate.signal()
                }, completionHandler: { continuation.resume(returning: $0) })
        }
        _ = gate.wait(timeout: .now())
        #expect((cancelled as? PHPhotosError)?.code == .userCancelled || cancelled == nil)

        try FileManager.default.removeItem(at: try resource.storedFile())
        let missing: (any Error)? = await withCheckedContinuation { continuation in
            manager.requestData(
                for: resource, options: nil, dataReceivedHandler: { _ in },
                completionHandler: { continuation.resume(returning: $0) })
        }
        #expect((missing as? PHPhotosError)?.code == .missingResource)
    }
}
