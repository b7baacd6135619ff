import Foundation
import OpenAPIRuntime
import Photos

/// An asset with every PhotoKit property, as `/v1/assets` returns it and
/// `photos ls --json` prints it: the one JSON shape of an asset, which the
/// document's `Asset` schema defines and the generator types
/// (`Components.Schemas.Asset`); this only fills it from a `PHAsset`.
/// PhotoKit's enumerations go by name (``PhotoKitNamed``), never by Apple's integers.
/// `id` is the UUID that names it in URLs; `localIdentifier` is PhotoKit's.
package struct AssetRepresentation: Encodable, Sendable {
    /// A location as the API writes and reads it.
    typealias Location = Components.Schemas.Asset.LocationPayload

    /// The asset as the document's schema has it.
    let schema: Components.Schemas.Asset

    /// The representation of `asset`. Cost: none beyond the fetched asset
    /// when its fetch prefetched its extended metadata
    /// (`prefetchAssetExtendedMetadata`); otherwise one query for its caption and keywords.
    package init(_ asset: PHAsset) {
        let described = asset.extendedMetadata
        schema = Components.Schemas.Asset(
            id: ObjectID.urlForm(asset.localIdentifier),
            localIdentifier: asset.localIdentifier,
            mediaType: .init(named: asset.mediaType.name, or: .unknown),
            mediaSubtypes: asset.mediaSubtypes.names.compactMap(Components.Schemas.MediaSubtype.init(rawValue:)),
            playbackStyle: .init(named: asset.playbackStyle.name, or: .unsupported),
            playbackVariation: .init(named: asset.playbackVariation.name, or: .none),
            contentType: asset.contentType.identifier,
            pixelWidth: asset.pixelWidth,
            pixelHeight: asset.pixelHeight,
            creationDate: asset.creationDate,
            creationTimeZoneOffset: asset.creationTimeZoneOffset,
            modificationDate: asset.modificationDate,
            addedDate: asset.addedDate,
            // A location a client stored with coordinates off the globe (or not
            // numbers at all) is sent as none: JSON cannot hold infinities.
            location: asset.location.flatMap {
                guard (-90...90).contains($0.coordinate.latitude), (-180...180).contains($0.coordinate.longitude) else { return nil }
                return Location(
                    latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                    altitude: $0.altitude == 0 || !$0.altitude.isFinite ? nil : $0.altitude)
            },
            duration: asset.duration,
            isFavorite: asset.isFavorite,
            isHidden: asset.isHidden,
            sourceType: .init(named: asset.sourceType.names.first ?? "", or: .userLibrary),
            burstIdentifier: asset.burstIdentifier,
            representsBurst: asset.representsBurst,
            burstSelectionTypes: asset.burstSelectionTypes.names.compactMap(Components.Schemas.BurstSelectionType.init(rawValue:)),
            hasAdjustments: asset.hasAdjustments,
            adjustmentFormatIdentifier: asset.adjustmentFormatIdentifier,
            contentVersion: asset.contentVersion,
            cameraMake: asset.cameraMake,
            cameraModel: asset.cameraModel,
            thumbHash: asset.thumbHash.map { Base64EncodedData(Array($0)) },
            originalFilename: asset.originalFilename,
            rating: asset.rating.rawValue,
            caption: described.caption,
            keywords: described.keywords)
    }

    package func encode(to encoder: any Encoder) throws {
        try schema.encode(to: encoder)
    }
}

/// A stored file of an asset, as `/v1/assets/{id}/resources` lists it and
/// `photos show --json` prints it: the document's `Resource` schema.
package struct ResourceRepresentation: Encodable, Sendable {
    /// The resource as the document's schema has it.
    let schema: Components.Schemas.Resource

    /// The representation of `resource`.
    package init(_ resource: PHAssetResource) {
        schema = Components.Schemas.Resource(
            _type: .init(named: resource.type.name, or: .photo),
            originalFilename: resource.originalFilename,
            uniformTypeIdentifier: resource.uniformTypeIdentifier,
            pixelWidth: resource.pixelWidth,
            pixelHeight: resource.pixelHeight)
    }

    package func encode(to encoder: any Encoder) throws {
        try schema.encode(to: encoder)
    }
}

extension RawRepresentable where RawValue == String {
    /// The document's enumeration value named `name`, or `fallback` for a
    /// name it lacks. `DocumentRoutesTests` holds every PhotoKit name the
    /// server sends to the document's enumerations, so the fallback is
    /// never taken; it keeps a missing name from stopping a response.
    init(named name: String, or fallback: Self) {
        self = Self(rawValue: name) ?? fallback
    }
}

/// Object ids in URLs: a local identifier's UUID (`UUID/L0/001` → `UUID`),
/// checked for shape before it reaches a fetch, so a path trick is a 404.
enum ObjectID {
    static func urlForm(_ localIdentifier: String) -> String {
        String(localIdentifier.prefix { $0 != "/" })
    }

    /// The local identifier of the `type` object an id in a URL names; nil when the id is not a UUID.
    static func localIdentifier(_ id: String, of type: PHObjectType) -> String? {
        guard id.utf8.count == 36 else { return nil }
        return type.localIdentifier(id)
    }
}
