import Foundation
import Photos

/// What the album and folder commands do alike: create, rename and delete,
/// each in one change block, naming collections by title or identifier.
enum CollectionEditing {
    enum Kind: String {
        case album, folder

        func lookup(_ name: String) throws -> PHCollection {
            switch self {
            case .album: try Lookup.album(name)
            case .folder: try Lookup.folder(name)
            }
        }
    }

    /// A title a user typed: not empty, not only spaces.
    static func checkTitle(_ title: String, _ kind: Kind) throws {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw CLIError.user("give the \(kind.rawValue) a title") }
    }

    /// Creates an album or folder, inside `parent` when given; prints its identifier.
    static func create(_ kind: Kind, title: String, in parent: String?, options: LibraryOptions) throws {
        try checkTitle(title, kind)
        let library = try options.open()
        let folder = try parent.map { name in try library.withCurrentLibrary { try Lookup.folder(name) } }
        var identifier = ""
        try library.performChangesAndWait {
            let placeholder =
                switch kind {
                case .album: PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title).placeholderForCreatedAssetCollection
                case .folder: PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: title).placeholderForCreatedCollectionList
                }
            identifier = placeholder.localIdentifier
            if let folder { PHCollectionListChangeRequest(for: folder)?.addChildCollections([placeholder] as NSArray) }
        }
        if options.json { Output.json(["localIdentifier": identifier, "title": title]) } else { options.say(identifier) }
    }

    static func rename(_ kind: Kind, _ name: String, to title: String, options: LibraryOptions) throws {
        try checkTitle(title, kind)
        let library = try options.open()
        let collection = try library.withCurrentLibrary { try kind.lookup(name) }
        try library.performChangesAndWait {
            if let album = collection as? PHAssetCollection { PHAssetCollectionChangeRequest(for: album)?.title = title }
            if let folder = collection as? PHCollectionList { PHCollectionListChangeRequest(for: folder)?.title = title }
        }
        options.say("Renamed \(collection.localIdentifier) to \(title)")
    }

    static func delete(_ kind: Kind, _ names: [String], options: LibraryOptions) throws {
        let library = try options.open()
        let collections = try library.withCurrentLibrary { try names.map(kind.lookup) }
        try library.performChangesAndWait {
            switch kind {
            case .album: PHAssetCollectionChangeRequest.deleteAssetCollections(collections as NSArray)
            case .folder: PHCollectionListChangeRequest.deleteCollectionLists(collections as NSArray)
            }
        }
        options.say("Deleted \(collections.count) \(kind.rawValue)\(collections.count == 1 ? "" : "s")")
    }
}
