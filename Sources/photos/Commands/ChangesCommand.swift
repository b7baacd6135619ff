import ArgumentParser
import Foundation
import Photos

/// `photos changes [--since TOKEN]`: the persistent history.
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Show what changed since a change token, and the token to use next time.",
        discussion: """
            Without --since, prints the current token only. Tokens are text: keep the
            last line of the output and pass it back later.

            Examples:
              photos changes > token.txt
              photos changes --since "$(tail -1 token.txt)"
              photos changes --since "$TOKEN" --json
            """)

    @Option(help: ArgumentHelp("A token printed by an earlier photos changes or photos info.", valueName: "token"))
    var since: String?

    @OptionGroup var options: LibraryOptions

    private static let types: [(PHObjectType, String)] = [(.asset, "assets"), (.assetCollection, "albums"), (.collectionList, "folders")]

    func run() throws {
        let token = try since.map(ChangeTokenText.decode)
        let library = try options.open()
        var changes: [(token: String, details: [(String, PHPersistentObjectChangeDetails)])] = []
        var newToken = library.currentChangeToken
        if let token {
            for change in try library.fetchPersistentChanges(since: token) {
                let details = try Self.types.map { type, name in (name, try change.changeDetails(for: type)) }
                changes.append((ChangeTokenText.encode(change.changeToken), details))
                newToken = change.changeToken
            }
        }
        let next = ChangeTokenText.encode(newToken)
        if options.json {
            Output.json(
                [
                    "changes": changes.map { change -> [String: Any] in
                        var json: [String: Any] = ["token": change.token]
                        for (name, details) in change.details {
                            json[name] = [
                                "inserted": details.insertedLocalIdentifiers.sorted(), "updated": details.updatedLocalIdentifiers.sorted(),
                                "deleted": details.deletedLocalIdentifiers.sorted(),
                            ]
                        }
                        return json
                    },
                    "token": next,
                ] as [String: Any])
            try options.requireAvailable(library)
            return
        }
        if !options.quiet {
            for (index, change) in changes.enumerated() {
                Output.line("change \(index + 1):")
                for (name, details) in change.details {
                    for (sign, identifiers) in [
                        ("+", details.insertedLocalIdentifiers), ("~", details.updatedLocalIdentifiers),
                        ("-", details.deletedLocalIdentifiers),
                    ] {
                        for identifier in identifiers.sorted() { Output.line("  \(sign) \(name.dropLast()) \(identifier)") }
                    }
                }
            }
            if token != nil && changes.isEmpty { Output.line("no changes") }
        }
        Output.line(next)
        try options.requireAvailable(library)
    }
}
