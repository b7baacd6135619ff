import Foundation
import PhotosStore
import Testing
@testable import Photos

/// PhotoKit's enumerations and the engine's map onto each other case for
/// case, keeping PhotoKit's raw values (which the engine stores).
@Suite struct StoreTypeMappingTests {
    @Test func mediaTypesMapBothWays() {
        for type in [PHAssetMediaType.unknown, .image, .video, .audio] {
            #expect(PHAssetMediaType(AssetMediaType(type)) == type)
            #expect(AssetMediaType(type).rawValue == type.rawValue)
        }
        #expect(AssetMediaType.allCases.count == 4)
    }

    @Test func resourceTypesMapBothWays() {
        for stored in ResourceType.allCases {
            #expect(PHAssetResourceType(stored).rawValue == stored.rawValue)
            #expect(ResourceType(PHAssetResourceType(stored)) == stored)
        }
    }

    @Test func collectionTypesAreDistinctAndMapFromPhotoKit() {
        #expect(Set(CollectionType.allCases).count == 5)
        #expect(Set(CollectionType.allCases.map { [$0.kind.rawValue, $0.storedType] }).count == 5, "no two types share a stored pair")
        for type in [PHAssetCollectionType.album, .smartAlbum, .moment] {
            #expect(PHAssetCollectionType(CollectionType(type)) == type)
            #expect(CollectionType(type).kind == .assetCollection && CollectionType(type).storedType == type.rawValue)
        }
        for type in [PHCollectionListType.momentList, .folder] {
            let stored = CollectionType(type)
            #expect(stored.flatMap { PHCollectionListType($0) } == type)
            #expect(stored?.kind == .collectionList && stored?.storedType == type.rawValue)
        }
        #expect(CollectionType(PHCollectionListType.smartFolder) == nil)
        #expect(PHAssetCollectionType(CollectionType.folder) == nil && PHCollectionListType(CollectionType.album) == nil)
        for type in CollectionType.allCases {
            #expect(CollectionType(kind: type.kind, storedType: type.storedType) == type)
        }
    }

    @Test func accessLevelsAndSourceTypesMapBothWays() {
        for level in [PHAccessLevel.addOnly, .readWrite] {
            #expect(PHAccessLevel(AccessLevel(level)) == level && AccessLevel(level).rawValue == level.rawValue)
        }
        let all: PHAssetSourceType = [.typeUserLibrary, .typeCloudShared, .typeiTunesSynced]
        #expect(AssetSourceTypes(all) == .all && PHAssetSourceType(AssetSourceTypes.all) == all)
        #expect(AssetSourceTypes(.typeCloudShared) == .cloudShared)
    }
}
