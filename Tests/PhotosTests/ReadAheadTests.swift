import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Photos read before their change block (`ReadAhead`, which `photos
/// serve` uses for finished uploads): an asset made from a reading is the
/// asset its block would have made, and a reading of a file that changed
/// since is never used.
@Suite struct ReadAheadTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    /// Adds the file as the server adds an upload: moved, under a name of its own.
    private func add(_ url: URL, named name: String) throws -> PHAsset {
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = name
            options.shouldMoveFile = true
            request.addResource(with: .photo, fileURL: url, options: options)
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        return test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
    }

    private func thumbnail(_ asset: PHAsset) throws -> Data? {
        try PHImageManager.default().rendition(.thumbnail, of: asset).file.map { try Data(contentsOf: $0) }
    }

    /// A copy of `url` named like an upload, which says nothing of its type.
    private func upload(_ url: URL) throws -> URL {
        let copy = test.files.appendingPathComponent(UUID().uuidString + ".part")
        try FileManager.default.copyItem(at: url, to: copy)
        return copy
    }

    @Test func anAssetMadeFromAReadingIsTheOneItsBlockWouldMake() throws {
        let camera = try test.jpeg(
            width: 1600, height: 1200, taken: Date(timeIntervalSince1970: 1_600_000_000), utcOffset: 7200,
            latitude: 48.85, longitude: 2.35, orientation: 6, make: "Canon", model: "Canon EOS 5D")
        let heic = test.files.appendingPathComponent("converted.heic")
        try DebianTool.run("vips", ["copy", camera.path, heic.path])

        for (original, name) in [(camera, "IMG_0001.JPG"), (heic, "IMG_0002.HEIC")] {
            let readAhead = try upload(original)
            let readInBlock = try upload(original)
            ReadAhead.shared.schedule(fileAt: readAhead, originalFilename: name)
            ReadAhead.shared.waitUntilIdle()
            #expect(ReadAhead.shared.holdsReading(of: readAhead), "\(name)")
            let used = ReadAhead.shared.readingsUsed
            let fromReading = try add(readAhead, named: name)
            #expect(ReadAhead.shared.readingsUsed > used, "\(name)")
            let fromBlock = try add(readInBlock, named: name)

            let (a, b) = (fromReading.record, fromBlock.record)
            #expect(a.contentHash != nil && a.contentHash == b.contentHash, "\(name)")
            #expect(a.thumbHash != nil && a.thumbHash == b.thumbHash, "\(name)")
            #expect(try thumbnail(fromReading) != nil && thumbnail(fromReading) == thumbnail(fromBlock), "\(name)")
            #expect(a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight, "\(name)")
            #expect(a.creationDate == b.creationDate && a.timeZoneOffset == b.timeZoneOffset, "\(name)")
            #expect(a.location?.latitude == b.location?.latitude && a.location?.longitude == b.location?.longitude, "\(name)")
            #expect(a.cameraMake == b.cameraMake && a.cameraModel == b.cameraModel, "\(name)")
            #expect(a.uniformTypeIdentifier == b.uniformTypeIdentifier && a.originalFilename == name, "\(name)")
            #expect(fromReading.contentType == fromBlock.contentType, "\(name)")
            if original == camera { #expect(a.pixelWidth == 1200 && a.pixelHeight == 1600, "upright") }
        }
    }

    @Test func aReadingOfAFileThatChangedSinceIsNotUsed() throws {
        let url = try upload(try test.jpeg(width: 640, height: 480))
        ReadAhead.shared.schedule(fileAt: url, originalFilename: "first.jpg")
        ReadAhead.shared.waitUntilIdle()
        #expect(ReadAhead.shared.holdsReading(of: url))

        // Another image written over it: as large, so that only its times tell.
        let other = try test.jpeg(width: 480, height: 640)
        try Data(contentsOf: other).write(to: url)
        #expect(!ReadAhead.shared.holdsReading(of: url))
        let expectedHash = try ContentHash.ofFile(at: url)
        let asset = try add(url, named: "first.jpg")
        #expect(asset.record.contentHash == expectedHash)
        #expect(asset.pixelWidth == 480 && asset.pixelHeight == 640)
    }

    @Test func aReadingIsUsedOnlyUnderTheNameItWasReadFor() throws {
        let url = try upload(try test.jpeg(width: 320, height: 240))
        ReadAhead.shared.schedule(fileAt: url, originalFilename: "Screenshot 2026-01-01.png")
        ReadAhead.shared.waitUntilIdle()
        #expect(ReadAhead.shared.holdsReading(of: url))
        let asset = try add(url, named: "IMG_0003.JPG")
        #expect(asset.record.originalFilename == "IMG_0003.JPG")
        #expect(!asset.mediaSubtypes.contains(.photoScreenshot))
    }

    @Test func onlyStillImagesAreReadAndTheReadingsHeldAreBounded() throws {
        let readAhead = ReadAhead(maximumBytes: 3 * 1024 + 1)
        let notAnImage = test.files.appendingPathComponent("notes.part")
        try Data("not a photo".utf8).write(to: notAnImage)
        readAhead.schedule(fileAt: notAnImage, originalFilename: "notes.jpg")
        let raw = try upload(try test.jpeg(width: 64, height: 48))
        readAhead.schedule(fileAt: raw, originalFilename: "IMG_0004.CR2")
        readAhead.waitUntilIdle()
        #expect(!readAhead.holdsReading(of: notAnImage) && !readAhead.holdsReading(of: raw))

        // Each reading costs more than a kilobyte: three at most fit.
        let photos = try (0..<8).map { _ in try upload(try test.jpeg(width: 64, height: 48)) }
        for photo in photos { readAhead.schedule(fileAt: photo, originalFilename: "IMG.JPG") }
        readAhead.waitUntilIdle()
        let held = photos.filter(readAhead.holdsReading(of:))
        #expect((1...3).contains(held.count))
        #expect(held.allSatisfy { photos.suffix(3).contains($0) }, "the newest are kept")
    }

    /// `importFiles` reads each file once, before its blocks, and hands
    /// what it read to them (`FileReading.Probed`). A block uses that only
    /// while the file is as it was: a probe that says something else than
    /// the file shows it was used, and a file changed since is read again.
    @Test func anImportsProbeIsUsedOnlyWhileTheFileIsUnchanged() throws {
        let video = try test.video(seconds: 1, width: 64, height: 48)
        let probe = try MediaProbe.probe(fileAt: video, verifiesDecoding: false)
        var told = probe
        told.cameraModel = "what the probe said"
        let identity = try #require(FileStatus(atPath: video.path)?.identity)
        let probed = FileReading.Probed(identity: identity, metadata: told, contentHash: try ContentHash.ofFile(at: video))
        func add() throws -> PHAsset {
            var identifier = ""
            try test.library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .video, fileURL: video, probed: probed)
                identifier = request.placeholderForCreatedAsset!.localIdentifier
            }
            return test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
        }
        #expect(try add().record.cameraModel == "what the probe said")

        // Touched: the same bytes, but no longer the file that was probed.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: video.path)
        #expect(try add().record.cameraModel == probe.cameraModel)
    }
}
