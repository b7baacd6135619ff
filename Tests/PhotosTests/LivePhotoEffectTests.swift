import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// A Live Photo's effect (`PHAsset.playbackVariation`) as its files say
/// it: the `.AAE` Apple's Photos exports beside it, the same property list
/// added as an `adjustmentData` resource, or the key Photos writes in a
/// video it rendered. Loop and Bounce play as a looping video.
@Suite struct LivePhotoEffectTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    /// A still and its paired video, sharing a content identifier as Apple's cameras write it.
    private func livePhoto(_ stem: String, videoTags: [String: String] = [:]) throws -> (still: URL, video: URL) {
        let identifier = UUID().uuidString
        let still = try test.jpeg(stem + ".JPG") { $0.contentIdentifier = identifier }
        let video = try test.video(
            seconds: 1, width: 48, height: 32, tags: videoTags.merging(["com.apple.quicktime.content.identifier": identifier]) { $1 },
            name: stem + ".MOV")
        return (still, video)
    }

    private func asset(_ identifier: String?) throws -> PHAsset {
        let identifier = try #require(identifier)
        return try #require(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
    }

    @Test func anImportedLivePhotoPlaysWithTheEffectItsAAESays() throws {
        let loop = try livePhoto("IMG_0101")
        let bounce = try livePhoto("IMG_0102")
        let longExposure = try livePhoto("IMG_0103")
        let portrait = try livePhoto("IMG_0104")
        let plain = try livePhoto("IMG_0105")
        let still = try test.jpeg("IMG_0106.JPG")
        let adjustments = [
            "IMG_0101.AAE": AppleAdjustmentsFiles.loop, "IMG_O0102.aae": AppleAdjustmentsFiles.bounce,
            "IMG_0103.AAE": AppleAdjustmentsFiles.longExposure, "IMG_0104.AAE": AppleAdjustmentsFiles.portrait,
            "IMG_0106.AAE": AppleAdjustmentsFiles.loop,
        ]
        for (name, renderTypes) in adjustments { try AppleAdjustmentsFiles.write(name, in: test.files, renderTypes: renderTypes) }
        let files = [loop, bounce, longExposure, portrait, plain].flatMap { [$0.still, $0.video] } + [still]
        let result = try test.library.importFiles(files)
        #expect(result.failed.isEmpty, "\(result.failed)")
        let identifiers = Dictionary(uniqueKeysWithValues: result.imported.map { ($0.file.lastPathComponent, $0.localIdentifier) })
        func expect(_ name: String, _ variation: PHAsset.PlaybackVariation, _ style: PHAsset.PlaybackStyle, live: Bool = true) throws {
            let asset = try asset(identifiers[name])
            #expect(asset.playbackVariation == variation, "\(name)")
            #expect(asset.playbackStyle == style, "\(name)")
            #expect(asset.mediaSubtypes.contains(.photoLive) == live, "\(name)")
        }
        try expect("IMG_0101.JPG", .autoloop, .videoLooping)
        try expect("IMG_0102.JPG", .mirror, .videoLooping)
        try expect("IMG_0103.JPG", .longExposure, .livePhoto)
        try expect("IMG_0104.JPG", .none, .livePhoto)
        try expect("IMG_0105.JPG", .none, .livePhoto)
        // An effect is a Live Photo's: a still photo's adjustments give it none.
        try expect("IMG_0106.JPG", .none, .image, live: false)
        #expect(
            Set(result.sidecarsRead.map(\.lastPathComponent)) == ["IMG_0101.AAE", "IMG_O0102.aae", "IMG_0103.AAE", "IMG_0106.AAE"],
            "adjustments without an effect describe nothing the library keeps")

        // Apple's Long Exposure album holds the Live Photos given that effect.
        let album = test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumLongExposures, options: nil)[0] }
        let shown = test.fetch { PHAsset.fetchAssets(in: album, options: nil) }
        #expect(shown.count == 1 && shown.firstObject?.localIdentifier == identifiers["IMG_0103.JPG"])
        // A fetch can ask for them by their effect.
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "playbackStyle == %d", PHAsset.PlaybackStyle.videoLooping.rawValue)
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.count == 2)
    }

    /// A client creating a Live Photo with Photos' adjustments as its
    /// `adjustmentData` resource, or with a paired video Photos rendered
    /// with an effect, gets the effect; turning the motion off and on
    /// again keeps it.
    @Test func aCreationRequestsAdjustmentsOrRenderedVideoGiveTheEffect() throws {
        let withAdjustments = try livePhoto("IMG_0201")
        let rendered = try livePhoto("IMG_0202", videoTags: ["com.apple.photos.variation-identifier": "2"])
        var identifiers: [String] = []
        try test.library.performChangesAndWait {
            let first = PHAssetCreationRequest.forAsset()
            first.addResource(with: .photo, fileURL: withAdjustments.still, options: nil)
            first.addResource(with: .pairedVideo, fileURL: withAdjustments.video, options: nil)
            first.addResource(with: .adjustmentData, data: AppleAdjustmentsFiles.propertyList(renderTypes: AppleAdjustmentsFiles.loop), options: nil)
            let second = PHAssetCreationRequest.forAsset()
            second.addResource(with: .photo, fileURL: rendered.still, options: nil)
            second.addResource(with: .pairedVideo, fileURL: rendered.video, options: nil)
            identifiers = [first, second].map { $0.placeholderForCreatedAsset!.localIdentifier }
        }
        let loop = try asset(identifiers[0])
        let bounce = try asset(identifiers[1])
        #expect(loop.playbackVariation == .autoloop && loop.playbackStyle == .videoLooping)
        #expect(bounce.playbackVariation == .mirror && bounce.playbackStyle == .videoLooping)
        #expect(bounce.value(forKey: "playbackVariation") as? Int == PHAsset.PlaybackVariation.mirror.rawValue)

        try test.library.performChangesAndWait { PHAssetChangeRequest(for: loop).setLivePhotoVideoPlaybackEnabled(false) }
        let still = try asset(identifiers[0])
        #expect(still.playbackStyle == .image && still.playbackVariation == .autoloop, "a still keeps its effect for later")
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: still).setLivePhotoVideoPlaybackEnabled(true) }
        #expect(try asset(identifiers[0]).playbackStyle == .videoLooping, "in motion again, with its effect")

        // A video on its own with the key is not a Live Photo: it has no effect.
        let video = try test.importAsset(try test.video(tags: ["com.apple.photos.variation-identifier": "1"]), video: true)
        #expect(video.playbackVariation == .none && video.playbackStyle == .video)
    }
}
