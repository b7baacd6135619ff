import ArgumentParser
import Foundation
import Photos

/// The identifiers and library options of a command that changes assets.
struct AssetArguments: ParsableArguments {
    @Argument(help: "The assets' local identifiers (or the UUIDs at their start).")
    var identifiers: [String]

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        guard !identifiers.isEmpty else { throw ValidationError("name at least one asset") }
    }

    /// Looks the assets up, then applies `change` to them in one change block.
    func change(includingTrashed: Bool = false, _ verb: String, _ change: @escaping ([PHAsset]) -> Void) throws {
        let library = try options.open()
        let assets = try library.withCurrentLibrary { try Lookup.assets(identifiers, includingTrashed: includingTrashed) }
        try library.performChangesAndWait { change(assets) }
        options.say("\(verb) \(assets.count) asset\(assets.count == 1 ? "" : "s")")
    }
}

struct FavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite", abstract: "Mark assets as favorites.",
        discussion: "Example: photos favorite ID1 ID2")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change("Favorited") { $0.forEach { PHAssetChangeRequest(for: $0).isFavorite = true } }
    }
}

struct UnfavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfavorite", abstract: "Unmark favorites.",
        discussion: "Example: photos unfavorite ID1")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change("Unfavorited") { $0.forEach { PHAssetChangeRequest(for: $0).isFavorite = false } }
    }
}

struct HideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide", abstract: "Hide assets (they show only in Hidden).",
        discussion: "Example: photos hide ID1")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change("Hid") { $0.forEach { PHAssetChangeRequest(for: $0).isHidden = true } }
    }
}

struct UnhideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide", abstract: "Show hidden assets again.",
        discussion: "Example: photos unhide ID1")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change("Unhid") { $0.forEach { PHAssetChangeRequest(for: $0).isHidden = false } }
    }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Move assets to Recently Deleted (kept 30 days).",
        discussion: "Example: photos delete ID1; photos restore ID1 brings it back")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change("Moved to Recently Deleted") { PHAssetChangeRequest.deleteAssets($0 as NSArray) }
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring assets back from Recently Deleted.",
        discussion: "Example: photos restore ID1")
    @OptionGroup var assets: AssetArguments
    func run() throws {
        try assets.change(includingTrashed: true, "Restored") { PHAssetChangeRequest.restoreDeletedAssets($0 as NSArray) }
    }
}

/// `photos trash ls|empty`: Recently Deleted.
struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "List or empty Recently Deleted.",
        discussion: "Examples: photos trash ls; photos trash empty",
        subcommands: [List.self, Empty.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List Recently Deleted.")
        @OptionGroup var options: LibraryOptions
        func run() throws {
            let library = try options.open()
            let assets = library.withCurrentLibrary { () -> [PHAsset] in
                let result = Lookup.trashedAssets()
                return result.objects(at: IndexSet(integersIn: 0..<result.count))
            }
            AssetDescription.print(assets, options)
            try options.requireAvailable(library)
        }
    }

    struct Empty: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "empty", abstract: "Delete everything in Recently Deleted for good, files included.")
        @OptionGroup var options: LibraryOptions
        func run() throws {
            let count = try options.open().emptyRecentlyDeleted()
            if options.json { Output.json(["deleted": count]) } else { options.say("Deleted \(count) asset\(count == 1 ? "" : "s") for good") }
        }
    }
}
