import Foundation
import PhotosIndexing
import Prometheus
import Synchronization

/// What `/metrics` reports, in Prometheus's text format: requests by route
/// and status with their latencies, open event streams, and the change
/// blocks and uploads the server committed. One registry per server.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let streams: Gauge
    private let changeBlocks: Counter
    private let uploadedBytes: Counter
    private let indexed: Gauge
    private let indexFailures: Gauge
    private let indexCoverage: [String: Gauge]
    /// The request series made so far, so that a request finds its
    /// counter and histogram in one lookup rather than through the
    /// registry's name and label validation.
    private let requestSeries = Mutex<[RequestSeries.Key: RequestSeries]>([:])
    private static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    init() {
        streams = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "photos_event_streams", unitName: "",
                helpText: "Server-Sent Event streams open now"))
        changeBlocks = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "photos_change_blocks", unitName: "total",
                helpText: "Change blocks committed through POST /v1/changes"))
        uploadedBytes = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "photos_uploaded_bytes", unitName: "total",
                helpText: "Bytes received by uploads"))
        indexed = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "photos_index_assets_indexed", unitName: "",
                helpText: "Assets the search indexer has indexed since the server started"))
        indexFailures = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "photos_index_failures", unitName: "",
                helpText: "Indexer runs that failed since the server started"))
        var coverage: [String: Gauge] = [:]
        for (name, help) in [
            ("assets", "Assets outside Recently Deleted"), ("searchable", "Assets the search index holds"), ("located", "Assets with a place"),
        ] {
            coverage[name] = registry.makeGauge(
                descriptor: MetricNameDescriptor(metricName: "photos_index_\(name)", unitName: "", helpText: help))
        }
        indexCoverage = coverage
    }

    /// Records the background indexer's progress and, when read, the index's coverage.
    func record(indexing progress: BackgroundIndexer.Progress, status: IndexStatus?) {
        indexed.set(Int64(progress.indexed))
        indexFailures.set(Int64(progress.failures))
        guard let status else { return }
        indexCoverage["assets"]?.set(Int64(status.assets))
        indexCoverage["searchable"]?.set(Int64(status.searchable))
        indexCoverage["located"]?.set(Int64(status.located))
    }

    /// The series that count requests of one method and route answered
    /// with one status, and their latencies; `route` is the route's pattern,
    /// never the path a client sent.
    func requestSeries(method: String, route: String, status: Int) -> RequestSeries {
        let key = RequestSeries.Key(method: method, route: route, status: status)
        return requestSeries.withLock { known in
            if let series = known[key] { return series }
            let series = RequestSeries(
                key: key,
                count: registry.makeCounter(
                    descriptor: MetricNameDescriptor(
                        metricName: "photos_http_requests", unitName: "total",
                        helpText: "HTTP requests by route and status"),
                    labels: [("method", method), ("route", route), ("status", "\(status)")]),
                latency: registry.makeDurationHistogram(
                    descriptor: MetricNameDescriptor(
                        metricName: "photos_http_request_duration",
                        unitName: "seconds", helpText: "HTTP request latency by route"),
                    labels: [("method", method), ("route", route)], buckets: Self.latencyBuckets))
            known[key] = series
            return series
        }
    }

    /// One method, route and status's counter and latency histogram.
    struct RequestSeries: Sendable {
        struct Key: Hashable, Sendable {
            let method: String
            let route: String
            let status: Int
        }

        let key: Key
        let count: Counter
        let latency: DurationHistogram

        func record(_ duration: Duration) {
            count.increment()
            latency.record(duration)
        }
    }

    func streamOpened() { streams.increment() }
    func streamClosed() { streams.decrement() }
    func changeBlockCommitted() { changeBlocks.increment() }
    func uploaded(bytes: Int) { uploadedBytes.increment(by: Int64(bytes)) }

    /// The exposition text.
    func text() -> String { registry.emitToString() }
}
