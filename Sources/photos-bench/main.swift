// photos-bench: OpenPhotoKit against baselines run in the same process.
//
//   swift run -c release photos-bench fetch [--assets N] [--workdir DIR]
//   swift run -c release photos-bench observe [--assets N] [--workdir DIR]
//   swift run -c release photos-bench history [--assets N] [--workdir DIR]
//   swift run -c release photos-bench search [--quick] [--assets N] [--workdir DIR]
//   swift run -c release photos-bench text [--quick] [--workdir DIR]
//   swift run -c release photos-bench faces [--quick] [--workdir DIR]
//   swift run -c release photos-bench media [--quick] [--workdir DIR]
//   swift run -c release photos-bench serve [--quick] [--assets N] [--workdir DIR]
//   swift run -c release photos-bench postgres [--quick] [--assets N] [--workdir DIR]
//   swift run -c release photos-bench all [--quick] [--report FILE] [--workdir DIR]
//
// Each suite prints `name: ours X ms, baseline Y ms, ratio R`, each side's
// fastest of several turns taken in random order; `all` runs every suite in
// fresh processes several times and reports each row's median with its interval,
// keeping each suite's runs so that a report can gather suites run at different times.
import Foundation
import Photos

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Prints how the command is used and exits: 0 when asked for (`--help`), 2 after a mistake.
func usage(asked: Bool = false) -> Never {
    print(
        """
        usage: photos-bench fetch|observe|history|search|text|faces|media|serve|gallery|postgres|all|report [--assets N] [--changes N] [--quick] [--runs N]
                            [--only SUITE,...] [--sizes N,...] [--report FILE] [--workdir DIR]

          fetch     fetches, enumeration and commits on a library of N assets (default 1,000,000),
                    against GRDB and SQLite's C API; cold, and beside another process's commits
          observe   change details on that library, the general diff, cross-process delivery
          history   reading 100,000 change blocks, asking with nothing new on that library,
                    the cost of writing history, commits while pruning
          search    indexing places and words for search against the same work written plainly on
                    GRDB, and searches (a word, a place, a combined query) on a library of N assets
                    (default 1,000,000), each side's 95th percentile against the same FTS5 query by hand
          text      reading text in photos (camera photos and rendered pages) with the indexer against
                    Tesseract called directly on the same files, and the words missed on a labelled set
          faces     finding faces and grouping them into people with the indexer against dlib called
                    directly on the same files, and the clustering's pairwise F1 on a labelled set
          media     thumbnails from originals against the same work in libvips, bare vips_thumbnail
                    and libjpeg's decode floor (and their SSIM), thumbnails from derivatives, importing
                    24 MP photos against the same work done plainly, on every core and on one
          serve     photos serve: thumbnails against nginx (wrk, 64 connections), the timeline of
                    N assets, events from another process, idle and stalled streams, uploads
          gallery   the web gallery in headless Chromium on N assets (default 2,000,000): first
                    paint, long tasks, the oldest asset reached, change to animation, heap
          postgres  on the servers script/services starts (its variables in the environment): fetches
                    of N assets (default 1,000,000) and a 10,000-asset block against postgres-nio by
                    hand, a commit through one server to another's event stream, 4 writer processes
                    on SQLite and PostgreSQL, importing with the originals in object storage
          all       every suite above, --runs N times (default 10; 2 with --quick), each run in a
                    fresh child process, then each row's median over the runs with its 95 %
                    bootstrap interval, and the report: BENCHMARKS.md (or --report FILE);
                    --quick runs them small, to check they run, and writes no report unless
                    --report is given; --only runs the suites whose names start with those
                    words, --sizes the sized ones (fetch, observe) at those sizes; each suite's
                    runs are kept in benchmark-results/ beside the report, which is written
                    from every suite kept there, with its SVG charts in benchmark-charts/
          report    writes the report (--report FILE, default BENCHMARKS.md) and its charts again
                    from the runs kept beside it, running nothing
        """)
    exit(asked ? 0 : 2)
}

// Asked anywhere, help is all that runs: a suite named beside it would otherwise start a long run.
if arguments.contains("--help") || arguments.contains("-h") { usage(asked: true) }
guard let suite = arguments.first else { usage() }

/// What an option takes.
enum OptionValue {
    /// Nothing: the option is a flag.
    case none
    /// A whole number of at least `least`.
    case number(least: Int)
    /// Any text: a path, a list.
    case text
}

/// Every option, the suites' own and those `all` passes to the child
/// processes it starts; any other stops the command before anything runs.
let options: [String: OptionValue] = [
    "--assets": .number(least: 1), "--changes": .number(least: 1), "--runs": .number(least: 1), "--count": .number(least: 1),
    "--pause-ms": .number(least: 0), "--only": .text, "--sizes": .text, "--report": .text, "--workdir": .text, "--library": .text,
    "--list": .text, "--quick": .none, "--baseline": .none,
]

/// Writes what is wrong with the command line, then its usage, and exits.
func refuse(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("photos-bench: \(problem)\n".utf8))
    usage()
}

