import ArgumentParser
import Foundation
import Photos

/// `photos export ID... --to DIR`: copies of assets' files.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy assets' files into a folder: the current version (edits applied) or the original.",
        discussion: """
            Files keep their original names; a name already taken gets a number, so
            nothing in the folder is replaced. A Live Photo exports its photo and its
            video. The folder may not be inside the library.

            Examples:
              photos export ID1 ID2 --to ~/Export
              photos export ID1 --to ~/Export --original
            """)

    @Argument(help: "The assets' local identifiers.")
    var identifiers: [String]

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var to: String

    @Flag(help: "Export the original files, without edits.")
    var original = false

    @Flag(help: "Export the current version, edits applied (the default).")
    var current = false

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
        guard !(original && current) else { throw ValidationError("--original and --current cannot be used together") }
    }

    func run() throws {
        let library = try options.open()
        let folder = try OutputPath.prepareFolder(to, library: library)
        let assets = try library.withCurrentLibrary { try Lookup.assets(identifiers, includingTrashed: true) }
        var written: [[String: String]] = []
        for asset in assets {
            for resource in Self.resources(of: asset, original: original) {
                // The stored name is safe; it is checked again here, where it becomes a path.
                let fallback = "\(asset.localIdentifier.prefix(8))" + (resource.contentType.preferredFilenameExtension.map { ".\($0)" } ?? "")
                let destination = OutputPath.freeName(resource.originalFilename, fallback: fallback, in: folder)
                let done = DispatchSemaphore(value: 0)
                nonisolated(unsafe) var failure: (any Error)?
                PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil) { error in
                    failure = error
                    done.signal()
                }
                done.wait()
                if let failure { throw CLIError.library(failure) }
                written.append(["localIdentifier": asset.localIdentifier, "file": destination.path])
                options.say("\(asset.localIdentifier) -> \(destination.path)")
            }
        }
        if options.json { Output.json(written) }
        try options.requireAvailable(library)
    }

    /// The files that make up the version asked: photo and paired video,
    /// edited renderings in place of originals for the current version.
    static func resources(of asset: PHAsset, original: Bool) -> [PHAssetResource] {
        let all = PHAssetResource.assetResources(for: asset)
        let pairs: [(original: PHAssetResourceType, edited: PHAssetResourceType)] = [
            (.photo, .fullSizePhoto), (.video, .fullSizeVideo),
            (.pairedVideo, .fullSizePairedVideo),
        ]
        return pairs.compactMap { pair in
            let originalFile = all.first { $0.type == pair.original }
            if original { return originalFile }
            return all.first { $0.type == pair.edited } ?? originalFile
        }
    }

}
