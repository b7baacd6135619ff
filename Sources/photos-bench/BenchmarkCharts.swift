import Foundation

/// The report's pictures, as standalone SVG files written beside it: for a
/// row measured at several library sizes, each side's cost against the
/// size with its interval; for each suite, the spread of every row's ratios
/// over the runs, against the target. Drawn by hand (no plotting library
/// exists on this machine), on logarithmic axes, since sizes span a
/// hundredfold and costs and ratios more.
enum BenchmarkCharts {
    /// One side of a scaling chart: at each size, the median of the runs
    /// and its interval.
    struct Series {
        let label: String
        let colour: String
        let intervals: [BootstrapInterval]
    }

    /// A row of a ratio chart: every run's ratio, their median's interval
    /// and the target.
    struct RatioRow {
        let name: String
        let ratios: [Double]
        let interval: BootstrapInterval
        let target: Double
    }

    static let oursColour = "#1f6feb"
    static let baselineColour = "#6e7781"
    private static let targetColour = "#cf222e"

    /// A line chart of `series` (milliseconds) against `sizes` (assets).
    /// Cost: linear in the points.
    static func scaling(title: String, sizes: [Int], series: [Series]) -> String {
        let (width, height) = (720.0, 380.0)
        let plot = (left: 80.0, right: width - 170, top: 68.0, bottom: height - 52)
        let values = series.flatMap { $0.intervals.flatMap { [$0.low, $0.high] } }.filter { $0 > 0 }
        let y = LogAxis(low: values.min() ?? 1, high: values.max() ?? 10, from: plot.bottom, to: plot.top)
        let x = LogAxis(low: Double(sizes.min() ?? 1), high: Double(sizes.max() ?? 10), from: plot.left, to: plot.right, padding: 0.15)
        var svg = header(width: width, height: height, title: title)
        svg += frame(plot.left, plot.top, plot.right, plot.bottom)
        for tick in y.ticks {
            svg += line(plot.left, y[tick], plot.right, y[tick], stroke: "#d0d7de")
            svg += text(format(tick), x: plot.left - 8, y: y[tick] + 4, anchor: "end")
        }
        for size in sizes {
            svg += text(Self.count(size), x: x[Double(size)], y: plot.bottom + 18, anchor: "middle")
        }
        svg += text("assets in the library", x: (plot.left + plot.right) / 2, y: plot.bottom + 40, anchor: "middle")
        svg += text("ms (log)", x: 16, y: plot.top - 12, anchor: "start")
        for (index, side) in series.enumerated() {
            let points = zip(sizes, side.intervals).map { (x[Double($0)], $1) }
            svg +=
                "<polyline fill=\"none\" stroke=\"\(side.colour)\" stroke-width=\"2\" points=\""
                + points.map { "\(rounded($0.0)),\(rounded(y[$0.1.value]))" }.joined(separator: " ") + "\"/>\n"
            for (position, interval) in points {
                svg += line(position, y[interval.low], position, y[interval.high], stroke: side.colour, width: 2)
                svg += line(position - 5, y[interval.low], position + 5, y[interval.low], stroke: side.colour, width: 2)
                svg += line(position - 5, y[interval.high], position + 5, y[interval.high], stroke: side.colour, width: 2)
                svg += "<circle cx=\"\(rounded(position))\" cy=\"\(rounded(y[interval.value]))\" r=\"4\" fill=\"\(side.colour)\"/>\n"
            }
            let legend = plot.top + 20 + Double(index) * 22
            svg += line(plot.right + 16, legend - 4, plot.right + 40, legend - 4, stroke: side.colour, width: 2)
            svg += text(side.label, x: plot.right + 46, y: legend, anchor: "start")
        }
        for (index, note) in ["dots: medians of the runs", "bars: 95 % intervals"].enumerated() {
            svg += text(note, x: plot.right + 16, y: plot.top + 28 + Double(series.count + index) * 16, anchor: "start", size: 11)
        }
        return svg + "</svg>\n"
    }

