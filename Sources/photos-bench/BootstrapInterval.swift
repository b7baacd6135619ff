/// A statistic of a row's runs (the median, or another percentile), with a
/// 95 % bootstrap confidence interval for it: the 2.5th and 97.5th
/// percentiles of the statistic over resamples of the runs, drawn with
/// replacement. A row meets its target only when the interval's upper
/// bound does, so a lucky run cannot carry it.
/// Cost: `resamples` sorts of as many values as there are runs.
struct BootstrapInterval: Equatable {
    /// The statistic of the runs themselves.
    let value: Double
    let low: Double
    let high: Double

    /// The interval of the median (`percentile` 0.5) or another percentile
    /// of `samples` (at least one), from `resamples` resamples drawn with a
    /// fixed seed, so that a report reads the same when regenerated from
    /// the same runs.
    init(_ samples: [Double], percentile: Double = 0.5, resamples: Int = 10_000) {
        precondition(!samples.isEmpty, "a statistic needs at least one run")
        let statistic = { (values: [Double]) in
            percentile == 0.5 ? Measure.median(values) : Measure.percentile(values, percentile)
        }
        value = statistic(samples)
        var random = SplitMix(state: 0x5EED)
        var statistics: [Double] = []
        statistics.reserveCapacity(resamples)
        var resample = samples
        for _ in 0..<resamples {
            for index in resample.indices { resample[index] = samples[Int(random.next() % UInt64(samples.count))] }
            statistics.append(statistic(resample))
        }
        statistics.sort()
        low = statistics[Int(Double(resamples - 1) * 0.025)]
        high = statistics[Int((Double(resamples - 1) * 0.975).rounded(.up))]
    }
}
