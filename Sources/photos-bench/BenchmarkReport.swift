import Foundation

/// `photos-bench all`: every suite run `runs` times, each run in a fresh
/// child process (so that memory figures, caches and the allocator's state
/// are each run's alone), its lines echoed as they come; then, for each
/// row, the median of its runs with a 95 % bootstrap interval, judged
/// against the target by the interval's upper bound; then BENCHMARKS.md:
/// every row with every run's figure, the machine, the date and the commit.
struct BenchmarkReport {
    let workdir: URL
    let quick: Bool
    let report: URL?
    /// Fresh-process runs of each suite.
    let runs: Int
    /// The words that choose which suites run (a suite runs when its name
    /// starts with one), or nil for every suite.
    var only: [String]? = nil
    /// The library sizes the sized suites run at, or nil for the default.
    var sizes: [Int]? = nil

    /// The library sizes the sized suites run at by default. In full, fetches
    /// and observation run at three, since what dominates at one size
    /// (reading a million ids) hides costs at another.
    private var defaultSizes: [Int] { quick ? [2000] : [10_000, 100_000, 1_000_000] }

    /// The suites a run chooses from: the sized ones at the sizes asked for.
    private var suites: [(name: String, arguments: [String])] { suites(sizes: sizes ?? defaultSizes) }

    /// The suites the report shows: the sized ones at the default sizes and
    /// at any other asked for, so that rerunning one size leaves the others'
    /// kept runs in the report.
    private var reportedSuites: [(name: String, arguments: [String])] {
        suites(sizes: Array(Set(defaultSizes + (sizes ?? []))).sorted())
    }

