import Foundation
import Prometheus

/// What `/metrics` reports, in Prometheus's text format: requests by route
/// and status with their latencies, open event streams, and the change
/// blocks and uploads the server committed. One registry per server.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let streams: Gauge
    private let changeBlocks: Counter
    private let uploadedBytes: Counter
    private static let latencyBuckets: [Duration] = [.microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                                                      .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                                      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]

    init() {
        streams = registry.makeGauge(name: "photos_event_streams", help: "Server-Sent Event streams open now")
        changeBlocks = registry.makeCounter(name: "photos_change_blocks_total", help: "Change blocks committed through POST /v1/changes")
        uploadedBytes = registry.makeCounter(name: "photos_uploaded_bytes_total", help: "Bytes received by uploads")
    }

    /// Records a finished request; `route` is the route's pattern, never the path a client sent.
    func requestFinished(method: String, route: String, status: Int, duration: Duration) {
        registry.makeCounter(name: "photos_http_requests_total", labels: [("method", method), ("route", route), ("status", "\(status)")],
                             help: "HTTP requests by route and status").increment()
        registry.makeDurationHistogram(descriptor: MetricNameDescriptor(metricName: "photos_http_request_duration",
                                                                        unitName: "seconds", helpText: "HTTP request latency by route"),
                                       labels: [("method", method), ("route", route)], buckets: Self.latencyBuckets).record(duration)
    }

    func streamOpened() { streams.increment() }
    func streamClosed() { streams.decrement() }
    func changeBlockCommitted() { changeBlocks.increment() }
    func uploaded(bytes: Int) { uploadedBytes.increment(by: Int64(bytes)) }

    /// The exposition text.
    func text() -> String { registry.emitToString() }
}
