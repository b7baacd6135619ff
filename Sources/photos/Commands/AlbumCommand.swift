import ArgumentParser
import Foundation
import Photos

/// `photos album ...`: albums and their assets.
struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, rename, delete, fill and list albums.",
        discussion: """
            An album is named by its title (when no other album has it) or its identifier.

            Examples:
              photos album create Summer --in Trips
              photos album add Summer 3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10
              photos album ls
            """,
        subcommands: [Create.self, Rename.self, Delete.self, Add.self, Remove.self, Move.self, List.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an album.",
                                                        discussion: "Example: photos album create Summer --in Trips")
        @Argument(help: "The album's title.") var title: String
        @Option(name: .customLong("in"), help: ArgumentHelp("A folder to create it in.", valueName: "folder")) var folder: String?
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let parent = try folder.map { name in try library.withCurrentLibrary { try Lookup.folder(name) } }
            var identifier = ""
            try library.performChangesAndWait {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                identifier = request.placeholderForCreatedAssetCollection.localIdentifier
                if let parent {
                    PHCollectionListChangeRequest(for: parent)?.addChildCollections([request.placeholderForCreatedAssetCollection] as NSArray)
                }
            }
            if options.json { Output.json(["localIdentifier": identifier, "title": title]) } else { options.say(identifier) }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an album.",
                                                        discussion: "Example: photos album rename Summer 'Summer 2024'")
        @Argument(help: "The album.") var album: String
        @Argument(help: "Its new title.") var title: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let collection = try library.withCurrentLibrary { try Lookup.album(album) }
            try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: collection)?.title = title }
            options.say("Renamed \(collection.localIdentifier) to \(title)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete albums (their assets stay in the library).",
                                                        discussion: "Example: photos album delete Summer")
        @Argument(help: "The albums.") var albums: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !albums.isEmpty else { throw ValidationError("name at least one album") }
        }

        func run() throws {
            let library = try options.open()
            let collections = try library.withCurrentLibrary { try albums.map(Lookup.album) }
            try library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections(collections as NSArray) }
            options.say("Deleted \(collections.count) album\(collections.count == 1 ? "" : "s")")
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add assets to an album.",
                                                        discussion: "Example: photos album add Summer ID1 ID2")
        @Argument(help: "The album.") var album: String
        @Argument(help: "The assets' identifiers.") var identifiers: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
        }

        func run() throws {
            let library = try options.open()
            let (collection, assets) = try library.withCurrentLibrary { (try Lookup.album(album), try Lookup.assets(identifiers)) }
            try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: collection)?.addAssets(assets as NSArray) }
            options.say("Added \(assets.count) asset\(assets.count == 1 ? "" : "s") to \(collection.localizedTitle ?? album)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove assets from an album (they stay in the library).",
                                                        discussion: "Example: photos album remove Summer ID1")
        @Argument(help: "The album.") var album: String
        @Argument(help: "The assets' identifiers.") var identifiers: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
        }

        func run() throws {
            let library = try options.open()
            let (collection, assets) = try library.withCurrentLibrary { (try Lookup.album(album), try Lookup.assets(identifiers)) }
            try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: collection)?.removeAssets(assets as NSArray) }
            options.say("Removed \(assets.count) asset\(assets.count == 1 ? "" : "s") from \(collection.localizedTitle ?? album)")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move an album into a folder, or to the top level.",
                                                        discussion: "Examples: photos album move Summer --to Trips; photos album move Summer --top")
        @Argument(help: "The album.") var album: String
        @Option(help: ArgumentHelp("The folder to move it into.", valueName: "folder")) var to: String?
        @Flag(help: "Move it out of any folder.") var top = false
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard (to != nil) != top else { throw ValidationError("give either --to FOLDER or --top") }
        }

        func run() throws {
            let library = try options.open()
            try library.withCurrentLibrary {
                try FolderCommand.move(try Lookup.album(album), to: try to.map(Lookup.folder), in: library)
            }
            options.say(top ? "Moved \(album) to the top level" : "Moved \(album) into \(to!)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List albums with their asset counts.",
                                                        discussion: "Example: photos album ls --json")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let albums = library.withCurrentLibrary { () -> [(PHAssetCollection, Int)] in
                let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
                return result.objects(at: IndexSet(integersIn: 0..<result.count)).map { ($0, PHAsset.fetchAssets(in: $0, options: nil).count) }
            }
            if options.json {
                Output.json(albums.map { ["localIdentifier": $0.0.localIdentifier, "title": $0.0.localizedTitle ?? "", "count": $0.1] as [String: Any] })
            } else if !options.quiet {
                Output.table(["IDENTIFIER", "ASSETS", "TITLE"], albums.map { [$0.0.localIdentifier, "\($0.1)", $0.0.localizedTitle ?? ""] })
            }
        }
    }
}
