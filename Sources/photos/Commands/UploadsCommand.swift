import ArgumentParser
import Foundation
import Photos
import PhotosServer

/// `photos uploads ...`: the uploads `photos serve` keeps while they arrive.
struct UploadsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploads",
        abstract: "List and remove the unfinished uploads `photos serve` keeps.",
        discussion: """
            An upload stays in the library's uploads/ folder until a change block makes it an
            asset. The server removes those that received nothing for a day and those of tokens
            revoked or expired; these commands show and clear them at once (owner only).

            Examples:
              photos uploads ls
              photos uploads rm 0123456789abcdef0123456789abcdef
              photos uploads rm --token j4q5yvfw3a7x
              photos uploads rm --all
            """,
        subcommands: [List.self, Remove.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List unfinished uploads, oldest first.")
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let uploads = try UnfinishedUploads(library: options.open()).list()
            if options.json {
                Output.json(
                    uploads.map {
                        [
                            "id": $0.id, "token": $0.tokenID, "filename": $0.filename, "length": $0.length, "received": $0.received,
                            "created": Output.jsonDate($0.creationDate), "lastWrite": Output.jsonDate($0.lastWriteDate),
                        ] as [String: Any]
                    })
            } else if !options.quiet {
                Output.table(
                    ["ID", "TOKEN", "RECEIVED", "LAST WRITE", "FILE"],
                    uploads.map {
                        [$0.id, $0.tokenID, "\($0.received) of \($0.length) bytes", Output.date($0.lastWriteDate), $0.filename]
                    })
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove unfinished uploads and what they received.")
        @Argument(help: "The uploads' ids.") var ids: [String] = []
        @Option(help: ArgumentHelp("Remove every upload of this token.", valueName: "token id")) var token: String?
        @Flag(help: "Remove every unfinished upload.") var all = false
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard [!ids.isEmpty, token != nil, all].filter({ $0 }).count == 1 else {
                throw ValidationError("give upload ids, or --token ID, or --all")
            }
        }

        func run() throws {
            let uploads = try UnfinishedUploads(library: options.open())
            let chosen = all ? uploads.list().map(\.id) : token.map { token in uploads.list().filter { $0.tokenID == token }.map(\.id) } ?? ids
            for id in chosen { try uploads.remove(id: id) }
            options.say("Removed \(chosen.count) upload\(chosen.count == 1 ? "" : "s")")
        }
    }
}
