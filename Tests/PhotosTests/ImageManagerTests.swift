import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Collects the results of asynchronous requests.
final class ImageResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var results: [(image: UIImage?, info: [AnyHashable: Any])] = []
    let arrived = DispatchSemaphore(value: 0)

    func handler() -> (UIImage?, [AnyHashable: Any]?) -> Void {
        { image, info in
            self.lock.withLock { self.results.append((image, info ?? [:])) }
            self.arrived.signal()
        }
    }

    /// Waits for `count` results; false after `seconds` without them.
    func wait(for count: Int, seconds: Double = 10) -> Bool {
        for _ in 0..<count {
            guard arrived.wait(timeout: .now() + seconds) == .success else { return false }
        }
        return true
    }

    var all: [(image: UIImage?, info: [AnyHashable: Any])] { lock.withLock { results } }
}

private func size(_ image: UIImage?) -> [Int] {
    guard let image else { return [] }
    return [Int(image.size.width), Int(image.size.height)]
}

private func options(_ configure: (PHImageRequestOptions) -> Void) -> PHImageRequestOptions {
    let options = PHImageRequestOptions()
    configure(options)
    return options
}

@Suite struct ImageManagerTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    /// A synchronous request's image.
    private func image(
        _ asset: PHAsset, _ width: Double, _ height: Double, _ mode: PHImageContentMode = .aspectFit,
        _ configure: (PHImageRequestOptions) -> Void = { _ in }
    ) -> (UIImage?, [AnyHashable: Any]) {
        var delivered: [(UIImage?, [AnyHashable: Any])] = []
        let options = options {
            $0.isSynchronous = true
            configure($0)
        }
        PHImageManager.default().requestImage(
            for: asset, targetSize: CGSize(width: width, height: height), contentMode: mode,
            options: options
        ) { image, info in delivered.append((image, info ?? [:])) }
        #expect(delivered.count == 1, "a synchronous request calls its handler exactly once, before returning")
        return delivered.first ?? (nil, [:])
    }

    @Test func everyResizeModeAndContentModeGivesPhotoKitsSizes() throws {
        let asset = try test.importAsset(try test.jpeg(width: 1600, height: 1200))
        let cases: [(PHImageRequestOptionsResizeMode, PHImageContentMode, CGSize, [Int])] = [
            // Fast: the 480 × 360 thumbnail decoded at the smallest n/8 scale that covers the target.
            (.fast, .aspectFill, CGSize(width: 200, height: 200), [300, 225]),
            (.fast, .aspectFit, CGSize(width: 200, height: 200), [240, 180]),
            (.exact, .aspectFill, CGSize(width: 200, height: 200), [200, 200]),
            (.exact, .aspectFit, CGSize(width: 200, height: 200), [200, 150]),
            (.exact, .aspectFill, CGSize(width: 300, height: 100), [300, 100]),
            (.none, .aspectFill, CGSize(width: 200, height: 200), [480, 360]),
            (.fast, .aspectFit, CGSize(width: 3000, height: 3000), [1600, 1200]),
            (.exact, .aspectFit, CGSize(width: 3200, height: 3200), [3200, 2400]),
            (.fast, .aspectFit, PHImageManagerMaximumSize, [1600, 1200]),
            (.exact, .aspectFill, PHImageManagerMaximumSize, [1600, 1200]),
        ]
        for (resize, mode, target, expected) in cases {
            for delivery in [PHImageRequestOptionsDeliveryMode.highQualityFormat, .opportunistic] {
                let (image, info) = image(asset, target.width, target.height, mode) {
                    $0.resizeMode = resize
                    $0.deliveryMode = delivery
                }
                #expect(size(image) == expected, "\(resize) \(mode) \(target) \(delivery): \(size(image))")
                #expect(info[PHImageResultIsDegradedKey] as? Bool == false)
                #expect(info[PHImageResultIsInCloudKey] as? Bool == false)
                #expect((info[PHImageResultRequestIDKey] as? PHImageRequestID).map { $0 > 0 } == true)
                #expect(info[PHImageErrorKey] == nil && info[PHImageCancelledKey] == nil)
            }
        }
        // The crop of exact requests, in unit coordinates from the top left.
        let cropped = image(asset, 100, 100, .aspectFill) {
            $0.resizeMode = .exact
            $0.normalizedCropRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        }.0
        #expect(size(cropped) == [100, 100])
    }

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func orientationIsAppliedAndReportedWithTheData() throws {
        let asset = try test.importAsset(try test.jpeg(width: 400, height: 100, orientation: 6))
        #expect(asset.pixelWidth == 100 && asset.pixelHeight == 400)
        #expect(size(image(asset, -1, -1).0) == [100, 400])
        #expect(size(image(asset, 50, 50, .aspectFit) { $0.resizeMode = .exact }.0) == [13, 50])

        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received: (Data?, String?, CGImagePropertyOrientation)?
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: nil) { data, type, orientation, info in
            received = (data, type, orientation)
            #expect(info?[PHImageErrorKey] == nil)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let original = try Data(
            contentsOf: test.library.url.appendingPathComponent(
                try #require(test.library.store!.resources(assetID: asset.record.id).first).relativePath))
        #expect(received?.0 == original && received?.1 == "public.jpeg" && received?.2 == .right)
    }

    @Test func opportunisticDeliversTheThumbnailFirstThenTheFinalImage() throws {
        let asset = try test.importAsset(try test.jpeg(width: 2400, height: 1800))
        let results = ImageResults()
        let manager = PHImageManager()
        let id = manager.requestImage(
            for: asset, targetSize: CGSize(width: 1200, height: 1200), contentMode: .aspectFill,
            options: nil, resultHandler: results.handler())
        #expect(results.wait(for: 2))
        let all = results.all
        #expect(all.map { $0.info[PHImageResultIsDegradedKey] as? Bool } == [true, false])
        #expect(all.map { $0.info[PHImageResultRequestIDKey] as? PHImageRequestID } == [id, id])
        #expect(size(all[0].image) == [480, 360], "the thumbnail, not scaled up")
        #expect(size(all[1].image) == [1600, 1200], "covering 1200 × 1200, from a preview made on the way")
        #expect(test.library.derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .preview) != nil)

        // The preview now exists: one final result, and from memory the second time.
        let again = ImageResults()
        manager.requestImage(
            for: asset, targetSize: CGSize(width: 1200, height: 1200), contentMode: .aspectFill,
            options: nil, resultHandler: again.handler())
        #expect(again.wait(for: 1))
        #expect(!again.wait(for: 1, seconds: 0.3))
        #expect(again.all.first?.image === all[1].image)

        // Fast format: one result, the thumbnail, marked degraded.
        let fast = ImageResults()
        manager.requestImage(
            for: asset, targetSize: CGSize(width: 2000, height: 2000), contentMode: .aspectFit,
            options: options { $0.deliveryMode = .fastFormat }, resultHandler: fast.handler())
        #expect(fast.wait(for: 1))
        #expect(!fast.wait(for: 1, seconds: 0.3))
        #expect(fast.all.first?.info[PHImageResultIsDegradedKey] as? Bool == true)
        #expect(size(fast.all.first?.image) == [480, 360])

        // High quality: one final result.
        let high = ImageResults()
        manager.requestImage(
            for: asset, targetSize: CGSize(width: 2000, height: 2000), contentMode: .aspectFit,
            options: options { $0.deliveryMode = .highQualityFormat }, resultHandler: high.handler())
        #expect(high.wait(for: 1))
        #expect(!high.wait(for: 1, seconds: 0.3))
        #expect(high.all.first?.info[PHImageResultIsDegradedKey] as? Bool == false)
        #expect(size(high.all.first?.image) == [2000, 1500])
    }

    @Test func thumbnailsAreMadeAtImportAndRemadeWhenMissing() throws {
        let asset = try test.importAsset(try test.jpeg(width: 1600, height: 1200))
        let derivatives = test.library.derivatives
        let thumbnail = try #require(derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .thumbnail))
        try FileManager.default.removeItem(at: thumbnail)
        #expect(size(image(asset, 200, 200, .aspectFill).0) == [267, 200])
        #expect(derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .thumbnail) != nil, "made again on use")

        // A thumbnail a crash cut short is made again too.
        let remade = try #require(derivatives.existing(assetUUID: asset.record.uuid, version: 0, kind: .thumbnail))
        let intact = try Data(contentsOf: remade)
        try intact.prefix(intact.count / 3).write(to: remade)
        #expect(size(image(asset, 150, 150, .aspectFill).0) == [200, 150], "rendered from a thumbnail made again")
        #expect(UIImage(contentsOfFile: remade.path).map { [Int($0.size.width), Int($0.size.height)] } == [480, 360])
    }

    @Test func cancelledRequestsNeverCallTheirHandlersAndLeaveNoWork() throws {
        var assets: [PHAsset] = []
        for index in 0..<4 {
            assets.append(try test.importAsset(try test.jpeg(width: 1200 + index, height: 900)))
        }
        let results = ImageResults()
        let manager = PHImageManager(scheduler: ImageWorkScheduler(workers: 2))
        var ids: [PHImageRequestID] = []
        for index in 0..<1000 {
            ids.append(
                manager.requestImage(
                    for: assets[index % 4], targetSize: CGSize(width: 1000 + index, height: 1000),
                    contentMode: .aspectFit, options: options { $0.deliveryMode = .highQualityFormat },
                    resultHandler: results.handler()))
        }
        ids.forEach(manager.cancelImageRequest)
        #expect(eventuallyBlocking { manager.scheduler.pendingCount == 0 }, "no work left running")
        // At most the requests already running when cancelled may have rendered; none may deliver.
        // Every delivery goes through the result queue: once it is drained, none is on its way.
        manager.resultHandlerQueue.sync {}
        #expect(results.all.isEmpty)
    }

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func errorsComeInTheInfoDictionary() throws {
        let bare = try test.insert([TestLibrary.record(created: Date())])
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: bare, options: nil)[0] }
        let bareResult = image(asset, 100, 100)
        #expect(bareResult.0 == nil)
        #expect((bareResult.1[PHImageErrorKey] as? PHPhotosError)?.code == .missingResource)

        let photo = try test.importAsset(try test.jpeg())
        let file = test.library.url.appendingPathComponent(try #require(test.library.store!.resources(assetID: photo.record.id).first).relativePath)
        try FileManager.default.removeItem(at: file)
        let missing = image(photo, -1, -1)
        #expect(missing.0 == nil && (missing.1[PHImageErrorKey] as? PHPhotosError)?.code == .missingResource)
    }

    @Test func videosShowTheirFirstFrameAndGiveTheirFile() throws {
        let clip = try test.video(seconds: 1, width: 320, height: 240, rotation: 90)
        let video = try test.importAsset(clip, video: true)
        #expect(video.mediaType == .video && video.pixelWidth == 240 && video.pixelHeight == 320)
        #expect(size(image(video, -1, -1).0) == [240, 320])
        #expect(size(image(video, 60, 60, .aspectFill) { $0.resizeMode = .exact }.0) == [60, 60])

        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var file: URL?
        nonisolated(unsafe) var data: Data?
        PHImageManager.default().requestVideoFileURL(forVideo: video, options: nil) { url, _ in
            file = url
            done.signal()
        }
        PHImageManager.default().requestVideoData(forVideo: video, options: nil) { bytes, _ in
            data = bytes
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success && done.wait(timeout: .now() + 5) == .success)
        #expect(try file.map { try Data(contentsOf: $0) } == Data(contentsOf: clip))
        #expect(data == (try Data(contentsOf: clip)))
    }

    @Test func aCachingManagerServesPreparedImagesFromMemory() throws {
        var assets: [PHAsset] = []
        for index in 0..<6 {
            assets.append(try test.importAsset(try test.jpeg(width: 800, height: 600 + index)))
        }
        let manager = PHCachingImageManager(scheduler: ImageWorkScheduler(workers: 2))
        let target = CGSize(width: 150, height: 150)
        manager.startCachingImages(for: assets, targetSize: target, contentMode: .aspectFill, options: nil)
        _ = eventuallyBlocking { manager.scheduler.pendingCount == 0 }
        var first: [UIImage] = []
        for asset in assets {
            let results = ImageResults()
            manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFill, options: nil, resultHandler: results.handler())
            #expect(results.wait(for: 1))
            first.append(try #require(results.all.first?.image))
        }
        for (asset, image) in zip(assets, first) {
            let results = ImageResults()
            manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFill, options: nil, resultHandler: results.handler())
            #expect(results.wait(for: 1))
            #expect(results.all.first?.image === image, "the same image from memory")
        }
        manager.stopCachingImagesForAllAssets()
        let results = ImageResults()
        manager.requestImage(for: assets[0], targetSize: target, contentMode: .aspectFill, options: nil, resultHandler: results.handler())
        #expect(results.wait(for: 1))
        #expect(results.all.first?.image !== first[0], "rendered again once the cache is emptied")
    }

    @Test func resultsGoToTheQueueChosen() throws {
        let asset = try test.importAsset(try test.jpeg())
        let manager = PHImageManager()
        let queue = DispatchQueue(label: "test.results")
        manager.resultHandlerQueue = queue
        // Hold the queue: the result must wait behind what is on it.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let done = DispatchSemaphore(value: 0)
        manager.requestImage(for: asset, targetSize: CGSize(width: 10, height: 10), contentMode: .aspectFit, options: nil) { _, _ in
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut)
        gate.signal()
        #expect(done.wait(timeout: .now() + 5) == .success)
    }
}
