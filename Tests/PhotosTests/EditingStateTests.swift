import Foundation
import PhotosMedia
import PhotosTestSupport
import Testing

@testable import Photos

/// iOS 18–27's editing state through the public API: `adjustmentsState`,
/// `adjustmentTimestamp`, a RAW+JPEG asset's `originalResourceChoice` and
/// `revertAssetContent(to:)`, the content-editing options that go with
/// them, and a Live Photo shown as a still and back.
@Suite struct EditingStateTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func refetched(_ identifier: String) -> PHAsset {
        test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
    }

    private func input(_ asset: PHAsset, options: PHContentEditingInputRequestOptions) -> (PHContentEditingInput?, [AnyHashable: Any]) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received: (PHContentEditingInput?, [AnyHashable: Any]) = (nil, [:])
        asset.requestContentEditingInput(with: options) { input, info in
            received = (input, info)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        return received
    }

    /// A RAW+JPEG asset: a 160 × 120 JPEG shown, a raw file (whose preview
    /// is 80 × 60) its alternate photo.
    private func rawPlusJPEG(choosing choice: PHAsset.OriginalResourceChoice? = nil) throws -> String {
        let raw = try CameraFiles.raw(
            width: 160, height: 120, preview: (80, 60),
            tags: ["-Make=Panasonic", "-Model=DMC-GH4", "-DateTimeOriginal=2021:05:04 10:11:12"], in: test.files)
        let jpeg = try test.jpeg(width: 160, height: 120)
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: jpeg, options: nil)
            request.addResource(with: .alternatePhoto, fileURL: raw, options: nil)
            if let choice { request.originalResourceChoice = choice }
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        return identifier
    }

    @Test func enumerationsHaveApplesRawValues() {
        #expect(PHAsset.AdjustmentsState.none.rawValue == 0 && PHAsset.AdjustmentsState.userAdjusted.rawValue == 2)
        #expect(PHAsset.AdjustmentsState.cameraAutoAdjusted.rawValue == 3 && PHAsset.AdjustmentsState(rawValue: 1) == nil)
        #expect(PHAsset.OriginalResourceChoice.compressed.rawValue == 0 && PHAsset.OriginalResourceChoice.raw.rawValue == 1)
        #expect([PHAsset.PlaybackVariation.none, .autoloop, .mirror, .longExposure].map(\.rawValue) == [0, 1, 2, 3])
        #expect(PHCollectionListSubtype.rootFolder.rawValue == 101)
        #expect(PHAssetMediaSubtype.photoAnimation.rawValue == 1 << 6)
    }

    /// An edit dates the asset's adjustments; a revert dates them again
    /// and leaves the asset unadjusted.
    @Test func anEditAndItsRevertAreDated() throws {
        let identifier = try test.importDays(1)[0]
        let asset = refetched(identifier)
        #expect(asset.adjustmentsState == .none && asset.adjustmentTimestamp == nil)
        let editing = try ContentEditingTests.input(for: asset, handles: false)
        let output = PHContentEditingOutput(contentEditingInput: editing)
        try ImageCodec.encode(try ImageCodec.decode(fileAt: try #require(editing.fullSizeImageURL)), as: .jpeg(quality: 80))
            .write(to: output.renderedContentURL)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.copy", formatVersion: "1", data: Data("copy".utf8))
        let before = Date()
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = refetched(identifier)
        #expect(edited.adjustmentsState == .userAdjusted)
        let editedAt = try #require(edited.adjustmentTimestamp)
        #expect(editedAt >= before.addingTimeInterval(-1))
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        let reverted = refetched(identifier)
        #expect(reverted.adjustmentsState == .none && !reverted.hasAdjustments)
        #expect(try #require(reverted.adjustmentTimestamp) >= editedAt, "the revert's time")
    }

    @Test func aCameraAdjustedCaptureSaysSo() throws {
        let hdr = try test.importImages([try test.jpeg { $0.customRendered = 2 }])[0]
        #expect(refetched(hdr).adjustmentsState == .cameraAutoAdjusted)
    }

    /// A RAW+JPEG asset renders from its JPEG until its raw file is chosen,
    /// then from the raw file (its preview's size); choosing needs a raw file.
    @Test func aRawPlusJPEGAssetRendersFromTheOriginalChosen() throws {
        let identifier = try rawPlusJPEG()
        let asset = refetched(identifier)
        #expect(asset.originalResourceChoice == .compressed && asset.pixelWidth == 160)
        let version = asset.contentVersion
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).revertAssetContent(to: .raw) }
        let chosen = refetched(identifier)
        #expect(chosen.originalResourceChoice == .raw && chosen.contentVersion > version)
        #expect(chosen.adjustmentTimestamp != nil)
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var image: UIImage?
        PHImageManager.default().requestImage(for: chosen, targetSize: PHImageManagerMaximumSize, contentMode: .default, options: options) {
            result, _ in image = result
        }
        #expect(image?.size == CGSize(width: 80, height: 60), "the raw file's preview, not the JPEG")

        let editing = PHContentEditingInputRequestOptions()
        editing.skipsDisplaySizeImage = true
        editing.originalResourceChoice = .compressed
        let (fromJPEG, _) = input(chosen, options: editing)
        #expect(fromJPEG?.displaySizeImage == nil)
        #expect(fromJPEG?.uniformTypeIdentifier == "public.jpeg", "the option's original, not the asset's")

        try test.library.performChangesAndWait { PHAssetChangeRequest(for: chosen).revertAssetContent(to: .compressed) }
        #expect(refetched(identifier).originalResourceChoice == .compressed && refetched(identifier).pixelWidth == 160)
        #expect(try rawPlusJPEG(choosing: .raw).isEmpty == false)
    }

    @Test func oneOriginalHasNothingToChooseFrom() throws {
        let identifier = try test.importDays(1)[0]
        let asset = refetched(identifier)
        let token = test.library.currentChangeToken
        expectPhotosError(.changeNotSupported) {
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).revertAssetContent(to: .raw) }
        }
        expectPhotosError(.changeNotSupported) {
            try test.library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: try! test.jpeg(), options: nil)
                request.originalResourceChoice = .raw
            }
        }
        #expect(test.library.currentChangeToken == token)
        let options = PHContentEditingInputRequestOptions()
        options.originalResourceChoice = .raw
        let (editing, info) = input(asset, options: options)
        #expect(editing == nil)
        #expect((info[PHContentEditingInputErrorKey] as? PHPhotosError)?.code == .requestNotSupportedForAsset)
    }

    /// A Live Photo shown as a still keeps its video, and comes back.
    @Test func aLivePhotoIsShownAsAStillAndBack() throws {
        let still = try test.jpeg(width: 64, height: 48) { $0.contentIdentifier = "A1B2C3D4-0000-4000-8000-0000000000AA" }
        let motion = try test.video(
            seconds: 1, width: 64, height: 48, tags: ["com.apple.quicktime.content.identifier": "A1B2C3D4-0000-4000-8000-0000000000AA"])
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: motion, options: nil)
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let live = refetched(identifier)
        #expect(live.playbackStyle == .livePhoto && live.playbackVariation == .none)
        let token = test.library.currentChangeToken
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: live).setLivePhotoVideoPlaybackEnabled(false) }
        let stillNow = refetched(identifier)
        #expect(stillNow.playbackStyle == .image && stillNow.mediaSubtypes.contains(.photoLive))
        #expect(test.fetch { PHAssetResource.assetResources(for: stillNow) }.map(\.type) == [.photo, .pairedVideo])
        #expect(try test.library.fetchPersistentChanges(since: token).map { try $0.changeDetails(for: .asset).updatedLocalIdentifiers } == [[identifier]])
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: stillNow).setLivePhotoVideoPlaybackEnabled(true) }
        #expect(refetched(identifier).playbackStyle == .livePhoto)

        let plain = try test.importDays(1)[0]
        let before = test.library.currentChangeToken
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: refetched(plain)).setLivePhotoVideoPlaybackEnabled(false) }
        #expect(refetched(plain).playbackStyle == .image)
        #expect(try test.library.fetchPersistentChanges(since: before).map { try $0.changeDetails(for: .asset).updatedLocalIdentifiers }.allSatisfy(\.isEmpty))
    }
}
