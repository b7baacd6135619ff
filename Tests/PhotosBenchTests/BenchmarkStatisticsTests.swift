import Foundation
import Testing

@testable import photos_bench

/// The protocol's arithmetic: medians, their bootstrap intervals, and rows
/// gathered from the lines of several runs.
@Suite struct BenchmarkStatisticsTests {
    @Test func mediansOfOddAndEvenCounts() {
        #expect(Measure.median([3, 1, 2]) == 2)
        #expect(Measure.median([4, 1, 3, 2]) == 2.5)
        #expect(Measure.median([7]) == 7)
    }

    @Test func anIntervalHoldsTheMedianWithinTheRuns() {
        var random = SplitMix(state: 11)
        for count in [1, 2, 3, 10, 25] {
            for _ in 0..<20 {
                let samples = (0..<count).map { _ in 0.5 + Double(random.next() % 1000) / 500 }
                let interval = BootstrapInterval(samples, resamples: 2_000)
                #expect(samples.min()! <= interval.low && interval.low <= interval.value, "\(samples)")
                #expect(interval.value <= interval.high && interval.high <= samples.max()!, "\(samples)")
            }
        }
        let constant = BootstrapInterval(Array(repeating: 1.25, count: 10))
        #expect(constant == BootstrapInterval(Array(repeating: 1.25, count: 10)))
        #expect(constant.low == 1.25 && constant.high == 1.25)
    }

    @Test func anOutlierWidensTheIntervalButBarelyMovesTheMedian() {
        let steady = BootstrapInterval([1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01, 0.99, 1.00, 1.00])
        let spiked = BootstrapInterval([1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01, 0.99, 1.00, 3.00])
        #expect(abs(spiked.value - steady.value) < 0.01)
        #expect(spiked.high >= steady.high)
    }

    @Test func rowsAreJudgedByTheUpperBound() throws {
        let runs = [1.10, 1.15, 1.30, 1.12, 1.18].map { ratio in
            [
                "photos-bench fetch: 2000 assets, 2 cores",
                String(
                    format: "fetch (ours %d req/s): ours %.1f ms, baseline 100.0 ms, ratio %.2f (target <= 1.2, within)",
                    Int(ratio * 1000), ratio * 100, ratio),
                "idle p95: ours 3.00 ms (target <= 5 ms, within)",
            ]
        }
        let result = try SuiteResult(suite: "fetch", outputs: runs)
        #expect(result.rows.count == 2)
        let summary = result.rows[0].summary
        #expect(summary.hasPrefix("fetch (ours 1100 req/s): ours 115.0 ms, baseline 100.0 ms, ratio 1.15 ["), "\(summary)")
        #expect(summary.hasSuffix("(target <= 1.2, OVER)"), "the median is within, its interval's upper bound is not: \(summary)")
        #expect(result.rows[1].summary == "idle p95: ours 3.000 ms [3.000, 3.000] (target <= 5 ms, within)")
        #expect(result.rows[0].markdown.contains("| 1.10 1.15 1.30 1.12 1.18 |"), "\(result.rows[0].markdown)")
        #expect(result.notes == ["photos-bench fetch: 2000 assets, 2 cores"])
    }

    /// Ratios are computed again from the printed times: a row of
    /// microseconds keeps four significant digits, so its ratio survives.
    @Test func timesKeepTheirPrecisionInPrintAndInTheReport() throws {
        #expect(Measure.milliseconds(0.02253) == "0.02253")
        #expect(Measure.milliseconds(2.5) == "2.500")
        #expect(Measure.milliseconds(5755.04) == "5755.0")
        #expect(Measure.milliseconds(0.0000012) == "0.000001")
        let line = "random (p50): ours \(Measure.milliseconds(0.02253)) ms, baseline \(Measure.milliseconds(0.01409)) ms, ratio 1.60 (target <= 1.5, OVER)"
        let result = try SuiteResult(suite: "fetch", outputs: [[line], [line]])
        #expect(result.rows[0].summary.contains("ratio 1.60 [1.60, 1.60]"))
        #expect(result.rows[0].summary.contains("ours 0.02253 ms, baseline 0.01409 ms"))
    }

    /// The gallery's rows are distributions of turns, each its own fresh
    /// browser: a row pools every run's turns and judges their median, or
    /// the percentile the line names, by its interval's upper bound.
    @Test func distributionsPoolEveryRunsTurns() throws {
        let line = { (turns: [Double]) in
            let shown = turns.map { String(format: "%.1f", $0) }.joined(separator: " ")
            return [
                "jump: ours median 1.0 ms [1.0, 1.0] over \(turns.count) runs (\(shown)) (target <= 50 ms, within)",
                "commit: ours p95 1.0 ms [1.0, 1.0] over \(turns.count) runs (\(shown)) (target <= 150 ms, within)",
            ]
        }
        let one = try SuiteResult(suite: "gallery", outputs: [line([0, 0, 0, 10, 20])])
        #expect(one.rows[0].summary.hasPrefix("jump, median of every run's turns: ours 0.0 ms ["), "\(one.rows[0].summary)")
        let two = try SuiteResult(suite: "gallery", outputs: [line([0, 0, 0, 10, 20]), line([60, 70, 80, 90, 200])])
        #expect(two.rows[0].markdown.contains("| 0.0 0.0 0.0 10.00 20.00 60.00 70.00 80.00 90.00 200.0 |"), "\(two.rows[0].markdown)")
        #expect(two.rows[0].summary.contains("ours 40.00 ms ["), "the median of all ten turns: \(two.rows[0].summary)")
        #expect(two.rows[0].summary.hasSuffix("(target <= 50 ms, OVER)"))
        #expect(two.rows[1].summary.contains("ours 200.0 ms ["), "the 95th percentile of all ten turns: \(two.rows[1].summary)")
        #expect(BootstrapInterval([1, 2, 3, 4, 100], percentile: 0.95).value == 100)
    }

    @Test func runsThatPrintOtherRowsAreRefused() {
        let one = ["a: ours 1.0 ms, baseline 1.0 ms, ratio 1.00 (target <= 2, within)"]
        let other = ["b: ours 1.0 ms, baseline 1.0 ms, ratio 1.00 (target <= 2, within)"]
        #expect(throws: BenchError.self) { try SuiteResult(suite: "s", outputs: [one, other]) }
        #expect(throws: BenchError.self) { try SuiteResult(suite: "s", outputs: [one, []]) }
    }
}
