import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos index`: the search index, its state, and bringing it up to date.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Show or update the search index (places and words).",
        discussion: """
            The index follows the library's change history from a token it keeps
            in the library: each run reads only what changed since the last, and a
            run that is stopped resumes where it was. `photos serve` keeps it up
            to date in the background; `photos search` updates it first.

            Examples:
              photos index status
              photos index run
              photos index rebuild     # everything again, from the next run
            """,
        subcommands: [Status.self, Run.self, Rebuild.self])

    /// Brings the index up to date before a search, when this process may
    /// write the library; says on standard error why not, and searches what
    /// the index holds.
    static func bringUpToDate(_ library: PHPhotoLibrary) {
        do {
            try LibraryIndexer(library: library).catchUp()
        } catch {
            Output.errorLine("photos: the search index was not brought up to date (\(CLIError.message(error))); searching what it holds")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "How much of the library the index covers, and how far behind it is.",
            discussion: """
                Each kind of understanding says its phase (notStarted, wholePass, following),
                the change blocks it has yet to index, and the process running it, if any.

                Examples:
                  photos index status
                  photos index status --json
                """)

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let status = try LibraryIndexer(library: library).status()
            if options.json {
                Output.json([
                    "assets": status.assets, "searchable": status.searchable, "located": status.located,
                    "kinds": status.kinds.map { kind in
                        [
                            "name": kind.name, "phase": kind.phase.rawValue, "pendingChanges": kind.pendingChanges, "indexed": kind.indexed,
                            "holder": kind.holder as Any, "updatedAt": Output.jsonDate(kind.updatedAt),
                        ] as [String: Any]
                    },
                ])
            } else if !options.quiet {
                Output.line("\(status.searchable) of \(status.assets) assets searchable, \(status.located) with a place")
                Output.table(
                    ["KIND", "PHASE", "PENDING", "INDEXED", "UPDATED", "RUNNING IN"],
                    status.kinds.map { kind in
                        [
                            kind.name, kind.phase.rawValue, "\(kind.pendingChanges) changes", String(kind.indexed), Output.date(kind.updatedAt),
                            kind.holder.map(Output.escaped) ?? "-",
                        ]
                    })
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Index what is not indexed yet, then stop.",
            discussion: """
                A kind another process is indexing (a running `photos serve`) is left to it.

                Examples:
                  photos index run
                  photos index run --json
                """)

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let run = try LibraryIndexer(library: library).catchUp()
            if options.json {
                Output.json(["indexed": run.indexed, "removed": run.removed, "heldElsewhere": run.heldElsewhere])
            } else if !options.quiet {
                Output.line("indexed \(run.indexed), removed \(run.removed)")
                for kind in run.heldElsewhere { Output.line("\(kind): another process is indexing it") }
            }
        }
    }

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Index the whole library again, from the next run; what is indexed stays searchable meanwhile.",
            discussion: """
                Examples:
                  photos index rebuild && photos index run
                """)

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            try LibraryIndexer(library: library).reindex()
            if !options.quiet { Output.line("the index will be rebuilt by the next `photos index run` or `photos serve`") }
        }
    }
}
