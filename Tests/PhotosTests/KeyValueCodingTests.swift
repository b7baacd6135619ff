import Foundation
import PhotosMedia
import PhotosTestSupport
import Testing

@testable import Photos

/// Reading PhotoKit objects by key, as real clients do: the documented
/// properties by their Objective-C names, and the private keys they rely on.
@Suite struct KeyValueCodingTests {
    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func assetsAnswerTheirPropertiesAndTheKeysClientsRead() throws {
        let test = try TestLibrary()
        let taken = Date(timeIntervalSince1970: 1_700_000_000)
        let asset = try test.importAsset(try test.jpeg("IMG_0042.JPG", width: 60, height: 40, taken: taken))
        // Written as photo_manager, TZImagePicker, immich and expo write them.
        #expect(asset.value(forKey: "filename") as? String == "IMG_0042.JPG")
        #expect(asset.value(forKey: "filename") as? NSString == "IMG_0042.JPG")
        #expect(asset.value(forKey: "uniformTypeIdentifier") as? String == "public.jpeg")
        #expect(asset.value(forKey: "creationDate") as? Date == taken)
        #expect(asset.value(forKey: "mediaType") as? Int == PHAssetMediaType.image.rawValue)
        #expect(asset.value(forKey: "pixelWidth") as? Int == 60 && asset.value(forKey: "pixelHeight") as? NSNumber == 40)
        #expect(asset.value(forKey: "duration") as? Double == 0)
        #expect(asset.value(forKey: "localIdentifier") as? String == asset.localIdentifier)
        for key in ["favorite", "isFavorite", "hidden", "isHidden", "hasAdjustments", "representsBurst", "isCloudPlaceholder"] {
            #expect(asset.value(forKey: key) as? Bool == false, "\(key)")
        }
        #expect(asset.value(forKey: "adjustmentTimestamp") == nil, "nil until the asset is edited")
        #expect(asset.value(forKey: "burstIdentifier") == nil && asset.value(forKey: "location") == nil)
        #expect((asset.value(forKey: "directory") as? String)?.hasPrefix("originals/") == true)
        #expect((asset.value(forKey: "ALAssetURL") as? URL)?.absoluteString.hasPrefix("assets-library://asset/asset.JPG?id=") == true)
        #expect(asset.responds(to: NSSelectorFromString("filename")) && asset.responds(to: "isFavorite"))
        #expect(!asset.responds(to: NSSelectorFromString("noSuchKey")) && !asset.responds(to: nil))
    }

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func resourcesAnswerSizeAvailabilityAndVersion() throws {
        let test = try TestLibrary()
        let file = try test.jpeg(width: 64, height: 48)
        let asset = try test.importAsset(file)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(resource.value(forKey: "fileSize") as? Int == bytes)
        #expect(resource.value(forKey: "fileSize") as? Int64 == Int64(bytes))
        #expect(resource.value(forKey: "fileSize") as? UInt64 == UInt64(bytes))
        #expect(resource.value(forKey: "fileSize") as? CLong == CLong(bytes))
        #expect((resource.value(forKey: "fileSize") as? NSNumber)?.int64Value == Int64(bytes))
        #expect(resource.value(forKey: "locallyAvailable") as? Bool == true)
        #expect(resource.value(forKey: "isCurrent") as? Bool == true)
        #expect(resource.value(forKey: "originalFilename") as? String == file.lastPathComponent)
        #expect(resource.value(forKey: "type") as? Int == PHAssetResourceType.photo.rawValue)
        #expect(resource.value(forKey: "pixelWidth") as? Int == 64)
        #expect((resource.value(forKey: "privateFileURL") as? URL).map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(resource.responds(to: NSSelectorFromString("fileSize")) && !resource.responds(to: "nope"))

        // After an edit, the rendering is the current version and the original is not.
        let output = PHContentEditingOutput(contentEditingInput: try ContentEditingTests.input(for: asset))
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "org.example.filter", formatVersion: "1", data: Data("x".utf8))
        try ImageCodec.encode(try ImageCodec.decode(data: try Data(contentsOf: file)), as: .jpeg(quality: 90)).write(to: output.renderedContentURL)
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil)[0] }
        let current = PHAssetResource.assetResources(for: edited).filter { $0.value(forKey: "isCurrent") as? Bool == true }.map(\.type)
        #expect(Set(current) == [.fullSizePhoto, .adjustmentData], "\(current)")
        #expect(edited.value(forKey: "adjustmentTimestamp") as? Date != nil)
        #expect(edited.value(forKey: "adjustmentFormatIdentifier") as? String == "org.example.filter")

        try FileManager.default.removeItem(at: try #require(resource.value(forKey: "privateFileURL") as? URL))
        #expect(resource.value(forKey: "locallyAvailable") as? Bool == false && resource.value(forKey: "privateFileURL") == nil)
    }

    @Test func collectionsAnswerTheirProperties() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Summer")
            album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
            PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
                .addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
        }
        let album = try #require(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.firstObject)
        #expect(album.value(forKey: "title") as? String == "Summer" && album.value(forKey: "localizedTitle") as? String == "Summer")
        #expect(album.value(forKey: "estimatedAssetCount") as? Int == 2)
        #expect(album.value(forKey: "assetCollectionType") as? Int == PHAssetCollectionType.album.rawValue)
        #expect(album.value(forKey: "startDate") as? Date != nil && album.value(forKey: "canContainAssets") as? Bool == true)
        let folder = try #require(test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil) }.firstObject)
        #expect(folder.value(forKey: "localizedTitle") as? String == "Trips")
        #expect(folder.value(forKey: "collectionListType") as? Int == PHCollectionListType.folder.rawValue)
        #expect(folder.value(forKey: "canContainCollections") as? Bool == true)
        // Arrays of objects answer by key too, as pickers ask them for identifiers.
        let identifiers = [album, folder].map { $0.value(forKey: "localIdentifier") as? String }
        #expect(identifiers == [album.localIdentifier, folder.localIdentifier])
    }

    @Test func anUnknownKeyTrapsAsApplesRaises() async throws {
        // The child processes trap, so their libraries are made in folders this process removes.
        let scratch = try ScratchDirectory("photos-exit-test")
        let asset = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [folder = scratch.url.appendingPathComponent("asset").path as String] in
            let test = try TestLibrary(in: URL(fileURLWithPath: folder))
            let asset = try test.importAsset(try test.jpeg())
            _ = asset.value(forKey: "notAKeyOfPHAsset")
        }
        let resource = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [folder = scratch.url.appendingPathComponent("resource").path as String] in
            let test = try TestLibrary(in: URL(fileURLWithPath: folder))
            let asset = try test.importAsset(try test.jpeg())
            _ = PHAssetResource.assetResources(for: asset)[0].value(forKey: "notAKey")
        }
        // The trap, not a failure on the way to it.
        let (assetTrap, resourceTrap) = (
            String(decoding: asset?.standardErrorContent ?? [], as: UTF8.self),
            String(decoding: resource?.standardErrorContent ?? [], as: UTF8.self)
        )
        #expect(assetTrap.contains("not key value coding-compliant for the key notAKeyOfPHAsset"))
        #expect(resourceTrap.contains("not key value coding-compliant for the key notAKey."))
    }
}
