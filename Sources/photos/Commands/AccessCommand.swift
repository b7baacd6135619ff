import ArgumentParser
import Foundation
import Photos

/// `photos access ...`: what client processes may do with the library.
struct AccessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Grant, revoke and list client processes' access to the library.",
        discussion: """
            A process that sets PHOTOS_CLIENT_ID=NAME is the client NAME and gets the
            access granted here; without it, a process is the library's owner.

            Examples:
              photos access grant com.example.viewer --full
              photos access grant com.example.picker --limited ID1 ID2
              photos access grant com.example.camera --add-only
              photos access revoke com.example.viewer
              photos access ls
            """,
        subcommands: [Grant.self, Revoke.self, List.self])

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Grant a client full, limited or add-only access.")
        @Argument(help: "The client identifier.") var client: String
        @Flag(help: "Read and change the whole library.") var full = false
        @Flag(help: "Create assets and read nothing.") var addOnly = false
        @Option(parsing: .upToNextOption, help: ArgumentHelp("Only these assets (added to the client's selection).", valueName: "id"))
        var limited: [String] = []
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            let chosen = [full, addOnly, !limited.isEmpty].filter { $0 }.count
            guard chosen == 1 else { throw ValidationError("give exactly one of --full, --add-only or --limited ID...") }
        }

        func run() throws {
            let library = try options.open()
            if !limited.isEmpty {
                let assets = try library.withCurrentLibrary { try Lookup.assets(limited) }
                try library.setAccess(.limited, forClient: client)
                try library.addToLimitedSelection(assets.map(\.localIdentifier), ofClient: client)
                options.say("\(client): limited to \(try library.limitedSelection(ofClient: client).count) assets")
            } else {
                try library.setAccess(full ? .readWrite : .addOnly, forClient: client)
                options.say("\(client): \(full ? "full access" : "add-only")")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deny a client any access.")
        @Argument(help: "The client identifier.") var client: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            try options.open().setAccess(.denied, forClient: client)
            options.say("\(client): denied")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List clients and their access.")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let clients = try options.open().clientAccess()
            let name = { (grant: PHPhotoLibrary.ClientAccessGrant?) -> String in
                switch grant {
                case .readWrite: "full"
                case .limited: "limited"
                case .addOnly: "add-only"
                case .denied: "denied"
                case .sharedAlbum: "shared album"
                case nil: "undecided"
                }
            }
            if options.json {
                Output.json(
                    clients.map {
                        [
                            "client": $0.clientIdentifier, "access": name($0.grant), "selectedAssets": $0.selectedAssetCount,
                            "requested": Output.jsonDate($0.requestDate),
                        ] as [String: Any]
                    })
            } else if !options.quiet {
                Output.table(
                    ["CLIENT", "ACCESS", "SELECTED", "REQUESTED"],
                    clients.map {
                        [$0.clientIdentifier, name($0.grant), "\($0.selectedAssetCount)", Output.date($0.requestDate)]
                    })
            }
        }
    }
}
