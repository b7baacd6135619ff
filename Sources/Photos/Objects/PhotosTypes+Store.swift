import Foundation
import PhotosMedia
import PhotosStore

// PhotoKit's enumerations and the engine's, converted by initializers. The
// engine stores PhotoKit's raw values, so each conversion keeps the raw
// value; `StoreTypeMappingTests` checks every case both ways.

/// The case of `Target` with `source`'s raw value; `fallback` when it has none.
private func sameRawValue<Source: RawRepresentable, Target: RawRepresentable>(_ source: Source, or fallback: Target) -> Target
where Source.RawValue == Target.RawValue {
    Target(rawValue: source.rawValue) ?? fallback
}

extension PHAssetMediaType {
    init(_ stored: AssetMediaType) { self = sameRawValue(stored, or: .unknown) }
}

extension AssetMediaType {
    init(_ type: PHAssetMediaType) { self = sameRawValue(type, or: .unknown) }
}

extension PHAssetResourceType {
    init(_ stored: ResourceType) { self = sameRawValue(stored, or: .photo) }
}

extension ResourceType {
    init(_ type: PHAssetResourceType) { self = sameRawValue(type, or: .photo) }
}

extension PHAsset.Rating {
    init(_ stored: AssetRating) { self = sameRawValue(stored, or: .unset) }
}

extension AssetRating {
    init(_ rating: PHAsset.Rating) { self = sameRawValue(rating, or: .unset) }
}

extension PHAsset.OriginalResourceChoice {
    init(_ stored: AssetOriginalResourceChoice) { self = sameRawValue(stored, or: .compressed) }
}

extension AssetOriginalResourceChoice {
    init(_ choice: PHAsset.OriginalResourceChoice) { self = sameRawValue(choice, or: .compressed) }
}

extension PHAccessLevel {
    init(_ stored: AccessLevel) {
        self = stored == .addOnly ? .addOnly : .readWrite
    }
}

extension AccessLevel {
    init(_ level: PHAccessLevel) {
        self = level == .addOnly ? .addOnly : .readWrite
    }
}

extension PHAssetSourceType {
    init(_ stored: AssetSourceTypes) {
        self.init(rawValue: UInt(stored.rawValue))
    }
}

extension AssetSourceTypes {
    init(_ types: PHAssetSourceType) {
        self.init(rawValue: Int(types.rawValue) & AssetSourceTypes.all.rawValue)
    }
}

extension PHAssetCollectionType {
    /// The PhotoKit type of an engine collection type that is an asset collection; nil for lists.
    init?(_ stored: CollectionType) {
        switch stored {
        case .album: self = .album
        case .smartAlbum: self = .smartAlbum
        case .moment: self = .moment
        case .momentList, .folder: return nil
        }
    }
}

extension PHCollectionListType {
    /// The PhotoKit type of an engine collection type that is a list; nil for asset collections.
    init?(_ stored: CollectionType) {
        switch stored {
        case .momentList: self = .momentList
        case .folder: self = .folder
        case .album, .smartAlbum, .moment: return nil
        }
    }
}

extension CollectionType {
    init(_ type: PHAssetCollectionType) {
        switch type {
        case .album: self = .album
        case .smartAlbum: self = .smartAlbum
        case .moment: self = .moment
        }
    }

    /// The engine's type of a collection list type; nil for smart folders, which no library holds.
    init?(_ type: PHCollectionListType) {
        switch type {
        case .momentList: self = .momentList
        case .folder: self = .folder
        case .smartFolder: return nil
        }
    }
}

extension PHAsset.PlaybackStyle {
    init(_ stored: AssetPlaybackStyle) { self = sameRawValue(stored, or: .unsupported) }
}

extension AssetPlaybackStyle {
    init(_ style: PHAsset.PlaybackStyle) { self = sameRawValue(style, or: .unsupported) }
}

extension PHAsset.PlaybackVariation {
    init(_ stored: AssetPlaybackVariation) { self = sameRawValue(stored, or: .none) }
}

extension AssetPlaybackVariation {
    init(_ variation: PHAsset.PlaybackVariation) { self = sameRawValue(variation, or: .none) }

    /// The variation of the Live Photo effect a file names.
    init(_ effect: LivePhotoEffect) {
        switch effect {
        case .loop: self = .autoloop
        case .bounce: self = .mirror
        case .longExposure: self = .longExposure
        }
    }
}

extension PHAssetMediaSubtype {
    init(_ stored: AssetMediaSubtypes) {
        self.init(rawValue: UInt(stored.rawValue))
    }
}

extension AssetMediaSubtypes {
    init(_ subtypes: PHAssetMediaSubtype) {
        self.init(rawValue: Int(subtypes.rawValue))
    }
}

extension PHAssetCollectionSubtype {
    init(_ stored: SmartAlbumSubtype) { self = sameRawValue(stored, or: .any) }
}

extension SmartAlbumSubtype {
    /// The smart album a PhotoKit subtype names; nil for the others.
    init?(_ subtype: PHAssetCollectionSubtype) { self.init(rawValue: subtype.rawValue) }
}

extension PHAssetMediaSubtype {
    /// The subtypes the traits a file shows stand for.
    init(_ traits: Set<MediaMetadata.CaptureTrait>) {
        self = traits.reduce(into: []) { subtypes, trait in
            switch trait {
            case .hdr: subtypes.insert(.photoHDR)
            case .panorama: subtypes.insert(.photoPanorama)
            case .depthEffect: subtypes.insert(.photoDepthEffect)
            case .screenshot: subtypes.insert(.photoScreenshot)
            case .animation: subtypes.insert(.photoAnimation)
            case .screenRecording: subtypes.insert(.videoScreenRecording)
            case .spatial: subtypes.insert(.spatialMedia)
            case .highFrameRate: subtypes.insert(.videoHighFrameRate)
            case .timelapse: subtypes.insert(.videoTimelapse)
            }
        }
    }
}
