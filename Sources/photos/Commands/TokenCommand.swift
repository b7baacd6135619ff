import ArgumentParser
import Foundation
import Photos

/// `photos token ...`: bearer tokens for `photos serve`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke the bearer tokens `photos serve` accepts.",
        discussion: """
            A token acts for the owner (--owner) or for a client identifier, with the
            access granted to that client; the library keeps only a hash of it, so the
            token is printed once, when it is created.

            Examples:
              photos token create --owner --label admin
              photos token create --client org.example.app --full
              photos token create --client org.example.picker --limited ID1 ID2
              photos token create --client org.example.camera --add-only
              photos token share Holidays --expires 7d
              photos token ls
              photos token revoke ID
            """,
        subcommands: [Create.self, Share.self, List.self, Revoke.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token for the owner or a client, and print it.")
        @Flag(help: "A token for the library's owner, for administration.") var owner = false
        @Option(help: ArgumentHelp("The client the token acts for.", valueName: "identifier")) var client: String?
        @Flag(help: "Grant the client read and change access to the whole library.") var full = false
        @Flag(help: "Grant the client add-only access.") var addOnly = false
        @Option(parsing: .upToNextOption, help: ArgumentHelp("Limit the client to these assets.", valueName: "id"))
        var limited: [String] = []
        @Flag(help: "The token may only read.") var readOnly = false
        @Option(help: "What to call the token.") var label = ""
        @Option(help: ArgumentHelp("When it stops working: a duration such as 12h, 7d or 4w.", valueName: "duration"))
        var expires: String?
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard owner != (client != nil) else { throw ValidationError("give either --owner or --client IDENTIFIER") }
            if owner, full || addOnly || !limited.isEmpty { throw ValidationError("--owner takes no grant: the owner may do everything") }
            if [full, addOnly, !limited.isEmpty].filter({ $0 }).count > 1 {
                throw ValidationError("give at most one of --full, --add-only or --limited ID...")
            }
            _ = try expires.map(TokenCommand.expiration)
        }

        func run() throws {
            let library = try options.open()
            if let client {
                if !limited.isEmpty {
                    let assets = try library.withCurrentLibrary { try Lookup.assets(limited) }
                    try library.setAccess(.limited, forClient: client)
                    try library.addToLimitedSelection(assets.map(\.localIdentifier), ofClient: client)
                } else if full || addOnly {
                    try library.setAccess(full ? .readWrite : .addOnly, forClient: client)
                }
            }
            let issued = try library.createAccessToken(
                forClient: client, label: label, readOnly: readOnly,
                expirationDate: try expires.map(TokenCommand.expiration))
            TokenCommand.print(issued, options: options)
        }
    }

    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a share link's token: read-only, over one album as it is at each visit.",
            discussion: """
                The link reads the album's photos that are neither hidden nor deleted, and the album itself,
                nothing else. With --password-stdin, the first line of standard input is its password, which
                the gallery asks for (never on the command line, where other users could read it).

                Example:
                  photos token share Holidays --expires 7d
                  printf '%s\\n' "$PASSWORD" | photos token share Holidays --password-stdin
                """)
        @Argument(help: "The album's name or identifier.") var album: String
        @Option(help: ArgumentHelp("When it stops working: a duration such as 12h, 7d or 4w.", valueName: "duration"))
        var expires: String?
        @Flag(help: "Read the link's password from the first line of standard input.") var passwordStdin = false
        @OptionGroup var options: LibraryOptions

        func validate() throws { _ = try expires.map(TokenCommand.expiration) }

        func run() throws {
            let library = try options.open()
            let collection = try library.withCurrentLibrary { try Lookup.album(album) }
            var password: String?
            if passwordStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    throw CLIError.user("--password-stdin: standard input holds no password")
                }
                password = line
            }
            let issued = try library.createShareLink(
                for: collection, expirationDate: try expires.map(TokenCommand.expiration),
                password: password)
            TokenCommand.print(issued, options: options)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List tokens (never their secrets).")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let tokens = try options.open().accessTokens()
            if options.json {
                Output.json(tokens.map(TokenCommand.json))
            } else if !options.quiet {
                Output.table(
                    ["ID", "CLIENT", "ACCESS", "EXPIRES", "LABEL"],
                    tokens.map {
                        [
                            $0.id, $0.clientIdentifier ?? "(owner)", $0.isReadOnly ? "read-only" : "as granted",
                            $0.expirationDate.map { Output.date($0) + ($0 <= Date() ? " (expired)" : "") } ?? "never", $0.label,
                        ]
                    })
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: it stops working at once.")
        @Argument(help: "The token's id (from photos token ls).") var id: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            do {
                try options.open().revokeAccessToken(id: id)
            } catch let error as PHPhotosError where error.code == .identifierNotFound {
                throw CLIError.user("there is no token \(id) (see photos token ls)")
            }
            options.say("revoked \(id)")
        }
    }

    static func print(_ issued: PHPhotoLibrary.IssuedAccessToken, options: LibraryOptions) {
        if options.json {
            var object = json(issued.token)
            object["token"] = issued.bearer
            Output.json(object)
        } else {
            // The token alone on standard output, even with --quiet, so that
            // TOKEN=$(photos token create ...) works; it is shown only now.
            Output.line(issued.bearer)
            if !options.quiet {
                Output.errorLine("token \(issued.token.id) created; keep it: the library keeps only its hash")
            }
        }
    }

    static func json(_ token: PHPhotoLibrary.AccessToken) -> [String: Any] {
        [
            "id": token.id, "client": token.clientIdentifier as Any, "readOnly": token.isReadOnly, "label": token.label,
            "created": Output.jsonDate(token.creationDate), "expires": Output.jsonDate(token.expirationDate),
        ]
    }

    /// `12h`, `7d`, `4w` or `30m` from now.
    static func expiration(_ text: String) throws -> Date {
        let units: [Character: TimeInterval] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0, count <= 100_000 else {
            throw ValidationError("--expires \(text): give a duration such as 30m, 12h, 7d or 4w")
        }
        return Date().addingTimeInterval(Double(count) * unit)
    }
}