    /// One strip per row: every run's ratio as a dot, the median as a bar
    /// across the strip, its interval as a band, the target as a red line.
    /// Cost: linear in the rows and runs.
    static func ratios(title: String, rows: [RatioRow]) -> String {
        let width = 720.0
        let strip = 46.0
        let plot = (left: 24.0, right: width - 24, top: 60.0)
        let height = plot.top + strip * Double(rows.count) + 44
        let bottom = height - 44
        let values = rows.flatMap { $0.ratios + [$0.target, $0.interval.low, $0.interval.high] }.filter { $0 > 0 }
        let x = LogAxis(low: values.min() ?? 0.5, high: values.max() ?? 2, from: plot.left, to: plot.right, padding: 0.05)
        var svg = header(width: width, height: height, title: title)
        for tick in x.ticks {
            svg += line(x[tick], plot.top, x[tick], bottom, stroke: "#d0d7de")
            svg += text(format(tick), x: x[tick], y: bottom + 16, anchor: "middle")
        }
        svg += text(
            "ours ÷ baseline (log); dots: runs, band: 95 % interval of the median, red: target",
            x: (plot.left + plot.right) / 2, y: bottom + 34, anchor: "middle", size: 11)
        for (index, row) in rows.enumerated() {
            let top = plot.top + strip * Double(index)
            let middle = top + 30
            // About 115 characters fit the width at this size; the table has the full name.
            let name = row.name.count > 115 ? String(row.name.prefix(114)) + "…" : row.name
            svg += text(name, x: plot.left, y: top + 13, anchor: "start", size: 11)
            svg +=
                "<rect x=\"\(rounded(x[row.interval.low]))\" y=\"\(rounded(middle - 8))\" width=\"\(rounded(max(1, x[row.interval.high] - x[row.interval.low])))\" height=\"16\" fill=\"\(oursColour)\" fill-opacity=\"0.18\"/>\n"
            svg += line(x[row.interval.value], middle - 10, x[row.interval.value], middle + 10, stroke: oursColour, width: 3)
            for ratio in row.ratios where ratio > 0 {
                svg += "<circle cx=\"\(rounded(x[ratio]))\" cy=\"\(rounded(middle))\" r=\"3\" fill=\"#24292f\" fill-opacity=\"0.6\"/>\n"
            }
            svg += line(x[row.target], middle - 12, x[row.target], middle + 12, stroke: targetColour, width: 2)
        }
        return svg + "</svg>\n"
    }

    /// A file name for `title`: lower-case letters and digits joined by hyphens.
    static func fileName(_ title: String) -> String {
        let words = title.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return words.prefix(12).joined(separator: "-") + ".svg"
    }

    // MARK: - Drawing

    /// A logarithmic mapping from values to coordinates, with ticks at 1, 2
    /// and 5 times the powers of ten it spans.
    private struct LogAxis {
        let low: Double
        let high: Double
        let from: Double
        let to: Double

        init(low: Double, high: Double, from: Double, to: Double, padding: Double = 0.1) {
            let (bottom, top) = (log10(max(low, 1e-9)), log10(max(high, low * 1.01, 1e-9)))
            let margin = max(top - bottom, 0.3) * padding
            self.low = bottom - margin
            self.high = top + margin
            self.from = from
            self.to = to
        }

        subscript(value: Double) -> Double {
            from + (log10(max(value, 1e-9)) - low) / (high - low) * (to - from)
        }

        var ticks: [Double] {
            let steps = high - low > 3 ? [1.0] : [1.0, 2, 5]
            return (Int(low.rounded(.down))...Int(high.rounded(.up))).flatMap { power in
                steps.map { $0 * pow(10, Double(power)) }
            }.filter { log10($0) >= low && log10($0) <= high }
        }
    }

    private static func header(width: Double, height: Double, title: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" \
        font-family="system-ui, sans-serif" font-size="12" fill="#24292f">
        <rect width="100%" height="100%" fill="#ffffff"/>

        """
            + titleLines(title).enumerated().map { index, line in
                "<text x=\"16\" y=\"\(22 + index * 18)\" font-size=\"14\" font-weight=\"600\">\(escaped(line))</text>\n"
            }.joined()
    }

    /// `title` in at most two lines of about 80 characters, broken between words.
    private static func titleLines(_ title: String) -> [String] {
        guard title.count > 80 else { return [title] }
        let words = title.split(separator: " ")
        var first = ""
        var rest = words[...]
        while let word = rest.first, first.count + word.count < 80 {
            first += (first.isEmpty ? "" : " ") + word
            rest = rest.dropFirst()
        }
        let second = rest.joined(separator: " ")
        return [first, second.count > 80 ? String(second.prefix(79)) + "…" : second]
    }

    private static func frame(_ left: Double, _ top: Double, _ right: Double, _ bottom: Double) -> String {
        "<rect x=\"\(rounded(left))\" y=\"\(rounded(top))\" width=\"\(rounded(right - left))\" height=\"\(rounded(bottom - top))\" fill=\"none\" stroke=\"#8c959f\"/>\n"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1) -> String {
        "<line x1=\"\(rounded(x1))\" y1=\"\(rounded(y1))\" x2=\"\(rounded(x2))\" y2=\"\(rounded(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(rounded(width))\"/>\n"
    }

    private static func text(_ content: String, x: Double, y: Double, anchor: String, size: Int = 12) -> String {
        "<text x=\"\(rounded(x))\" y=\"\(rounded(y))\" text-anchor=\"\(anchor)\" font-size=\"\(size)\">\(escaped(content))</text>\n"
    }

    private static func rounded(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A tick's label: no more digits than it needs.
    private static func format(_ value: Double) -> String {
        value >= 1 ? String(format: "%g", value) : String(format: "%g", (value * 1e6).rounded() / 1e6)
    }

    /// A size as people read it: 10k, 100k, 1M.
    private static func count(_ value: Int) -> String {
        value >= 1_000_000 && value % 1_000_000 == 0
            ? "\(value / 1_000_000)M"
            : value >= 1000 && value % 1000 == 0 ? "\(value / 1000)k" : "\(value)"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
