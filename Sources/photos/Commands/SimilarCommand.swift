import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos similar`: photos that look alike; keeping one of them, stacking
/// them, or saying they are not alike.
struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "List photos that look alike; keep one, stack them, or say they are not alike.",
        discussion: """
            Photos look alike when their perceptual hashes (64 bits, from each
            thumbnail) differ in at most --distance bits: shots of a burst, a photo
            saved again, a copy made smaller. Each group lists first the photo
            suggested to keep: a favorite, then the most pixels, then the edited,
            then the oldest. The hashes are brought up to date first.

            Examples:
              photos similar
              photos similar --distance 3 --json
              photos similar keep 3F2A...-.../L0/001      # the rest of its group to Recently Deleted
              photos similar stack 3F2A...-.../L0/001     # one burst, that photo shown, nothing deleted
              photos similar dismiss 3F2A...-.../L0/001   # its group's photos are not alike: never listed together again
              photos similar --include-dismissed          # list them anyway
            """,
        subcommands: [List.self, Keep.self, Stack.self, Dismiss.self],
        defaultSubcommand: List.self)

    /// The groups, with the hashes brought up to date first when this process may write the library.
    static func groups(_ library: PHPhotoLibrary, distance: Int, includingDismissed: Bool = false) throws -> [SimilarPhotoGroup] {
        do {
            try LibraryIndexer(library: library, kinds: [.similarity]).catchUp()
        } catch {
            Output.errorLine("photos: the perceptual hashes were not brought up to date (\(CLIError.message(error))); grouping what is hashed")
        }
        do {
            return try library.similarPhotoGroups(maximumDistance: distance, includingDismissed: includingDismissed)
        } catch let error as PHPhotosError where error.code == .limitExceeded {
            throw CLIError.user(error.localizedDescription)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the groups of photos that look alike, the one suggested to keep first.")

        @Option(help: "The most bits (of 64) two photos' hashes may differ in, 0 to \(PHPhotoLibrary.maximumSimilarityDistance).")
        var distance = PHPhotoLibrary.defaultSimilarityDistance
        @Flag(help: "List groups someone said are not alike (photos similar dismiss) too.")
        var includeDismissed = false
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let groups = try SimilarCommand.groups(library, distance: distance, includingDismissed: includeDismissed)
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
        @OptionGroup var choice: GroupChoice
        private var options: LibraryOptions { choice.options }

        func run() throws {
            let (library, group) = try choice.group(of: identifier)
            try library.keepOnly(identifier, of: group)
            let moved = group.assetLocalIdentifiers.count - 1
            if options.json {
                Output.json(["kept": identifier, "recentlyDeleted": group.assetLocalIdentifiers.filter { $0 != identifier }])
            } else if !options.quiet {
                Output.line("kept \(identifier); \(moved) moved to Recently Deleted")
            }
        }
    }

    /// How `keep`, `stack` and `dismiss` find the group of the photo they name: as the list was made.
    struct GroupChoice: ParsableArguments {
        @Option(help: "The most bits (of 64) two photos' hashes may differ in, 0 to \(PHPhotoLibrary.maximumSimilarityDistance), as the list was made with.")
        var distance = PHPhotoLibrary.defaultSimilarityDistance
        @Flag(help: "Find the group among those said not to be alike too, as the list was made with.")
        var includeDismissed = false
        @OptionGroup var options: LibraryOptions

        /// The library, and the group holding `identifier` in it, or a one-line error saying it has none.
        func group(of identifier: String) throws -> (PHPhotoLibrary, SimilarPhotoGroup) {
            let library = try options.open()
            guard
                let group = try SimilarCommand.groups(library, distance: distance, includingDismissed: includeDismissed).first(where: {
                    $0.assetLocalIdentifiers.contains(identifier)
                })
            else {
                throw CLIError.user("\(Output.escaped(identifier)) looks like no other photo at distance \(distance)")
            }
            return (library, group)
        }
    }

    struct Stack: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stack",
            abstract: "Stack a photo's group as one burst, that photo shown for it; nothing is deleted.",
            discussion: "The others leave the library's views and stay in the library, in the burst (a fetch with includeAllBurstAssets shows them).")

        @Argument(help: "The photo to show for the stack (its local identifier).")
        var identifier: String
        @OptionGroup var choice: GroupChoice
        private var options: LibraryOptions { choice.options }

        func run() throws {
            let (library, group) = try choice.group(of: identifier)
            try library.stack(group, keeping: identifier)
            if options.json {
                Output.json(["kept": identifier, "stacked": group.assetLocalIdentifiers])
            } else if !options.quiet {
                Output.line("stacked \(group.assetLocalIdentifiers.count) photos; \(identifier) is shown for them")
            }
        }
    }

    struct Dismiss: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dismiss", abstract: "Say a photo's group are not alike: they are not listed together again.")

        @Argument(help: "A photo of the group (its local identifier).")
        var identifier: String
        @OptionGroup var choice: GroupChoice
        private var options: LibraryOptions { choice.options }

        func run() throws {
            let (library, group) = try choice.group(of: identifier)
            try library.dismissSimilarPhotoGroup(group)
            if options.json {
                Output.json(["dismissed": group.assetLocalIdentifiers])
            } else if !options.quiet {
                Output.line("\(group.assetLocalIdentifiers.count) photos are no longer listed as alike")
            }
        }
    }
}
