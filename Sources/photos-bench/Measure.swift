import Foundation

/// Timing helpers: best of several runs, printed as PhotoKit-vs-baseline ratios.
enum Measure {
    /// The fastest of `runs` timings of `body`, in milliseconds.
    static func best(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        return fastest
    }

    /// The fastest of `runs` timings of `measure`, each after an untimed `prepare`.
    static func best<Prepared>(runs: Int = 3, prepare: () throws -> Prepared, measure: (Prepared) throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<runs {
            let prepared = try prepare()
            let start = DispatchTime.now().uptimeNanoseconds
            try measure(prepared)
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        return fastest
    }

    /// The fastest of `runs` timings of each side, the two sides taking
    /// turns in an order drawn afresh for each turn, so that drift in the
    /// machine's speed (other load, background work, frequency) and the
    /// caches one side warms for the other reach both alike. `prepare`
    /// runs, untimed, before each turn, and `beforeEachSide` before each
    /// side's part of it (to make caches cold for both alike).
    static func alternating(
        runs: Int = 5, prepare: () throws -> Void = {}, beforeEachSide: () throws -> Void = {},
        ours: () throws -> Void, baseline: () throws -> Void
    ) rethrows -> (ours: Double, baseline: Double) {
        var fastest = (ours: Double.infinity, baseline: Double.infinity)
        for _ in 0..<runs {
            try prepare()
            let oursFirst = Bool.random()
            for side in oursFirst ? [true, false] : [false, true] {
                try beforeEachSide()
                if side {
                    fastest.ours = min(fastest.ours, try best(runs: 1, ours))
                } else {
                    fastest.baseline = min(fastest.baseline, try best(runs: 1, baseline))
                }
            }
        }
        return fastest
    }

    /// ``alternating(runs:prepare:ours:baseline:)`` for sides that await,
    /// as a baseline written on postgres-nio's async API does.
    static func alternating(
        runs: Int = 5, prepare: () async throws -> Void = {}, ours: () async throws -> Void,
        baseline: () async throws -> Void
    ) async rethrows -> (ours: Double, baseline: Double) {
        var fastest = (ours: Double.infinity, baseline: Double.infinity)
        for _ in 0..<runs {
            try await prepare()
            if Bool.random() {
                fastest.ours = min(fastest.ours, try await elapsed(ours))
                fastest.baseline = min(fastest.baseline, try await elapsed(baseline))
            } else {
                fastest.baseline = min(fastest.baseline, try await elapsed(baseline))
                fastest.ours = min(fastest.ours, try await elapsed(ours))
            }
        }
        return fastest
    }

    /// How long `body` takes, in milliseconds.
    static func elapsed(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    /// Prints one comparison line and returns the ratio.
    @discardableResult
    static func report(_ name: String, ours: Double, baseline: Double, target: Double) -> Double {
        let ratio = ours / baseline
        let verdict = ratio <= target ? "within" : "OVER"
        print(
            String(
                format: "%@: ours %@ ms, baseline %@ ms, ratio %.2f (target <= %g, %@)",
                name, milliseconds(ours), milliseconds(baseline), ratio, target, verdict))
        return ratio
    }

    /// A time in milliseconds with four significant digits and no exponent
    /// ("0.02530", "2.500", "5755.0"): the report's ratios are computed
    /// again from the printed times, so a row of microseconds must keep
    /// its precision.
    static func milliseconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return String(format: "%.1f", value) }
        let decimals = min(6, max(1, 3 - Int(log10(value).rounded(.down))))
        return String(format: "%.\(decimals)f", value)
    }

    /// The middle value, or the mean of the two middle ones.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The `fraction` quantile of `values` (the nearest rank above).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }

    /// The resident memory of this process now, in megabytes.
    static var currentResidentMegabytes: Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// The peak resident memory of this process, in megabytes: VmHWM, which
    /// starts afresh at exec. (getrusage's ru_maxrss does not: a child
    /// started by fork keeps its parent's peak.)
    static var peakResidentMegabytes: Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return kilobytes / 1024
    }

    /// Prints one line for an absolute target (a latency, a memory figure)
    /// and returns whether it is met.
    @discardableResult
    static func reportAbsolute(_ name: String, ours: Double, target: Double, unit: String = "ms") -> Bool {
        let within = ours <= target
        let value = unit == "ms" ? milliseconds(ours) : String(format: "%.2f", ours)
        print(String(format: "%@: ours %@ %@ (target <= %g %@, %@)", name, value, unit, target, unit, within ? "within" : "OVER"))
        return within
    }
}