    /// Each suite's command line, in full or in quick form, with the sized
    /// suites at `sizes`.
    private func suites(sizes: [Int]) -> [(name: String, arguments: [String])] {
        var suites: [(name: String, arguments: [String])] = []
        for suite in ["fetch", "observe"] {
            suites += sizes.map { size in ("\(suite), \(size) assets", [suite, "--assets", String(size)]) }
        }
        return suites + [
            ("history", ["history", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--changes", "500"] : [])),
            ("search", ["search", "--assets", quick ? "2000" : "100000"] + (quick ? ["--quick"] : [])),
            ("text", ["text"] + (quick ? ["--quick"] : [])),
            ("faces", ["faces"] + (quick ? ["--quick"] : [])),
            ("media", ["media"] + (quick ? ["--quick"] : [])),
            ("serve", ["serve", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--quick"] : [])),
            ("gallery", ["gallery", "--assets", quick ? "4000" : "2000000"] + (quick ? ["--quick"] : [])),
            ("postgres", ["postgres", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--quick"] : [])),
        ]
    }

    /// Runs the chosen suites, keeps their runs beside the report, and
    /// writes the report from every suite's kept runs: those of this
    /// invocation and, for suites it did not run, those an earlier one kept
    /// (each section says its commit and date), since the whole set takes
    /// longer than one sitting.
    func run() throws {
        let chosen = suites.filter { suite in only.map { $0.contains { suite.name.hasPrefix($0) } } ?? true }
        guard !chosen.isEmpty else { throw BenchError("no suite's name starts with \(only ?? [])") }
        let startedServices = chosen.contains { $0.name == "postgres" } ? try startServicesIfNeeded() : nil
        defer { if let startedServices { Self.services("stop", startedServices) } }
        for suite in chosen {
            var outputs: [[String]] = []
            for run in 1...runs {
                FileHandle.standardOutput.write(Data("== \(suite.name), run \(run) of \(runs)\n".utf8))
                outputs.append(try runSuite(suite.arguments + ["--workdir", workdir.path]))
            }
            let result = try SuiteResult(suite: suite.name, outputs: outputs)
            FileHandle.standardOutput.write(Data("== \(suite.name): the medians of \(runs) runs\n".utf8))
            for row in result.rows { FileHandle.standardOutput.write(Data((row.summary + "\n").utf8)) }
            if let report {
                try StoredRuns(suite: suite.name, commit: Self.commit(), date: Date(), machine: Self.machine(), quick: quick, outputs: outputs)
                    .save(in: report.deletingLastPathComponent().appendingPathComponent(StoredRuns.folder))
            }
        }
        guard let report else { return }
        try write(report)
    }

    /// Writes `report`, and its charts, from every suite's runs kept beside
    /// it; runs nothing. `photos-bench report` is this alone.
    func write(_ report: URL) throws {
        let folder = report.deletingLastPathComponent().appendingPathComponent(StoredRuns.folder)
        let stored = try reportedSuites.compactMap { try StoredRuns.load(suite: $0.name, from: folder) }.filter { $0.quick == quick }
        let results = try stored.map { try SuiteResult(suite: $0.suite, outputs: $0.outputs) }
        let charts = try writeCharts(results, beside: report)
        let missing = reportedSuites.map(\.name).filter { name in !stored.contains { $0.suite == name } }
        try markdown(zip(stored, results).map { $0 }, missing: missing, charts: charts).write(to: report, atomically: true, encoding: .utf8)
        FileHandle.standardOutput.write(Data("wrote \(report.path) and \(charts.count) charts in \(Self.chartFolder)/\n".utf8))
    }

    /// The folder beside the report that holds its charts.
    static let chartFolder = "benchmark-charts"

    /// The charts of `results`, keyed by what they show: a suite's name (its
    /// ratios) or a scaling row's title; the values are paths relative to the
    /// report. Writes them into ``chartFolder``, emptied first.
    private func writeCharts(_ results: [SuiteResult], beside report: URL) throws -> [String: String] {
        let folder = report.deletingLastPathComponent().appendingPathComponent(Self.chartFolder)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var charts: [String: String] = [:]
        func write(_ svg: String, title: String) throws {
            let name = BenchmarkCharts.fileName(title)
            try svg.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            charts[title] = "\(Self.chartFolder)/\(name)"
        }
        for result in results {
            let rows = result.rows.compactMap { row in
                row.comparisonTarget.map { BenchmarkCharts.RatioRow(name: row.name, ratios: row.ratios, interval: BootstrapInterval(row.ratios), target: $0) }
            }
            if !rows.isEmpty { try write(BenchmarkCharts.ratios(title: "\(result.suite): every run's ratio", rows: rows), title: result.suite) }
        }
        for scaling in ScalingRow.all(in: results) {
            try write(
                BenchmarkCharts.scaling(
                    title: scaling.title, sizes: scaling.sizes,
                    series: [
                        BenchmarkCharts.Series(
                            label: "ours", colour: BenchmarkCharts.oursColour, intervals: scaling.rows.map { BootstrapInterval($0.sides.ours) }),
                        BenchmarkCharts.Series(
                            label: "baseline", colour: BenchmarkCharts.baselineColour, intervals: scaling.rows.map { BootstrapInterval($0.sides.baseline) }),
                    ]), title: scaling.title)
        }
        return charts
    }

    /// Starts PostgreSQL and the S3-compatible server with `script/services`
    /// (run from the repository) when the environment names none, and puts
    /// their variables in this process's environment, which the suites
    /// inherit. Returns the directory to stop them with, or nil when they
    /// were already running.
    private func startServicesIfNeeded() throws -> URL? {
        guard BenchServices.fromEnvironment() == nil else { return nil }
        let directory = workdir.appendingPathComponent("services-\(ProcessInfo.processInfo.processIdentifier)")
        guard Self.services("start", directory) else {
            throw BenchError("script/services could not start PostgreSQL and the S3 server (run photos-bench from the repository)")
        }
        let variables = try String(contentsOf: directory.appendingPathComponent("env"), encoding: .utf8)
        for line in variables.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if assignment.count == 2 { setenv(String(assignment[0]), String(assignment[1]), 1) }
        }
        return directory
    }

    /// Runs `script/services COMMAND DIRECTORY`; returns whether it succeeded.
    @discardableResult
    private static func services(_ command: String, _ directory: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "script/services")
        process.arguments = [command, directory.path]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Runs `photos-bench ARGUMENTS` and returns its lines; fails when it does.
    private func runSuite(_ arguments: [String]) throws -> [String] {
        let child = try ChildProcess.start(arguments)
        let (process, output) = (child.process, child.output)
        var lines: [String] = []
        var pending = Data()
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            FileHandle.standardOutput.write(chunk)
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("photos-bench \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return lines
    }

    private func markdown(_ suites: [(StoredRuns, SuiteResult)], missing: [String], charts: [String: String]) -> String {
        var text = """
            # Benchmarks

            Generated by `swift run -c release photos-bench all\(quick ? " --quick` (small sizes: these figures say nothing about speed)" : "`"), \
            each suite's runs kept in `\(StoredRuns.folder)/` and this page written from them. Every suite ran \
            several times, each time in a fresh process; each section gives the machine, the commit, the date and \
            the number of runs. In a run, each row times ours and its baseline in turns, in an order drawn afresh \
            for every turn, and keeps each side's fastest turn; the ratio is ours over the baseline. A row's figures \
            are the medians of its runs, with a 95 % bootstrap confidence interval for the median ratio; a row is \
            within its target only when the interval's upper bound is. Commits are durable on both sides: every \
            change block, and every baseline transaction that writes, is synced to disk before it returns \
            (SQLite's `synchronous = FULL`). The gallery's rows are distributions of turns instead, each turn in a \
            fresh browser (for first paint, with a fresh server too): a row pools every run's turns and gives their \
            median, or the percentile it names, with a bootstrap interval of it. \
            Regenerate by hand after a change that matters for speed: \
            `photos-bench all --only fetch,observe --sizes 10000` reruns those suites and rewrites the page.

            """
        if !missing.isEmpty {
            text += "\nNot yet run under this protocol: " + missing.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
        }
        for (stored, result) in suites {
            text +=
                "\n## \(result.suite)\n\n"
                + "\(stored.outputs.count) run\(stored.outputs.count == 1 ? "" : "s") on \(stored.machine), at commit \(stored.commit), "
                + "\(ISO8601DateFormatter().string(from: stored.date)).\n\n"
                + "| Benchmark | Ours (median) | Baseline (median) | Ratio, median [95 % interval] | Every run | Target | |\n"
                + "|---|---:|---:|---:|---|---:|---|\n"
            for row in result.rows { text += row.markdown + "\n" }
            if let chart = charts[result.suite] { text += "\n![Every run's ratio in \(result.suite)](\(chart))\n" }
            if !result.notes.isEmpty { text += "\nFrom the last run:\n\n" + result.notes.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        }
        let scaling = ScalingRow.all(in: suites.map(\.1)).compactMap { row in charts[row.title].map { (row.title, $0) } }
        if !scaling.isEmpty {
            text += "\n## Cost against library size\n\nEach side's median time over the runs at each size, with its 95 % interval.\n"
            for (title, chart) in scaling { text += "\n![\(title)](\(chart))\n" }
        }
        return text
    }

    /// The commit the report was made at, as `git` names it.
    private static func commit() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["rev-parse", "--short", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
    }

    /// Cores, memory, processor and system, from /proc.
    private static func machine() -> String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let system =
            (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }?
            .dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "Linux"
        return String(format: "%d cores (%@), %.0f GiB, %@", ProcessInfo.processInfo.activeProcessorCount, cpu, memory, system)
    }
}
