import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos index`: the search index, its state, and bringing it up to date.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Show or update the search index (places, words, text in photos, look-alikes).",
        discussion: """
            The index follows the library's change history from a token it keeps
            in the library: each run reads only what changed since the last, and a
            run that is stopped resumes where it was. `photos serve` keeps it up
            to date in the background; `photos search` brings places and words up
            to date first. Kinds: metadata (places and the assets' own words,
            microseconds a photo), text (text read in photos by Tesseract,
            from 50 ms to seconds a photo; needs tesseract-ocr-eng, or the
            package of each language read) and similarity (a perceptual hash of
            each photo's thumbnail, for `photos similar`; milliseconds a photo).

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
            // Places and words only: reading text can take hours, and is the background's.
            try LibraryIndexer(library: library, kinds: [.metadata]).catchUp()
        } catch {
            Output.errorLine("photos: the search index was not brought up to date (\(CLIError.message(error))); searching what it holds")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "How much of the library the index covers, and how far behind it is.",
            discussion: """
                Each kind of understanding says its phase (notStarted, wholePass, following,
                unavailable: its model is not installed), the change blocks it has yet to
                index, and the process running it, if any.

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
                            "unavailableReason": kind.unavailableReason as Any,
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
                for kind in status.kinds { if let reason = kind.unavailableReason { Output.line("\(kind.name): \(reason)") } }
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Index what is not indexed yet, then stop.",
            discussion: """
                A kind another process is indexing (a running `photos serve`) is left to it,
                as is a kind whose model is not installed. Text is read in English unless
                --text-languages names others (Tesseract's names joined by +, each from its
                Debian package: tesseract-ocr-deu for deu).

                Examples:
                  photos index run
                  photos index run --kind metadata
                  photos index run --text-languages eng+deu --json
                """)

        @OptionGroup var options: LibraryOptions
        @Option(
            name: .customLong("kind"),
            help: "A kind to index (\(IndexKind.allCases.map(\.rawValue).joined(separator: ", "))); repeat for several. Default: all.")
        var kinds: [IndexKind] = []
        @Option(help: "The languages text is read in, Tesseract's names joined by + (eng+deu).")
        var textLanguages = "eng"

        private var languages: [String] { textLanguages.split(separator: "+", omittingEmptySubsequences: false).map(String.init) }

        func validate() throws {
            if let problem = LibraryIndexer.problem(withTextLanguages: languages) { throw ValidationError("--text-languages: \(problem)") }
        }

        func run() throws {
            let library = try options.open()
            let run = try LibraryIndexer(library: library, kinds: kinds.isEmpty ? IndexKind.allCases : kinds, textLanguages: languages).catchUp()
            if options.json {
                Output.json([
                    "indexed": run.indexed, "removed": run.removed, "heldElsewhere": run.heldElsewhere.map(\.rawValue),
                    "unavailable": Dictionary(uniqueKeysWithValues: run.unavailable.map { ($0.key.rawValue, $0.value) }),
                ])
            } else if !options.quiet {
                Output.line("indexed \(run.indexed), removed \(run.removed)")
                for kind in run.heldElsewhere { Output.line("\(kind.rawValue): another process is indexing it") }
                for (kind, reason) in run.unavailable.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { Output.line("\(kind.rawValue): \(reason)") }
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

extension IndexKind: ExpressibleByArgument {}
