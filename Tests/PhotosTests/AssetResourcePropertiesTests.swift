import Foundation
import Testing

@testable import Photos

/// iOS 27's `PHAssetResource.filename` and `dataSize`, through the public API.
@Suite struct AssetResourcePropertiesTests {
    @Test func aResourceNamesItsFileAndKnowsItsSize() throws {
        let test = try TestLibrary()
        let url = try test.jpeg("IMG_0042.JPG", taken: Date(timeIntervalSince1970: 1_600_000_000))
        let identifier = try test.importImages([url])[0]
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        #expect(resource.filename == "IMG_0042.JPG" && resource.originalFilename == "IMG_0042.JPG")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(resource.dataSize == bytes)
        #expect((resource.value(forKey: "dataSize") as? NSNumber)?.intValue == bytes)
        #expect(resource.value(forKey: "filename") as? String == "IMG_0042.JPG")
    }
}
