import Foundation

/// `photos-bench all`: every suite in a child process of its own (so that
/// memory figures and caches are each suite's alone), its lines echoed as
/// they come, then BENCHMARKS.md: each figure with its baseline, ratio and
/// target, the machine and the date.
struct BenchmarkReport {
    let workdir: URL
    let quick: Bool
    let report: URL?

    /// One suite's command line, in full and in quick form.
    private var suites: [(name: String, arguments: [String])] {
        [
            ("fetch", ["fetch", "--assets", quick ? "2000" : "1000000"]),
            ("observe", ["observe", "--assets", quick ? "2000" : "1000000"]),
            ("history", ["history", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--changes", "500"] : [])),
            ("media", ["media"] + (quick ? ["--quick"] : [])),
            ("serve", ["serve", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--quick"] : [])),
            ("gallery", ["gallery", "--assets", quick ? "4000" : "2000000"] + (quick ? ["--quick"] : [])),
            ("postgres", ["postgres", "--assets", quick ? "2000" : "1000000"] + (quick ? ["--quick"] : [])),
        ]
    }

    func run() throws {
        let startedServices = try startServicesIfNeeded()
        defer { if let startedServices { Self.services("stop", startedServices) } }
        var results: [(suite: String, lines: [String])] = []
        for suite in suites {
            FileHandle.standardOutput.write(Data("== \(suite.name)\n".utf8))
            results.append((suite.name, try runSuite(suite.arguments + ["--workdir", workdir.path])))
        }
        guard let report else { return }
        try markdown(results).write(to: report, atomically: true, encoding: .utf8)
        FileHandle.standardOutput.write(Data("wrote \(report.path)\n".utf8))
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

    /// A line for an absolute target, as `Measure.reportAbsolute` prints it.
    private static let absolute = try! NSRegularExpression(
        pattern: #"^(.*): ours ([0-9.]+) (ms|MB) \(target <= ([0-9.]+) (ms|MB), (within|OVER)\)$"#)

    /// A line for an absolute target met by a distribution of runs, as the gallery suite prints it.
    private static let distribution = try! NSRegularExpression(
        pattern: #"^(.*): ours (median|p[0-9]+) ([0-9.]+) (ms|MB) \[([0-9.]+), ([0-9.]+)\] over ([0-9]+) runs \((.*)\) \(target <= ([0-9.]+) (ms|MB), (within|OVER)\)$"#)

    /// A comparison line as `Measure.report` prints it.
    private static let comparison = try! NSRegularExpression(
        pattern: #"^(.*): ours ([0-9.]+) ms, baseline ([0-9.]+) ms, ratio ([0-9.]+) \(target <= ([0-9.]+), (within|OVER)\)$"#)

    private func markdown(_ results: [(suite: String, lines: [String])]) -> String {
        var text = """
            # Benchmarks

            Generated by `swift run -c release photos-bench all`\(quick ? " --quick (small sizes: these figures say nothing about speed)" : "") \
            on \(Self.machine()), \(ISO8601DateFormatter().string(from: Date())).
            Each figure is the best of several runs; the baseline runs in the same process, and the ratio is ours over
            the baseline. Commits are durable on both sides: every change block, and every baseline changeBlock
            that writes, is synced to disk before it returns (SQLite's `synchronous = FULL`). Regenerate by hand
            after a change that matters for speed.

            """
        for (suite, lines) in results {
            text += "\n## \(suite)\n\n| Benchmark | Ours (ms, or as given) | Baseline (ms) | Ratio | Target | |\n|---|---:|---:|---:|---:|---|\n"
            var notes: [String] = []
            for line in lines {
                let range = NSRange(line.startIndex..., in: line)
                if let match = Self.comparison.firstMatch(in: line, range: range) {
                    let field = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
                    text += "| \(field(1)) | \(field(2)) | \(field(3)) | **\(field(4))** | ≤ \(field(5)) | \(field(6)) |\n"
                } else if let match = Self.absolute.firstMatch(in: line, range: range) {
                    let field = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
                    text += "| \(field(1)) | **\(field(2)) \(field(3))** | — | — | ≤ \(field(4)) \(field(5)) | \(field(6)) |\n"
                } else if let match = Self.distribution.firstMatch(in: line, range: range) {
                    let field = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
                    text += "| \(field(1)) (\(field(7)) runs: \(field(8))) | **\(field(2)) \(field(3)) \(field(4))** [\(field(5)), \(field(6))] "
                        + "| — | — | ≤ \(field(9)) \(field(10)) | \(field(11)) |\n"
                } else if !line.isEmpty {
                    notes.append(line.trimmingCharacters(in: .whitespaces))
                }
            }
            if !notes.isEmpty { text += "\n" + notes.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        }
        return text
    }

    /// Cores, memory, processor and system, from /proc.
    private static func machine() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let system = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }?
            .dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "Linux"
        return String(format: "%d cores (%@), %.0f GiB, %@", ProcessInfo.processInfo.activeProcessorCount, cpu, memory, system)
    }
}
