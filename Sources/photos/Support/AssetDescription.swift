import Foundation
import Photos

/// How commands show an asset: a table row, and JSON.
enum AssetDescription {
    static let header = ["IDENTIFIER", "DATE", "TYPE", "SIZE", "FLAGS", "FILENAME"]

    static func row(_ asset: PHAsset) -> [String] {
        [asset.localIdentifier, Output.date(asset.creationDate), type(asset), "\(asset.pixelWidth)x\(asset.pixelHeight)",
         flags(asset), filename(asset)]
    }

    static func json(_ asset: PHAsset) -> [String: Any] {
        [
            "localIdentifier": asset.localIdentifier,
            "creationDate": Output.jsonDate(asset.creationDate),
            "modificationDate": Output.jsonDate(asset.modificationDate),
            "mediaType": type(asset),
            "mediaSubtypes": asset.mediaSubtypes.rawValue,
            "pixelWidth": asset.pixelWidth,
            "pixelHeight": asset.pixelHeight,
            "duration": asset.duration,
            "isFavorite": asset.isFavorite,
            "isHidden": asset.isHidden,
            "hasAdjustments": asset.hasAdjustments,
            "filename": filename(asset),
            "location": asset.location.map { ["latitude": $0.coordinate.latitude, "longitude": $0.coordinate.longitude] as Any } ?? NSNull(),
        ]
    }

    static func type(_ asset: PHAsset) -> String {
        switch asset.mediaType {
        case .image: "image"
        case .video: "video"
        case .audio: "audio"
        default: "unknown"
        }
    }

    /// F favorite, H hidden, E edited, L Live Photo, B burst.
    static func flags(_ asset: PHAsset) -> String {
        let flags = [(asset.isFavorite, "F"), (asset.isHidden, "H"), (asset.hasAdjustments, "E"),
                     (asset.mediaSubtypes.contains(.photoLive), "L"), (asset.burstIdentifier != nil, "B")]
        let text = flags.filter(\.0).map(\.1).joined()
        return text.isEmpty ? "-" : text
    }

    static func filename(_ asset: PHAsset) -> String {
        PHAssetResource.assetResources(for: asset).first?.originalFilename ?? "-"
    }
}
