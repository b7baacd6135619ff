import Foundation
import PhotosMedia
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

    @Test func playbackStylesMapBothWays() {
        for style in [PHAsset.PlaybackStyle.unsupported, .image, .imageAnimated, .livePhoto, .video, .videoLooping] {
            #expect(PHAsset.PlaybackStyle(AssetPlaybackStyle(style)) == style && AssetPlaybackStyle(style).rawValue == style.rawValue)
        }
        #expect(AssetPlaybackStyle.allCases.count == 6)
    }

    @Test func playbackVariationsMapBothWays() {
        for variation in [PHAsset.PlaybackVariation.none, .autoloop, .mirror, .longExposure] {
            #expect(PHAsset.PlaybackVariation(AssetPlaybackVariation(variation)) == variation)
            #expect(AssetPlaybackVariation(variation).rawValue == variation.rawValue)
        }
        #expect(AssetPlaybackVariation.allCases.count == 4)
    }

    /// The engine's smart albums are PhotoKit's subtypes of the same name
    /// (`smartAlbum` and the engine's case), with the same raw value.
    @Test func smartAlbumSubtypesAreTheSubtypesOfTheirNames() {
        for subtype in SmartAlbumSubtype.allCases {
            let photoKit = PHAssetCollectionSubtype(subtype)
            let name = String(describing: subtype)
            #expect(String(describing: photoKit).lowercased() == "smartalbum" + name.lowercased(), "\(subtype)")
            #expect(photoKit.rawValue == subtype.rawValue && SmartAlbumSubtype(photoKit) == subtype)
        }
        #expect(SmartAlbumSubtype(PHAssetCollectionSubtype.albumRegular) == nil)
        #expect(Set(SmartAlbumSubtype.libraryAlbums.map(\.subtype)) == Set(SmartAlbumSubtype.allCases), "every library has every smart album")
    }

    /// The traits a file shows become the subtypes of their names.
    @Test func captureTraitsBecomeTheirSubtypes() {
        let expected: [MediaMetadata.CaptureTrait: PHAssetMediaSubtype] = [
            .hdr: .photoHDR, .panorama: .photoPanorama, .depthEffect: .photoDepthEffect, .screenshot: .photoScreenshot,
            .animation: .photoAnimation, .highFrameRate: .videoHighFrameRate, .timelapse: .videoTimelapse,
            .screenRecording: .videoScreenRecording, .spatial: .spatialMedia,
        ]
        for trait in MediaMetadata.CaptureTrait.allCases {
            #expect(PHAssetMediaSubtype([trait]) == expected[trait], "\(trait)")
        }
        #expect(PHAssetMediaSubtype(Set(MediaMetadata.CaptureTrait.allCases)).rawValue.nonzeroBitCount == 9)
    }

    /// The option sets' bits are written once, in the engine, and are Apple's.
    @Test func optionSetBitsAreApples() {
        let subtypes: [(PHAssetMediaSubtype, UInt)] = [
            (.photoPanorama, 1), (.photoHDR, 2), (.photoScreenshot, 4), (.photoLive, 8), (.photoDepthEffect, 16),
            (.spatialMedia, 1024), (.videoStreamed, 65_536), (.videoHighFrameRate, 131_072), (.videoTimelapse, 262_144),
            (.videoScreenRecording, 524_288), (.videoCinematic, 2_097_152),
        ]
        for (subtype, bits) in subtypes { #expect(subtype.rawValue == bits) }
        #expect(PHAssetBurstSelectionType.autoPick.rawValue == 1 && PHAssetBurstSelectionType.userPick.rawValue == 2)
    }
}