var position = 1
while position < arguments.count {
    let name = arguments[position]
    guard let takes = options[name] else { refuse("unknown option \(name)") }
    switch takes {
    case .none:
        position += 1
        continue
    case .text:
        guard position + 1 < arguments.count else { refuse("\(name) needs a value") }
    case .number(let least):
        guard position + 1 < arguments.count, let number = Int(arguments[position + 1]), number >= least else {
            refuse("\(name) takes a whole number of at least \(least)")
        }
    }
    position += 2
}
let workdir = URL(fileURLWithPath: option("--workdir") ?? FileManager.default.temporaryDirectory.appendingPathComponent("photos-bench").path)

do {
    switch suite {
    case "fetch":
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        try FetchBenchmarks(assetCount: assets, workdir: workdir).run()
    case "observe":
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        try ObserveBenchmarks(assetCount: assets, workdir: workdir).run()
    case "history":
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        var benchmarks = HistoryBenchmarks(assetCount: assets, workdir: workdir)
        if let changes = option("--changes").flatMap(Int.init) { benchmarks.changeCount = changes }
        try benchmarks.run()
    case "search":
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        try SearchBenchmarks(assetCount: assets, workdir: workdir, quick: arguments.contains("--quick")).run()
    case "text":
        try TextBenchmarks(workdir: workdir, quick: arguments.contains("--quick")).run()
    case "faces":
        try FaceBenchmarks(workdir: workdir, quick: arguments.contains("--quick")).run()
    case "text-samples":
        // The text suite's labelled set alone, for script/compare-text-engines.
        try TextBenchmarks.writeSamples(to: workdir)
    case "media":
        try MediaBenchmarks(workdir: workdir, quick: arguments.contains("--quick")).run()
    case "serve":
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        try await ServeBenchmarks(workdir: workdir, assetCount: assets, quick: arguments.contains("--quick")).run()
    case "gallery":
        let assets = option("--assets").flatMap(Int.init) ?? 2_000_000
        try await GalleryBenchmarks(workdir: workdir, assetCount: assets, quick: arguments.contains("--quick")).run()
    case "postgres":
        guard let services = BenchServices.fromEnvironment() else {
            throw BenchError("the postgres suite needs the servers script/services starts: run `script/services start DIR` and `. DIR/env` first")
        }
        let assets = option("--assets").flatMap(Int.init) ?? 1_000_000
        try await PostgresBenchmarks(assetCount: assets, workdir: workdir, quick: arguments.contains("--quick"), services: services).run()
    case "serve-child":
        // The server alone in a process, for the serve benchmarks.
        guard let location = option("--library") else { usage() }
        try await ServeBenchmarks.serveChild(library: PHPhotoLibrary.libraryURL(location))
    case "write-child":
        // One of the writers of the postgres suite's throughput row.
        guard let location = option("--library"), let count = option("--count").flatMap(Int.init) else { usage() }
        try PostgresBenchmarks.writeBlocks(library: PHPhotoLibrary.libraryURL(location), count: count)
    case "all":
        let quick = arguments.contains("--quick")
        let report = option("--report").map { URL(fileURLWithPath: $0) } ?? (quick ? nil : URL(fileURLWithPath: "BENCHMARKS.md"))
        let runs = option("--runs").flatMap(Int.init).map { max(1, $0) } ?? (quick ? 2 : 10)
        var benchmarks = BenchmarkReport(workdir: workdir, quick: quick, report: report, runs: runs)
        benchmarks.only = option("--only").map { $0.split(separator: ",").map(String.init) }
        if let sizes = option("--sizes") {
            let parsed = sizes.split(separator: ",").compactMap { Int($0) }
            guard !parsed.isEmpty, parsed.count == sizes.split(separator: ",").count else { usage() }
            benchmarks.sizes = parsed
        }
        try benchmarks.run()
    case "report":
        let report = URL(fileURLWithPath: option("--report") ?? "BENCHMARKS.md")
        try BenchmarkReport(workdir: workdir, quick: arguments.contains("--quick"), report: report, runs: 0).write(report)
    case "import-child":
        // Runs in a child process so that its peak memory is the import's alone, and to pin it to one core.
        guard let path = option("--library"), let list = option("--list") else { usage() }
        try MediaBenchmarks.importInChild(
            library: URL(fileURLWithPath: path), list: URL(fileURLWithPath: list),
            baseline: arguments.contains("--baseline"))
    case "commit-child":
        // Commits from a second process, for delivery across processes and fetches beside a writer.
        // Without --count, commits until standard input closes.
        guard let path = option("--library") else { usage() }
        try ObserveBenchmarks.commitForLatency(
            library: URL(fileURLWithPath: path), count: option("--count").flatMap(Int.init),
            pause: Double(option("--pause-ms").flatMap(Int.init) ?? 5) / 1000)
    case "enumerate-child":
        // Runs in a child process so that its peak memory is the enumeration's alone.
        guard let location = option("--library") else { usage() }
        try FetchBenchmarks.enumerateForMemory(library: PHPhotoLibrary.libraryURL(location))
    default:
        usage()
    }
} catch {
    FileHandle.standardError.write(Data("photos-bench: \(error)\n".utf8))
    exit(1)
}
