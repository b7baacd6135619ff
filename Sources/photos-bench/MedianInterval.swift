/// The median of a row's runs, with a 95 % bootstrap confidence interval
/// for it: the 2.5th and 97.5th percentiles of the medians of resamples
/// of the runs, drawn with replacement. A row meets its target only when
/// the interval's upper bound does, so a lucky run cannot carry it.
/// Cost: `resamples` sorts of as many values as there are runs.
struct MedianInterval: Equatable {
    let median: Double
    let low: Double
    let high: Double

    /// The interval for `samples` (at least one), from `resamples` resamples
    /// drawn with a fixed seed, so that a report reads the same when
    /// regenerated from the same runs.
    init(_ samples: [Double], resamples: Int = 10_000) {
        precondition(!samples.isEmpty, "a median needs at least one run")
        median = Self.median(samples)
        var random = SplitMix(state: 0x5EED)
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var resample = samples
        for _ in 0..<resamples {
            for index in resample.indices { resample[index] = samples[Int(random.next() % UInt64(samples.count))] }
            medians.append(Self.median(resample))
        }
        medians.sort()
        low = medians[Int(Double(resamples - 1) * 0.025)]
        high = medians[Int((Double(resamples - 1) * 0.975).rounded(.up))]
    }

    /// The middle value, or the mean of the two middle ones.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
