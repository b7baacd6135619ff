import ArgumentParser
import Foundation
import Photos

/// `photos ls`: assets as a table or JSON.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List assets: identifier, date, type, size, rating, flags (F favorite, H hidden, E edited, L Live Photo, B burst), filename.",
        discussion: """
            --where takes a PhotoKit predicate format over PHAsset's fetch keys
            (creationDate, mediaType, favorite, hidden, rating, caption, keywords,
            pixelWidth, duration...).

            Examples:
              photos ls --limit 20
              photos ls --where 'favorite == YES AND mediaType == 1' --sort creationDate:desc
              photos ls --where "rating >= 4 AND ANY keywords == 'beach'"
              photos ls --album Summer --json
              photos ls --trash
            """)

    @Option(name: .customLong("where"), help: ArgumentHelp("Only assets matching this predicate.", valueName: "predicate"))
    var predicate: String?

    @Option(help: ArgumentHelp("Sort by a fetch key, ascending unless :desc follows. Default: creationDate.", valueName: "key[:desc]"))
    var sort: String?

    @Option(help: "Show at most this many.")
    var limit: Int?

    @Option(help: ArgumentHelp("Only the assets of this album.", valueName: "name|id"))
    var album: String?

    @Flag(help: "Include hidden assets.")
    var hidden = false

    @Flag(help: "List Recently Deleted instead.")
    var trash = false

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1; leave it out to list everything") }
        if trash && album != nil { throw ValidationError("--trash and --album cannot be used together") }
    }

    func run() throws {
        let fetchOptions = try Self.fetchOptions(predicate: predicate, sort: sort)
        fetchOptions.includeHiddenAssets = hidden
        // The JSON carries each asset's caption and keywords: read with the assets.
        fetchOptions.prefetchAssetExtendedMetadata = options.json
        if let limit { fetchOptions.fetchLimit = limit }
        let library = try options.open()
        let assets: [PHAsset] = try library.withCurrentLibrary {
            let result: PHFetchResult<PHAsset>
            if trash {
                let trashOptions = fetchOptions
                guard
                    let bin = PHAssetCollection.fetchAssetCollections(
                        with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted,
                        options: nil
                    ).firstObject
                else { return [] }
                result = PHAsset.fetchAssets(in: bin, options: trashOptions)
            } else if let album {
                result = PHAsset.fetchAssets(in: try Lookup.album(album), options: fetchOptions)
            } else {
                result = PHAsset.fetchAssets(with: fetchOptions)
            }
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
        AssetDescription.print(assets, options)
        try options.requireAvailable(library)
    }

    /// Fetch options from the command line, checked: a bad predicate or
    /// sort key is the user's error, with the parser's position.
    static func fetchOptions(predicate: String?, sort: String?) throws -> PHFetchOptions {
        do {
            return try PHFetchOptions(predicateFormat: predicate, sortKeys: sort ?? "creationDate", for: PHAsset.self)
        } catch {
            throw CLIError.user(String(describing: error))
        }
    }
}
