import ArgumentParser
import Foundation
import Photos
import PhotosServer

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
            let shown = ShownAsset(
                asset: AssetRepresentation(asset),
                resources: PHAssetResource.assetResources(for: asset).map(ResourceRepresentation.init))
            if options.json {
                Output.json(encoding: shown)
                return
            }
            guard !options.quiet else { return }
            let properties = try Self.object(shown.asset)
            let width = properties.keys.map(\.count).max() ?? 0
            for name in properties.keys.sorted() {
                Output.line(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.describe(properties[name]!))
            }
            Output.line("resources:")
            for resource in shown.resources {
                Output.line("  " + Self.describe(try Self.object(resource)))
            }
        }
        try options.requireAvailable(library)
    }

    /// The asset as the server sends it, with its resources inline.
    private struct ShownAsset: Encodable {
        let asset: AssetRepresentation
        let resources: [ResourceRepresentation]

        func encode(to encoder: any Encoder) throws {
            try asset.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(resources, forKey: .resources)
        }

        private enum Key: CodingKey { case resources }
    }

    /// A representation's JSON object, for the text form to print field by field.
    private static func object(_ value: some Encodable) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: JSONBody.encode(value)) as? [String: Any] ?? [:]
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: "-"
        case let values as [String: Any]: values.keys.sorted().map { "\($0)=\(describe(values[$0]!))" }.joined(separator: " ")
        case let values as [Any]: values.isEmpty ? "-" : values.map(describe).joined(separator: ",")
        // JSONSerialization reads `true` as a number; its type says it was a Boolean.
        case let number as NSNumber where String(cString: number.objCType) == "c": number.boolValue ? "true" : "false"
        default: "\(value)"
        }
    }
}
