import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos search`: the assets a search finds, best first.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find assets by words, places, dates and filters, best matches first.",
        discussion: """
            Words match the beginnings of words in captions, keywords, file names,
            cameras, places (city, region, country) and the text read in photos,
            ignoring case and accents; every word must match. Quote words to match
            them in order. A search that finds nothing forgives typos: words of four
            letters or more also match indexed words an edit away (two from eight).

            Filters: place:NAME  person:NAME  album:TITLE (the whole title)
            a year (2019) or year:2019, a month (june) or month:6,
            favorite  video  photo  screenshot  live  rating>=4 (> <= < = too).
            Quote values with spaces: place:"new york".

            The index is brought up to date first (places are named offline from
            GeoNames' cities); `photos index status` says how far it is.

            Examples:
              photos search paris 2019
              photos search 'place:"new york" favorite'
              photos search harbour rating>=4 --json
            """)

    @Argument(help: ArgumentHelp("The search, as one or more words.", valueName: "words"))
    var words: [String] = []

    @Option(help: "Show at most this many.")
    var limit: Int?

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1; leave it out to list every match") }
    }

    func run() throws {
        let library = try options.open()
        IndexCommand.bringUpToDate(library)
        let fetchOptions = PHFetchOptions()
        fetchOptions.prefetchAssetExtendedMetadata = options.json
        if let limit { fetchOptions.fetchLimit = limit }
        let assets: [PHAsset] = try library.withCurrentLibrary {
            let result: PHFetchResult<PHAsset>
            do {
                result = try PHAsset.fetchAssets(matchingSearch: words.joined(separator: " "), options: fetchOptions)
            } catch let error as PHPhotosError where error.code == .limitExceeded {
                throw CLIError.user(error.localizedDescription)
            }
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
        AssetDescription.print(assets, options)
        try options.requireAvailable(library)
    }
}
