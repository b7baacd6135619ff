import ArgumentParser
import Foundation
import Photos

/// `photos show ID`: one asset, whole.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every property and resource of one asset.",
        discussion: """
            Examples:
              photos show 3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10/L0/001
              photos show 3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10 --json
            """)

    @Argument(help: "The asset's local identifier (or the UUID at its start).")
    var identifier: String

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open()
        try library.withCurrentLibrary {
            let asset = try Lookup.assets([identifier], includingTrashed: true)[0]
            let resources = PHAssetResource.assetResources(for: asset)
            var properties: [(String, Any)] = [
                ("localIdentifier", asset.localIdentifier),
                ("mediaType", AssetDescription.type(asset)),
                ("mediaSubtypes", asset.mediaSubtypes.rawValue),
                ("playbackStyle", asset.playbackStyle.rawValue),
                ("pixelWidth", asset.pixelWidth),
                ("pixelHeight", asset.pixelHeight),
                ("creationDate", Output.jsonDate(asset.creationDate)),
                ("modificationDate", Output.jsonDate(asset.modificationDate)),
                ("addedDate", Output.jsonDate(asset.addedDate)),
                ("duration", asset.duration),
                ("isFavorite", asset.isFavorite),
                ("isHidden", asset.isHidden),
                ("sourceType", asset.sourceType.rawValue),
                ("burstIdentifier", asset.burstIdentifier as Any? ?? NSNull()),
                ("representsBurst", asset.representsBurst),
                ("hasAdjustments", asset.hasAdjustments),
                ("adjustmentFormatIdentifier", asset.adjustmentFormatIdentifier as Any? ?? NSNull()),
                ("contentType", asset.contentType.identifier),
            ]
            if let location = asset.location {
                properties.append(("location", ["latitude": location.coordinate.latitude, "longitude": location.coordinate.longitude,
                                                "altitude": location.altitude]))
            } else {
                properties.append(("location", NSNull()))
            }
            let resourceList: [[String: Any]] = resources.map {
                ["type": $0.type.rawValue, "originalFilename": $0.originalFilename,
                 "uniformTypeIdentifier": $0.uniformTypeIdentifier, "pixelWidth": $0.pixelWidth, "pixelHeight": $0.pixelHeight]
            }
            if options.json {
                var json = Dictionary(uniqueKeysWithValues: properties)
                json["resources"] = resourceList
                Output.json(json)
                return
            }
            guard !options.quiet else { return }
            let width = properties.map(\.0.count).max() ?? 0
            for (name, value) in properties {
                let text = value is NSNull ? "-" : value is [String: Any] ? Self.describe(value as! [String: Any]) : "\(value)"
                Output.line(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
            }
            Output.line("resources:")
            for resource in resourceList {
                Output.line("  " + Self.describe(resource))
            }
        }
        try options.requireAvailable(library)
    }

    private static func describe(_ values: [String: Any]) -> String {
        values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
    }
}
