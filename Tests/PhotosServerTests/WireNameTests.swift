import Foundation
import Photos
import Testing
import Yams

@testable import PhotosServer

/// PhotoKit's enumerations travel by name: every name is unique within its
/// type, names the value it came from, and is the one the OpenAPI document lists.
@Suite struct WireNameTests {
    /// Every case of an Int-backed PhotoKit enumeration, found by trying the raw values Apple uses.
    static func cases<T: RawRepresentable & PhotoKitNamed>(_ type: T.Type) -> [T] where T.RawValue == Int {
        (Array(0...1_000) + [1_000_000_201, Int.max]).compactMap(T.init(rawValue:))
    }

    static func documentedEnum(_ schema: String) throws -> [String] {
        let document = try #require(try Yams.load(yaml: OpenAPIDocument.bundled().yaml) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return try #require((schemas[schema] as? [String: Any])?["enum"] as? [String])
    }

    @Test func enumerationsGoByTheirCaseNamesAndTheDocumentListsThem() throws {
        let mediaTypes = Self.cases(PHAssetMediaType.self).map(\.name)
        #expect(mediaTypes == ["unknown", "image", "video", "audio"])
        #expect(try Self.documentedEnum("MediaType") == mediaTypes)
        #expect(try Self.documentedEnum("PlaybackStyle") == Self.cases(PHAsset.PlaybackStyle.self).map(\.name))
        #expect(try Self.documentedEnum("PlaybackVariation") == Self.cases(PHAsset.PlaybackVariation.self).map(\.name))
        #expect(try Self.documentedEnum("ResourceType") == Self.cases(PHAssetResourceType.self).map(\.name))
        let collectionTypes = Self.cases(PHAssetCollectionType.self).map(\.name) + Self.cases(PHCollectionListType.self).map(\.name)
        #expect(try Self.documentedEnum("CollectionType") == collectionTypes + ["unknown"])
        let subtypes = Self.cases(PHAssetCollectionSubtype.self).map(\.name) + Self.cases(PHCollectionListSubtype.self).map(\.name)
        #expect(Set(try Self.documentedEnum("CollectionSubtype")) == Set(subtypes + ["unknown"]))
        #expect(PHAssetCollectionSubtype.smartAlbumRecentlyDeleted.name == "recentlyDeleted")
        #expect(PHAssetCollectionSubtype.albumRegular.name == "regular" && PHAssetCollectionSubtype.smartAlbumRAW.name == "RAW")
        for names in [
            mediaTypes, Self.cases(PHAsset.PlaybackStyle.self).map(\.name), Self.cases(PHAsset.PlaybackVariation.self).map(\.name),
            Self.cases(PHAssetResourceType.self).map(\.name),
            Self.cases(PHAssetCollectionSubtype.self).map(\.name),
        ] {
            #expect(Set(names).count == names.count, "\(names)")
        }
    }

    @Test func optionSetsGoByTheNamesOfTheirOptionsAndComeBack() throws {
        #expect(try Self.documentedEnum("MediaSubtype") == PHAssetMediaSubtype.named.map(\.name))
        #expect(try Self.documentedEnum("SourceType") == PHAssetSourceType.named.map(\.name))
        #expect(try Self.documentedEnum("BurstSelectionType") == PHAssetBurstSelectionType.named.map(\.name))
        // Every option of each set has a name: the named options' bits are exactly the set's known bits.
        #expect(PHAssetMediaSubtype.named.map(\.option.rawValue) == PHAssetMediaSubtype.named.map(\.option.rawValue).sorted())
        let live: PHAssetMediaSubtype = [.photoLive, .photoHDR]
        #expect(live.names == ["photoHDR", "photoLive"])
        #expect(PHAssetMediaSubtype(names: live.names) == live)
        #expect(PHAssetMediaSubtype(names: ["photoLive", "nonsense"]) == nil)
        #expect(PHAssetSourceType.typeUserLibrary.names == ["userLibrary"])
    }
}
