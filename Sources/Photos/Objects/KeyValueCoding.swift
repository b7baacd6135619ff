import Foundation
import PhotosStore

/// Key-value coding for PhotoKit's objects, which Linux's Foundation lacks:
/// `value(forKey:)` answers every documented property by its Objective-C
/// name (both spellings of a Boolean: `favorite` and `isFavorite`), and the
/// private keys real clients read (`filename`, `fileSize`,
/// `locallyAvailable`, `isCurrent`...). Numbers and Booleans come as
/// `NSNumber`, so that whichever type a client casts to (`as? Int64`,
/// `as? Bool`) it gets, as on Apple's platforms; dates as `Date`, text as
/// `String`, files as `URL`. An unknown key traps, as Apple's
/// `valueForUndefinedKey:` raises; `responds(to:)` tells a known key first.
enum KeyValueCoding {
    /// What a key names on an object.
    enum Lookup {
        /// The key is known; its value (nil included).
        case found(Any?)
        /// The object has no such key.
        case unknown

        /// The value found; for an unknown key, what `undefined` answers
        /// (`value(forUndefinedKey:)`, which traps).
        func value(orElse undefined: () -> Any?) -> Any? {
            switch self {
            case .found(let value): value
            case .unknown: undefined()
            }
        }

        /// Whether the key is known.
        var isFound: Bool {
            if case .found = self { return true }
            return false
        }
    }

    /// The value of `key` on `object`, for the classes PhotoKit defines.
    static func lookup(_ key: String, on object: PHObject) -> Lookup {
        switch object {
        case let asset as PHAsset: assetValue(key, asset)
        case let collection as PHAssetCollection: assetCollectionValue(key, collection)
        case let list as PHCollectionList: collectionListValue(key, list)
        case let collection as PHCollection: collectionValue(key, collection)
        default: objectValue(key, object)
        }
    }

    private static func number<T: BinaryInteger>(_ value: T) -> NSNumber {
        NSNumber(value: Int64(value))
    }

    private static func objectValue(_ key: String, _ object: PHObject) -> Lookup {
        key == "localIdentifier" ? .found(object.localIdentifier) : .unknown
    }

    private static func assetValue(_ key: String, _ asset: PHAsset) -> Lookup {
        let record = asset.record
        switch key {
        case "mediaType": return .found(number(asset.mediaType.rawValue))
        case "mediaSubtypes": return .found(NSNumber(value: UInt64(asset.mediaSubtypes.rawValue)))
        case "playbackStyle": return .found(number(asset.playbackStyle.rawValue))
        case "playbackVariation": return .found(number(asset.playbackVariation.rawValue))
        case "contentType": return .found(asset.contentType)
        case "pixelWidth": return .found(number(asset.pixelWidth))
        case "pixelHeight": return .found(number(asset.pixelHeight))
        case "creationDate": return .found(asset.creationDate)
        case "modificationDate": return .found(asset.modificationDate)
        case "addedDate": return .found(asset.addedDate)
        case "location": return .found(asset.location)
        case "duration": return .found(NSNumber(value: asset.duration))
        case "hidden", "isHidden": return .found(NSNumber(value: asset.isHidden))
        case "favorite", "isFavorite": return .found(NSNumber(value: asset.isFavorite))
        case "burstIdentifier": return .found(asset.burstIdentifier)
        case "burstSelectionTypes": return .found(NSNumber(value: UInt64(asset.burstSelectionTypes.rawValue)))
        case "representsBurst": return .found(NSNumber(value: asset.representsBurst))
        case "sourceType": return .found(NSNumber(value: UInt64(asset.sourceType.rawValue)))
        case "hasAdjustments": return .found(NSNumber(value: asset.hasAdjustments))
        case "adjustmentFormatIdentifier": return .found(asset.adjustmentFormatIdentifier)
        case "rating": return .found(number(asset.rating.rawValue))
        case "extendedMetadata": return .found(asset.extendedMetadata)
        // Private keys clients read.
        case "filename", "_filename", "originalFilename": return .found(record.originalFilename)
        case "uniformTypeIdentifier": return .found(record.uniformTypeIdentifier)
        case "directory", "_directory": return .found(primaryFile(of: asset).map { $0.deletingLastPathComponent().path.dropPrefix(asset.library?.url.path) })
        case "mainFileURL": return .found(primaryFile(of: asset))
        case "pathForOriginalFile": return .found(primaryFile(of: asset)?.path)
        // The time of the last edit; the library keeps none apart, so an edited asset's last change stands in for it.
        case "adjustmentTimestamp": return .found(asset.hasAdjustments ? asset.modificationDate : nil)
        case "isCloudPlaceholder": return .found(NSNumber(value: false))
        case "cloudAssetGUID", "locationData": return .found(nil)
        case "ALAssetURL":
            let ext = (record.originalFilename as NSString?)?.pathExtension.uppercased() ?? "JPG"
            return .found(URL(string: "assets-library://asset/asset.\(ext)?id=\(record.uuid)&ext=\(ext)"))
        // 3: the user's own library, as Apple's private asset source numbers it.
        case "assetSource": return .found(number(3))
        default: return objectValue(key, asset)
        }
    }

