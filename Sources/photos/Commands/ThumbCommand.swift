import ArgumentParser
import Foundation
import Photos

/// `photos thumb ID --size WxH -o FILE`: an image at a size, through PHImageManager.
struct ThumbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Write an image of an asset at a size (JPEG, or PNG when FILE ends in .png).",
        discussion: """
            The image is exactly the size asked (fill crops, fit keeps the whole image
            inside). --crop takes a rectangle in unit coordinates of the image, from its
            top left, applied before scaling. An existing file is replaced only with
            --force; devices, pipes, symbolic links, read-only files and anything inside
            the library never are.

            Examples:
              photos thumb ID --size 256x256 -o thumb.jpg
              photos thumb ID --size 1024x1024 --mode fit -o preview.png
              photos thumb ID --size 200x200 --crop 0.25,0.25,0.5,0.5 -o detail.jpg
            """)

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case fill, fit
    }

    @Argument(help: "The asset's local identifier.")
    var identifier: String

    @Option(help: ArgumentHelp("The size in pixels.", valueName: "WxH"))
    var size: String

    @Option(help: "fill (crop to the size) or fit (the whole image inside it).")
    var mode: Mode = .fill

    @Option(help: ArgumentHelp("A rectangle of the image to keep, in unit coordinates.", valueName: "x,y,w,h"))
    var crop: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the image.", valueName: "file"))
    var output: String

    @Flag(help: "Replace the output file when it exists (a regular file that may be written).")
    var force = false

    @OptionGroup var options: LibraryOptions

    private var parsedSize: CGSize? {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (1...20_000).contains($0) }) else { return nil }
        return CGSize(width: parts[0], height: parts[1])
    }

    private var parsedCrop: CGRect? {
        guard let crop else { return nil }
        let parts = crop.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }), parts[2] > 0, parts[3] > 0,
            parts[0] + parts[2] <= 1, parts[1] + parts[3] <= 1
        else { return nil }
        return CGRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }

    func validate() throws {
        guard parsedSize != nil else { throw ValidationError("--size must be WIDTHxHEIGHT in pixels, such as 256x256") }
        if crop != nil && parsedCrop == nil {
            throw ValidationError("--crop must be x,y,w,h between 0 and 1, inside the image, such as 0.25,0.25,0.5,0.5")
        }
    }

    func run() throws {
        let library = try options.open()
        let url = try OutputPath.checkFile(output, library: library, replacing: force)
        let asset = try library.withCurrentLibrary { try Lookup.assets([identifier], includingTrashed: true)[0] }
        let requestOptions = PHImageRequestOptions()
        requestOptions.isSynchronous = true
        requestOptions.deliveryMode = .highQualityFormat
        requestOptions.resizeMode = .exact
        if let parsedCrop { requestOptions.normalizedCropRect = parsedCrop }
        var image: UIImage?
        var failure: (any Error)?
        PHImageManager.default().requestImage(
            for: asset, targetSize: parsedSize!, contentMode: mode == .fill ? .aspectFill : .aspectFit,
            options: requestOptions
        ) { result, info in
            image = result
            failure = info?[PHImageErrorKey] as? any Error
        }
        guard let image else { throw CLIError.library(failure ?? PHPhotosError(.invalidResource)) }
        guard let data = url.pathExtension.lowercased() == "png" ? image.pngData() : image.jpegData(compressionQuality: 0.9) else {
            throw CLIError.library(PHPhotosError(.internalError))
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw CLIError.user("cannot write \(output): \(error.localizedDescription)")
        }
        let warning = Self.missingOriginal(of: asset).map {
            "the file of \(asset.localIdentifier) (\($0)) is missing from the library: the image was made from its thumbnail; photos check lists what is missing"
        }
        if let warning, !options.json { Output.errorLine("warning: \(warning)") }
        if options.json {
            var json: [String: Any] = ["file": url.path, "width": Int(image.size.width), "height": Int(image.size.height)]
            json["warning"] = warning
            Output.json(json)
        } else {
            options.say("Wrote \(Int(image.size.width))x\(Int(image.size.height)) to \(output)")
        }
        try options.requireAvailable(library)
    }

    /// The name of the file the asset shows (its original, or the rendering
    /// of its edit) when that file is missing; nil when it is there.
    static func missingOriginal(of asset: PHAsset) -> String? {
        let shown: Set<PHAssetResourceType> = [.photo, .video, .fullSizePhoto, .fullSizeVideo]
        return PHAssetResource.assetResources(for: asset)
            .first { shown.contains($0.type) && ($0.value(forKey: "isCurrent") as? Bool) == true && ($0.value(forKey: "locallyAvailable") as? Bool) == false }?
            .originalFilename
    }
}
