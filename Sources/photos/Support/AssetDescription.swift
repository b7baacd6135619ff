import Foundation
import Photos
import PhotosServer

/// How commands show an asset: a table row, and JSON.
enum AssetDescription {
    static let header = ["IDENTIFIER", "DATE", "TYPE", "SIZE", "RATING", "FLAGS", "FILENAME"]

    static func row(_ asset: PHAsset) -> [String] {
        [
            asset.localIdentifier, Output.date(asset.creationDate), type(asset), "\(asset.pixelWidth)x\(asset.pixelHeight)",
            stars(asset), flags(asset), filename(asset),
        ]
    }

    static func type(_ asset: PHAsset) -> String {
        asset.mediaType.name
    }

    /// The rating as stars (`***`), or `-` when unrated.
    static func stars(_ asset: PHAsset) -> String {
        asset.rating == .unset ? "-" : String(repeating: "*", count: asset.rating.rawValue)
    }

    /// F favorite, H hidden, E edited, L Live Photo, B burst.
    static func flags(_ asset: PHAsset) -> String {
        let flags = [
            (asset.isFavorite, "F"), (asset.isHidden, "H"), (asset.hasAdjustments, "E"),
            (asset.mediaSubtypes.contains(.photoLive), "L"), (asset.burstIdentifier != nil, "B"),
        ]
        let text = flags.filter(\.0).map(\.1).joined()
        return text.isEmpty ? "-" : text
    }

    static func filename(_ asset: PHAsset) -> String {
        PHAssetResource.assetResources(for: asset).first?.originalFilename ?? "-"
    }
}

extension AssetDescription {
    /// Prints assets as the listing commands do: their JSON with `--json`,
    /// else a table (``header`` and a ``row`` each) unless `--quiet`.
    static func print(_ assets: [PHAsset], _ options: LibraryOptions) {
        if options.json {
            Output.json(encoding: assets.map(AssetRepresentation.init))
        } else if !options.quiet {
            Output.table(header, assets.map(row))
        }
    }
}
