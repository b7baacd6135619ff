import ArgumentParser
import Foundation
import Photos

/// `photos folder ...`: folders of albums and folders.
struct FolderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Create, rename, delete, fill and list folders (collection lists).",
        discussion: """
            Examples:
              photos folder create Trips
              photos folder add Trips Summer Winter
              photos folder ls
            """,
        subcommands: [Create.self, Rename.self, Delete.self, Add.self, List.self])

    /// Moves an album or folder into `folder`, or to the top level when nil, in one change block.
    static func move(_ collection: PHCollection, to folder: PHCollectionList?, in library: PHPhotoLibrary) throws {
        let parents = PHCollectionList.fetchCollectionListsContaining(collection, options: nil)
        let current = parents.objects(at: IndexSet(integersIn: 0..<parents.count))
        try library.performChangesAndWait {
            for parent in current where parent != folder {
                PHCollectionListChangeRequest(for: parent)?.removeChildCollections([collection] as NSArray)
            }
            if let folder, !current.contains(folder) {
                PHCollectionListChangeRequest(for: folder)?.addChildCollections([collection] as NSArray)
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a folder.",
            discussion: "Example: photos folder create 2024 --in Trips")
        @Argument(help: "The folder's title.") var title: String
        @Option(name: .customLong("in"), help: ArgumentHelp("A folder to create it in.", valueName: "folder")) var folder: String?
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try CollectionEditing.create(.folder, title: title, in: folder, options: options)
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a folder.", discussion: "Example: photos folder rename Trips Travels")
        @Argument(help: "The folder.") var folder: String
        @Argument(help: "Its new title.") var title: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try CollectionEditing.rename(.folder, folder, to: title, options: options)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete folders with the albums and folders in them (the assets stay in the library).",
            discussion: "Example: photos folder delete Trips")
        @Argument(help: "The folders.") var folders: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !folders.isEmpty else { throw ValidationError("name at least one folder") }
        }

        func run() throws {
            try CollectionEditing.delete(.folder, folders, options: options)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move albums or folders into a folder.",
            discussion: "Example: photos folder add Trips Summer Winter")
        @Argument(help: "The folder.") var folder: String
        @Argument(help: "The albums and folders to move into it.") var items: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !items.isEmpty else { throw ValidationError("name at least one album or folder") }
        }

        func run() throws {
            let library = try options.open()
            try library.withCurrentLibrary {
                let target = try Lookup.folder(folder)
                for item in try items.map(Lookup.collection) {
                    try FolderCommand.move(item, to: target, in: library)
                }
            }
            options.say("Moved \(items.count) item\(items.count == 1 ? "" : "s") into \(folder)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "Show folders and albums as a tree.",
            discussion: "Example: photos folder ls --json")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let tree = library.withCurrentLibrary { Self.nodes(PHCollectionList.fetchTopLevelUserCollections(with: nil)) }
            if options.json {
                Output.json(tree.map(\.json))
            } else if !options.quiet {
                for node in tree { node.print(indent: "") }
            }
            try options.requireAvailable(library)
        }

        struct Node {
            var collection: PHCollection
            var children: [Node]

            var json: [String: Any] {
                var json: [String: Any] = [
                    "localIdentifier": collection.localIdentifier, "title": collection.localizedTitle ?? "",
                    "kind": collection is PHCollectionList ? "folder" : "album",
                ]
                if collection is PHCollectionList { json["children"] = children.map(\.json) }
                return json
            }

            func print(indent: String) {
                let kind = collection is PHCollectionList ? "folder" : "album"
                Output.line("\(indent)\(collection.localizedTitle ?? "") [\(kind) \(collection.localIdentifier)]")
                for child in children { child.print(indent: indent + "  ") }
            }
        }

        static func nodes(_ result: PHFetchResult<PHCollection>) -> [Node] {
            result.objects(at: IndexSet(integersIn: 0..<result.count)).map { collection in
                let children = (collection as? PHCollectionList).map { nodes(PHCollection.fetchCollections(in: $0, options: nil)) } ?? []
                return Node(collection: collection, children: children)
            }
        }
    }
}
