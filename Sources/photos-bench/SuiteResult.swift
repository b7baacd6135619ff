import Foundation

/// What the runs of one suite printed, row by row: each row's figure from
/// every run, summarised as a median with its interval. The rows of a
/// suite come out in the same order in every run, so a row is the figure
/// printed at the same position; a run printing other rows is an error.
struct SuiteResult {
    /// One measured line of one run.
    enum Figure {
        /// `Measure.report`: ours, the baseline (ms) and the target ratio.
        case comparison(name: String, ours: Double, baseline: Double, target: Double)
        /// `Measure.reportAbsolute`: a value in `unit` against a bound.
        case absolute(name: String, value: Double, unit: String, target: Double)
        /// A distribution of turns, as the gallery suite prints it: each
        /// turn its own fresh browser, judged by a statistic of the turns
        /// (the median, or the percentile `percentile`) against a bound.
        case distribution(name: String, turns: [Double], percentile: Double, unit: String, target: Double)

        var name: String {
            switch self {
            case .comparison(let name, _, _, _), .absolute(let name, _, _, _), .distribution(let name, _, _, _, _): name
            }
        }

        /// The name without what a run measured along the way, which is in
        /// parentheses ("(ours 4193 req/s, nginx 52184 req/s)"): what must
        /// match from run to run.
        var row: String {
            name.replacingOccurrences(of: #"\([^()]*[0-9][^()]*\)"#, with: "(…)", options: .regularExpression)
        }
    }

    /// One row over every run.
    struct Row {
        let figures: [Figure]

        /// The line printed for the row: the issue's format, the median of
        /// the runs with its interval, judged by the interval's upper bound.
        var summary: String {
            switch figures[0] {
            case .comparison(_, _, _, let target):
                let (ours, baseline, ratio) = comparison
                return String(
                    format: "%@: ours %@ ms, baseline %@ ms, ratio %.2f [%.2f, %.2f] (target <= %g, %@)",
                    name, Measure.milliseconds(ours), Measure.milliseconds(baseline), ratio.value, ratio.low, ratio.high, target,
                    ratio.high <= target ? "within" : "OVER")
            case .absolute(_, _, let unit, let target), .distribution(_, _, _, let unit, let target):
                let value = absolute
                return String(
                    format: "%@: ours %@ %@ [%@, %@] (target <= %g %@, %@)",
                    name, Self.figure(value.value, unit), unit, Self.figure(value.low, unit), Self.figure(value.high, unit), target, unit,
                    value.high <= target ? "within" : "OVER")
            }
        }

        /// The row as a line of the report's table.
        var markdown: String {
            switch figures[0] {
            case .comparison(_, _, _, let target):
                let (ours, baseline, ratio) = comparison
                let every = ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")
                return String(
                    format: "| %@ | %@ ms | %@ ms | **%.2f** [%.2f, %.2f] | %@ | ≤ %g | %@ |",
                    name, Measure.milliseconds(ours), Measure.milliseconds(baseline), ratio.value, ratio.low, ratio.high, every, target,
                    ratio.high <= target ? "within" : "OVER")
            case .absolute(_, _, let unit, let target), .distribution(_, _, _, let unit, let target):
                let value = absolute
                let every = values.map { Self.figure($0, unit) }.joined(separator: " ")
                return String(
                    format: "| %@ | **%@ %@** [%@, %@] | — | — | %@ | ≤ %g %@ | %@ |",
                    name, Self.figure(value.value, unit), unit, Self.figure(value.low, unit), Self.figure(value.high, unit), every, target, unit,
                    value.high <= target ? "within" : "OVER")
            }
        }

        /// A value in `unit`: milliseconds to four significant digits, megabytes to two decimals.
        private static func figure(_ value: Double, _ unit: String) -> String {
            unit == "ms" ? Measure.milliseconds(value) : String(format: "%.2f", value)
        }

        /// The row's name as the first run printed it.
        var name: String { figures[0].name }

        /// The target of a comparison row; nil for a row with an absolute bound.
        var comparisonTarget: Double? {
            if case .comparison(_, _, _, let target) = figures[0] { target } else { nil }
        }

        /// Each run's ratio, for a comparison row.
        var ratios: [Double] {
            figures.compactMap { if case .comparison(_, let ours, let baseline, _) = $0 { ours / baseline } else { nil } }
        }

