import ArgumentParser
import Foundation
import Photos
import PhotosMedia

/// `photos export ID... --to DIR`: copies of assets' files.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy assets' files into a folder: the current version (edits applied) or the original.",
        discussion: """
            Files keep their original names; a name already taken gets a number, so
            nothing in the folder is replaced. A Live Photo exports its photo and its
            video. The folder may not be inside the library. With --sidecars, each
            photo or video gets an XMP sidecar beside it (IMG_1234.JPG.xmp) with its
            rating, caption, keywords, date and place, which darktable, digiKam and
            Lightroom read, and which photos import reads back.

            Examples:
              photos export ID1 ID2 --to ~/Export
              photos export ID1 --to ~/Export --original
              photos export ID1 --to ~/Export --sidecars
            """)

    @Argument(help: "The assets' local identifiers.")
    var identifiers: [String]

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var to: String

    @Flag(help: "Export the original files, without edits.")
    var original = false

    @Flag(help: "Export the current version, edits applied (the default).")
    var current = false

    @Flag(help: "Write an XMP sidecar beside each exported photo or video: rating, caption, keywords, date, place.")
    var sidecars = false

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
            for (index, resource) in Self.resources(of: asset, original: original).enumerated() {
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
                // A Live Photo's video shares its photo's sidecar: one per asset, beside its first file.
                if sidecars && index == 0 {
                    let sidecar = destination.deletingLastPathComponent()
                        .appendingPathComponent(XMPSidecar.name(besideFileNamed: destination.lastPathComponent))
                    do {
                        try Data(Self.sidecar(of: asset).document.utf8).write(to: sidecar, options: .withoutOverwriting)
                    } catch {
                        throw CLIError.library(error)
                    }
                    written.append(["localIdentifier": asset.localIdentifier, "file": sidecar.path])
                    options.say("\(asset.localIdentifier) -> \(sidecar.path)")
                }
            }
        }
        if options.json { Output.json(written) }
        try options.requireAvailable(library)
    }

    /// What an asset's XMP sidecar says of it.
    static func sidecar(of asset: PHAsset) -> XMPSidecar {
        let described = asset.extendedMetadata
        return XMPSidecar(
            rating: asset.rating == .unset ? nil : asset.rating.rawValue, caption: described.caption, keywords: described.keywords,
            captureDate: asset.creationDate, utcOffset: asset.creationTimeZoneOffset,
            location: asset.location.map {
                MediaLocation(
                    latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, altitude: $0.verticalAccuracy < 0 ? nil : $0.altitude)
            })
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
