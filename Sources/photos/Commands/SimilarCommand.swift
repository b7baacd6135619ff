import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos similar`: photos that look alike, and keeping one of them.
struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "List photos that look alike, or keep one of them and move the others to Recently Deleted.",
        discussion: """
            Photos look alike when their perceptual hashes (64 bits, from each
            thumbnail) differ in at most --distance bits: shots of a burst, a photo
            saved again, a copy made smaller. Each group lists first the photo
            suggested to keep: a favorite, then the most pixels, then the edited,
            then the oldest. The hashes are brought up to date first.

            Examples:
              photos similar
              photos similar --distance 3 --json
              photos similar keep 3F2A...-.../L0/001   # the rest of its group to Recently Deleted
            """,
        subcommands: [List.self, Keep.self],
        defaultSubcommand: List.self)

    /// The groups, with the hashes brought up to date first when this process may write the library.
    static func groups(_ library: PHPhotoLibrary, distance: Int) throws -> [SimilarPhotoGroup] {
        do {
            try LibraryIndexer(library: library, kinds: [.similarity]).catchUp()
        } catch {
            Output.errorLine("photos: the perceptual hashes were not brought up to date (\(CLIError.message(error))); grouping what is hashed")
        }
        do {
            return try library.similarPhotoGroups(maximumDistance: distance)
        } catch let error as PHPhotosError where error.code == .limitExceeded {
            throw CLIError.user(error.localizedDescription)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the groups of photos that look alike, the one suggested to keep first.")

        @Option(help: "The most bits (of 64) two photos' hashes may differ in, 0 to \(PHPhotoLibrary.maximumSimilarityDistance).")
        var distance = PHPhotoLibrary.defaultSimilarityDistance
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let groups = try SimilarCommand.groups(library, distance: distance)
            let assets: [String: PHAsset] = library.withCurrentLibrary {
                let result = PHAsset.fetchAssets(withLocalIdentifiers: groups.flatMap(\.assetLocalIdentifiers), options: nil)
                return Dictionary(result.objects(at: IndexSet(integersIn: 0..<result.count)).map { ($0.localIdentifier, $0) }) { first, _ in first }
            }
            if options.json {
                Output.json(groups.map { ["suggested": $0.suggestedLocalIdentifier, "assets": $0.assetLocalIdentifiers] as [String: Any] })
            } else if !options.quiet {
                Output.line("\(groups.count) groups of photos that look alike")
                for (number, group) in groups.enumerated() {
                    Output.line("")
                    Output.line("group \(number + 1): keep \(group.suggestedLocalIdentifier)?")
                    Output.table(AssetDescription.header, group.assetLocalIdentifiers.compactMap { assets[$0] }.map(AssetDescription.row))
                }
            }
            try options.requireAvailable(library)
        }
    }

    struct Keep: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keep", abstract: "Keep one photo of its group and move the others to Recently Deleted, in one change.")

        @Argument(help: "The photo to keep (its local identifier).")
        var identifier: String
        @Option(help: "The most bits (of 64) two photos' hashes may differ in, 0 to \(PHPhotoLibrary.maximumSimilarityDistance), as the list was made with.")
        var distance = PHPhotoLibrary.defaultSimilarityDistance
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            guard let group = try SimilarCommand.groups(library, distance: distance).first(where: { $0.assetLocalIdentifiers.contains(identifier) }) else {
                throw CLIError.user("\(Output.escaped(identifier)) looks like no other photo at distance \(distance)")
            }
            try library.keepOnly(identifier, of: group)
            let moved = group.assetLocalIdentifiers.count - 1
            if options.json {
                Output.json(["kept": identifier, "recentlyDeleted": group.assetLocalIdentifiers.filter { $0 != identifier }])
            } else if !options.quiet {
                Output.line("kept \(identifier); \(moved) moved to Recently Deleted")
            }
        }
    }
}