        /// Each run's time on either side, for a comparison row.
        var sides: (ours: [Double], baseline: [Double]) {
            let pairs = figures.compactMap { figure -> (Double, Double)? in
                if case .comparison(_, let ours, let baseline, _) = figure { (ours, baseline) } else { nil }
            }
            return (pairs.map(\.0), pairs.map(\.1))
        }

        /// Each run's value for an absolute row; every run's turns, pooled, for a distribution.
        private var values: [Double] {
            figures.flatMap { figure -> [Double] in
                switch figure {
                case .absolute(_, let value, _, _): [value]
                case .distribution(_, let turns, _, _, _): turns
                case .comparison: []
                }
            }
        }

        private var comparison: (ours: Double, baseline: Double, ratio: BootstrapInterval) {
            (Measure.median(sides.ours), Measure.median(sides.baseline), BootstrapInterval(ratios))
        }

        /// The median of an absolute row's runs, or a distribution's statistic over its pooled turns, with its interval.
        private var absolute: BootstrapInterval {
            if case .distribution(_, _, let percentile, _, _) = figures[0] { return BootstrapInterval(values, percentile: percentile) }
            return BootstrapInterval(values)
        }
    }

    let suite: String
    let rows: [Row]
    /// The last run's lines that are not figures (context, reported counts).
    let notes: [String]

    /// The rows of `outputs`, one array of printed lines per run; throws
    /// when the runs did not print the same rows.
    init(suite: String, outputs: [[String]]) throws {
        self.suite = suite
        let runs = outputs.map { $0.compactMap(Self.figure) }
        guard let first = runs.first else { throw BenchError("the suite \(suite) did not run") }
        for (index, run) in runs.enumerated() where run.map(\.row) != first.map(\.row) {
            throw BenchError(
                "run \(index + 1) of the suite \(suite) printed other rows than run 1: "
                    + "\(run.map(\.row)) against \(first.map(\.row))")
        }
        rows = first.indices.map { position in Row(figures: runs.map { $0[position] }) }
        notes = (outputs.last ?? []).filter { Self.figure($0) == nil && !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A line for an absolute target, as `Measure.reportAbsolute` prints it.
    private static let absoluteLine = try! NSRegularExpression(
        pattern: #"^(.*): ours ([0-9.]+) (ms|MB) \(target <= ([0-9.]+) (ms|MB), (within|OVER)\)$"#)

    /// A line for an absolute target met by a distribution of turns, as the gallery suite prints it.
    private static let distributionLine = try! NSRegularExpression(
        pattern:
            #"^(.*): ours (median|p[0-9]+) ([0-9.]+) (ms|MB) \[([0-9.]+), ([0-9.]+)\] over ([0-9]+) runs \((.*)\) \(target <= ([0-9.]+) (ms|MB), (within|OVER)\)$"#
    )

    /// A comparison line as `Measure.report` prints it.
    private static let comparisonLine = try! NSRegularExpression(
        pattern: #"^(.*): ours ([0-9.]+) ms, baseline ([0-9.]+) ms, ratio ([0-9.]+) \(target <= ([0-9.]+), (within|OVER)\)$"#)

    /// The figure a printed line states, or nil for any other line.
    static func figure(_ line: String) -> Figure? {
        let range = NSRange(line.startIndex..., in: line)
        func fields(_ pattern: NSRegularExpression) -> [String]? {
            guard let match = pattern.firstMatch(in: line, range: range) else { return nil }
            return (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: line).map { String(line[$0]) } ?? "" }
        }
        if let field = fields(comparisonLine), let ours = Double(field[2]), let baseline = Double(field[3]), let target = Double(field[5]) {
            return .comparison(name: field[1], ours: ours, baseline: baseline, target: target)
        }
        if let field = fields(absoluteLine), let value = Double(field[2]), let target = Double(field[4]) {
            return .absolute(name: field[1], value: value, unit: field[3], target: target)
        }
        if let field = fields(distributionLine), let target = Double(field[9]) {
            let turns = field[8].split(separator: " ").compactMap { Double($0) }
            let percentile = field[2] == "median" ? 0.5 : (Double(field[2].dropFirst()) ?? 50) / 100
            return .distribution(name: "\(field[1]), \(field[2]) of every run's turns", turns: turns, percentile: percentile, unit: field[4], target: target)
        }
        return nil
    }
}
