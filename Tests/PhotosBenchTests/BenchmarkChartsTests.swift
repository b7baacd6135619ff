import Foundation
import Testing

@testable import photos_bench

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The report's pictures: which rows get a scaling chart, and charts that
/// are well-formed SVG drawing every run.
@Suite struct BenchmarkChartsTests {
    /// The lines a run of the fetch suite at `size` prints.
    private func run(size: Int, ratio: Double) -> [String] {
        [
            String(format: "fetch sorted: ours %.1f ms, baseline 10.0 ms, ratio %.2f (target <= 1.2, within)", ratio * 10 * Double(size) / 1000, ratio),
            String(format: "insert into %d assets: ours %.1f ms, baseline 1.0 ms, ratio %.2f (target <= 1.5, within)", size, ratio, ratio),
            "idle: ours 3.00 ms (target <= 5 ms, within)",
        ]
    }

    private func results() throws -> [SuiteResult] {
        let sizes = [1000, 10_000, 100_000]
        var results = try sizes.map { size in
            try SuiteResult(suite: "fetch, \(size) assets", outputs: [1.0, 1.1, 0.9].map { run(size: size, ratio: $0) })
        }
        results.append(try SuiteResult(suite: "media", outputs: [["thumbnail: ours 2.0 ms, baseline 1.0 ms, ratio 2.00 (target <= 1.5, OVER)"]]))
        return results
    }

    @Test func aRowAtSeveralSizesIsOneScalingRowWhateverItsNameSaysOfTheSize() throws {
        let rows = ScalingRow.all(in: try results())
        #expect(rows.map(\.title) == ["fetch: fetch sorted", "fetch: insert into N assets"])
        #expect(rows.allSatisfy { $0.sizes == [1000, 10_000, 100_000] && $0.rows.count == 3 })
        #expect(rows[0].rows.map { BootstrapInterval($0.sides.ours).value } == [10, 100, 1000])
    }

    @Test func theRatioChartDrawsEveryRunAndTheTargetOfEachComparisonRow() throws {
        let result = try results()[0]
        let rows = result.rows.compactMap { row in
            row.comparisonTarget.map { BenchmarkCharts.RatioRow(name: row.name, ratios: row.ratios, interval: BootstrapInterval(row.ratios), target: $0) }
        }
        #expect(rows.count == 2, "the absolute row has no ratio")
        let shapes = try Shapes(BenchmarkCharts.ratios(title: "fetch <1000> & more", rows: rows))
        #expect(shapes.count("circle") == 6)
        #expect(shapes.count("rect") == 1 + 2, "the background and one interval band per row")
        #expect(shapes.texts.contains("fetch <1000> & more"))
        #expect(shapes.texts.contains("insert into 1000 assets"))
    }

    @Test func theScalingChartHasALineAndAPointPerSizeForEachSide() throws {
        let row = try #require(ScalingRow.all(in: try results()).first)
        let svg = BenchmarkCharts.scaling(
            title: row.title, sizes: row.sizes,
            series: [
                .init(label: "ours", colour: BenchmarkCharts.oursColour, intervals: row.rows.map { BootstrapInterval($0.sides.ours) }),
                .init(label: "baseline", colour: BenchmarkCharts.baselineColour, intervals: row.rows.map { BootstrapInterval($0.sides.baseline) }),
            ])
        let shapes = try Shapes(svg)
        #expect(shapes.count("polyline") == 2)
        #expect(shapes.count("circle") == 6)
        #expect(shapes.texts.contains("10k") && shapes.texts.contains("100k"))
        // Ours grows tenfold per size, the baseline stays: ours climbs (y falls) and the baseline is level.
        let lines = shapes.points.map { $0.map(\.y) }
        #expect(lines[0][0] > lines[0][1] && lines[0][1] > lines[0][2], "\(lines)")
        #expect(Set(lines[1]).count == 1, "\(lines)")
        #expect(BenchmarkCharts.fileName(row.title) == "fetch-fetch-sorted.svg")
    }

    /// The elements of an SVG document, parsed as XML (so a chart that is
    /// not well-formed fails here).
    private final class Shapes: NSObject, XMLParserDelegate {
        private var elements: [String] = []
        private(set) var texts: [String] = []
        private(set) var points: [[(x: Double, y: Double)]] = []
        private var inText = false

        init(_ svg: String) throws {
            super.init()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = self
            guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        }

        func count(_ name: String) -> Int { elements.filter { $0 == name }.count }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(name)
            inText = name == "text"
            if inText { texts.append("") }
            if name == "polyline", let list = attributes["points"] {
                points.append(
                    list.split(separator: " ").map { pair in
                        let values = pair.split(separator: ",").compactMap { Double($0) }
                        return (values[0], values[1])
                    })
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
        }
    }
}
