import Foundation
import Testing

@testable import Photos

@Suite struct AssetCreationTests {
    @Test func createsAnAssetWithEXIFMetadataFromAnImageFile() throws {
        let test = try TestLibrary()
        let taken = Date(timeIntervalSince1970: 1_563_114_605)  // 2019-07-14 14:30:05 UTC
        let url = try test.jpeg(
            "IMG_0001.JPG", width: 64, height: 40, taken: taken, utcOffset: 7200,
            latitude: 46.5586, longitude: 7.8346, orientation: 6, make: "Apple", model: "iPhone 12")
        let identifiers = try test.importImages([url])

        let result = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) }
        #expect(result.count == 1)
        let asset = try #require(result.firstObject)
        #expect(asset.localIdentifier == identifiers[0])
        #expect(asset.localIdentifier.hasSuffix("/L0/001"))
        #expect(asset.mediaType == .image)
        #expect(asset.pixelWidth == 40 && asset.pixelHeight == 64, "orientation 6 swaps the displayed axes")
        #expect(asset.creationDate == taken)
        let location = try #require(asset.location)
        #expect(abs(location.coordinate.latitude - 46.5586) < 1e-4)
        #expect(abs(location.coordinate.longitude - 7.8346) < 1e-4)
        #expect(asset.sourceType == .typeUserLibrary)
        #expect(asset.contentType == .jpeg && asset.contentType.conforms(to: .image) && !asset.contentType.conforms(to: .movie))
        #expect(UTType(filenameExtension: "HEIC") == .heic && UTType.heic.preferredMIMEType == "image/heic")
        #expect(UTType("org.example.unknown")?.conforms(to: .data) == true)
        #expect(asset.playbackStyle == .image)
        #expect(!asset.isFavorite && !asset.isHidden && !asset.hasAdjustments)
        #expect(asset.canPerform(.delete) && asset.canPerform(.properties))
        #expect(test.originalFiles.count == 1)
        #expect(FileManager.default.fileExists(atPath: url.path), "a copy leaves the source in place")
    }

    @Test func requestPropertiesOverrideWhatTheFileSays() throws {
        let test = try TestLibrary()
        let url = try test.jpeg(taken: Date(timeIntervalSince1970: 1_000_000_000), latitude: 1, longitude: 2)
        let chosenDate = Date(timeIntervalSince1970: 1_234_567_890)
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!
            request.creationDate = chosenDate
            request.location = CLLocation(latitude: -33.8568, longitude: 151.2153)
            request.isFavorite = true
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = try #require(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }.firstObject)
        #expect(asset.creationDate == chosenDate)
        #expect(asset.location?.coordinate.latitude == -33.8568)
        #expect(asset.isFavorite)
    }

    /// A file whose extension names no format (an upload's `ID.part`) is
    /// stored under its original name's extension, else the one its bytes
    /// say, so that backup tools and file managers know it; a known
    /// extension is kept.
    @Test func aStoredFileHasTheExtensionOfWhatItIs() throws {
        let test = try TestLibrary()
        let jpeg = try Data(contentsOf: try test.jpeg())
        let named = try test.file("0123.part", jpeg)
        let unnamed = try test.file("4567.part", jpeg)
        let known = try test.jpeg("IMG_1.JPEG")
        var identifiers: [String] = []
        try test.library.performChangesAndWait {
            for (url, name) in [(named, "Holiday.JPG" as String?), (unnamed, nil), (known, nil)] {
                let creation = PHAssetCreationRequest.forAsset()
                let options = PHAssetResourceCreationOptions()
                options.originalFilename = name
                creation.addResource(with: .photo, fileURL: url, options: options)
                identifiers.append(creation.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let extensions = try identifiers.map { identifier in
            let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
            return try PHAssetResource.assetResources(for: asset)[0].fileURL().pathExtension
        }
        #expect(extensions == ["jpg", "jpg", "jpeg"])
    }

    @Test func aBadFileFailsTheWholeBlockAndStoresNothing() throws {
        let test = try TestLibrary()
        let good = try (0..<3).map { _ in try test.jpeg() }
        let bad = try test.file("broken.jpg", Data("not a jpeg at all".utf8))
        #expect {
            try test.library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
                for url in good + [bad] {
                    _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)
                }
            }
        } throws: { error in
            (error as? PHPhotosError)?.code == .invalidResource
        }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 0)
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 0)
        #expect(test.originalFiles.isEmpty)
        #expect(test.files(under: "staging").isEmpty)
    }

    @Test func aMissingFileFailsWithInvalidResource() throws {
        let test = try TestLibrary()
        #expect(throws: PHPhotosError.self) {
            try test.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(fileURLWithPath: "/nonexistent/x.jpg"))
            }
        }
        do {
            try test.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(fileURLWithPath: "/nonexistent/x.jpg"))
            }
        } catch PHPhotosError.invalidResource {
            // expected
        }
    }

    @Test func creationRequestWithResourcesMovesTheFileAfterCommit() throws {
        let test = try TestLibrary()
        let url = try test.jpeg()
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true
            options.originalFilename = "Holiday.jpg"
            request.addResource(with: .photo, fileURL: url, options: options)
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }.count == 1)
        #expect(test.originalFiles.count == 1)
    }

    @Test func dataResourcesAndImagesInMemoryBecomeAssets() throws {
        let test = try TestLibrary()
        let data = try Data(contentsOf: try test.jpeg(width: 30, height: 20))
        let image = try #require(UIImage(rgbaPixels: [UInt8](repeating: 128, count: 4 * 5 * 7), width: 5, height: 7))
        var identifiers: [String] = []
        try test.library.performChangesAndWait {
            let fromData = PHAssetCreationRequest.forAsset()
            fromData.addResource(with: .photo, data: data, options: nil)
            let fromImage = PHAssetChangeRequest.creationRequestForAsset(from: image)
            identifiers = [fromData, fromImage].map { $0.placeholderForCreatedAsset!.localIdentifier }
        }
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) }
        #expect(assets.count == 2)
        #expect(assets[0].pixelWidth == 30 && assets[1].pixelWidth == 5 && assets[1].pixelHeight == 7)
    }

    @Test func aCreationRequestNeedsAPhotoOrVideo() throws {
        let test = try TestLibrary()
        #expect(throws: PHPhotosError.self) {
            try test.library.performChangesAndWait {
                _ = PHAssetCreationRequest.forAsset()
            }
        }
        #expect(PHAssetCreationRequest.supportsAssetResourceTypes([1, 9]))
        #expect(!PHAssetCreationRequest.supportsAssetResourceTypes([7]))
    }
}
