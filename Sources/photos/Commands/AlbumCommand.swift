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

    /// Adds assets to an album or removes them, in one change block.
    static func editMembers(
        of album: String, _ identifiers: [String], options: LibraryOptions, verb: String, preposition: String,
        _ edit: @escaping (PHAssetCollectionChangeRequest, NSArray) -> Void
    ) throws {
        let library = try options.open()
        let (collection, assets) = try library.withCurrentLibrary { (try Lookup.album(album), try Lookup.assets(identifiers)) }
        try library.performChangesAndWait {
            if let request = PHAssetCollectionChangeRequest(for: collection) { edit(request, assets as NSArray) }
        }
        options.say("\(verb) \(assets.count) asset\(assets.count == 1 ? "" : "s") \(preposition) \(collection.localizedTitle ?? album)")
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an album.",
            discussion: "Example: photos album create Summer --in Trips")
        @Argument(help: "The album's title.") var title: String
        @Option(name: .customLong("in"), help: ArgumentHelp("A folder to create it in.", valueName: "folder")) var folder: String?
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try CollectionEditing.create(.album, title: title, in: folder, options: options)
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename an album.",
            discussion: "Example: photos album rename Summer 'Summer 2024'")
        @Argument(help: "The album.") var album: String
        @Argument(help: "Its new title.") var title: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try CollectionEditing.rename(.album, album, to: title, options: options)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete albums (their assets stay in the library).",
            discussion: "Example: photos album delete Summer")
        @Argument(help: "The albums.") var albums: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !albums.isEmpty else { throw ValidationError("name at least one album") }
        }

        func run() throws {
            try CollectionEditing.delete(.album, albums, options: options)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add assets to an album.",
            discussion: "Example: photos album add Summer ID1 ID2")
        @Argument(help: "The album.") var album: String
        @Argument(help: "The assets' identifiers.") var identifiers: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
        }

        func run() throws {
            try AlbumCommand.editMembers(of: album, identifiers, options: options, verb: "Added", preposition: "to") {
                $0.addAssets($1)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove assets from an album (they stay in the library).",
            discussion: "Example: photos album remove Summer ID1")
        @Argument(help: "The album.") var album: String
        @Argument(help: "The assets' identifiers.") var identifiers: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
        }

        func run() throws {
            try AlbumCommand.editMembers(of: album, identifiers, options: options, verb: "Removed", preposition: "from") {
                $0.removeAssets($1)
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an album into a folder, or to the top level.",
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
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List albums with their asset counts.",
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
            try options.requireAvailable(library)
        }
    }
}