    private static func collectionValue(_ key: String, _ collection: PHCollection) -> Lookup {
        switch key {
        case "localizedTitle", "title": .found(collection.localizedTitle)
        case "canContainAssets": .found(NSNumber(value: collection.canContainAssets))
        case "canContainCollections": .found(NSNumber(value: collection.canContainCollections))
        default: objectValue(key, collection)
        }
    }

    private static func assetCollectionValue(_ key: String, _ collection: PHAssetCollection) -> Lookup {
        switch key {
        case "assetCollectionType": .found(number(collection.assetCollectionType.rawValue))
        case "assetCollectionSubtype": .found(number(collection.assetCollectionSubtype.rawValue))
        case "estimatedAssetCount": .found(number(collection.estimatedAssetCount))
        case "startDate": .found(collection.startDate)
        case "endDate": .found(collection.endDate)
        case "approximateLocation": .found(collection.approximateLocation)
        case "localizedLocationNames": .found(collection.localizedLocationNames)
        default: collectionValue(key, collection)
        }
    }

    private static func collectionListValue(_ key: String, _ list: PHCollectionList) -> Lookup {
        switch key {
        case "collectionListType": .found(number(list.collectionListType.rawValue))
        case "collectionListSubtype": .found(number(list.collectionListSubtype.rawValue))
        case "startDate": .found(list.startDate)
        case "endDate": .found(list.endDate)
        case "localizedLocationNames": .found(list.localizedLocationNames)
        default: collectionValue(key, list)
        }
    }

    /// The file of an asset's primary resource, when it is there.
    private static func primaryFile(of asset: PHAsset) -> URL? {
        let resources = PHAssetResource.assetResources(for: asset)
        let primary = resources.first { [.photo, .video].contains($0.type) } ?? resources.first
        return try? primary?.storedFile()
    }

    /// The value of `key` on a resource.
    static func lookup(_ key: String, on resource: PHAssetResource) -> Lookup {
        switch key {
        case "type": return .found(number(resource.type.rawValue))
        case "assetLocalIdentifier": return .found(resource.assetLocalIdentifier)
        case "originalFilename": return .found(resource.originalFilename)
        case "filename": return .found(resource.filename)
        case "dataSize": return .found(resource.dataSize.map { NSNumber(value: $0) })
        case "uniformTypeIdentifier": return .found(resource.uniformTypeIdentifier)
        case "contentType": return .found(resource.contentType)
        case "pixelWidth": return .found(number(resource.pixelWidth))
        case "pixelHeight": return .found(number(resource.pixelHeight))
        // Private keys clients read.
        case "fileSize": return .found(NSNumber(value: resource.record.fileSize))
        case "locallyAvailable", "isLocallyAvailable": return .found(NSNumber(value: (try? resource.storedFile()) != nil))
        case "current", "isCurrent": return .found(NSNumber(value: resource.isCurrent))
        case "privateFileURL", "fileURL": return .found(try? resource.storedFile())
        case "inCloud", "isInCloud": return .found(NSNumber(value: false))
        default: return .unknown
        }
    }

    /// Traps as Apple's `valueForUndefinedKey:` raises.
    static func undefinedKey(_ key: String, of object: AnyObject) -> Never {
        fatalError(
            """
            [<\(type(of: object)) \(ObjectIdentifier(object))> valueForUndefinedKey:]: \
            this class is not key value coding-compliant for the key \(key).
            """)
    }
}

extension PHAssetResource {
    /// Whether the resource is part of what the asset shows now: for an
    /// edited asset its renderings and adjustment data, otherwise its originals.
    var isCurrent: Bool {
        let edits: Set<PHAssetResourceType> = [.fullSizePhoto, .fullSizeVideo, .fullSizePairedVideo, .adjustmentData]
        let bases: Set<PHAssetResourceType> = [.adjustmentBasePhoto, .adjustmentBaseVideo, .adjustmentBasePairedVideo]
        guard !bases.contains(type) else { return false }
        let siblings = ((try? library.store?.resources(assetID: record.assetID)) ?? []).map { PHAssetResourceType($0.type) }
        let isEdited = siblings.contains { edits.contains($0) }
        return isEdited ? edits.contains(type) || type == .audio : !edits.contains(type)
    }
}

extension String {
    /// The text without `prefix` and the `/` after it, when it starts with them.
    fileprivate func dropPrefix(_ prefix: String?) -> String {
        guard let prefix, hasPrefix(prefix + "/") else { return self }
        return String(dropFirst(prefix.count + 1))
    }
}
