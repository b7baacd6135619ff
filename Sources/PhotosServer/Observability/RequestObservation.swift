import Hummingbird
import Logging

/// Logs every request (swift-log) with its status and duration, and
/// records it in the server's metrics under its route's pattern.
struct RequestObservation: RouterMiddleware {
    typealias Context = ServerContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            finish(request, context, status: response.status.code, since: start)
            return response
        } catch let error as any HTTPResponseError {
            finish(request, context, status: error.status.code, since: start)
            throw error
        } catch {
            finish(request, context, status: 500, since: start)
            throw error
        }
    }

    private func finish(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let series = metrics.requestSeries(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status)
        Self.record(path: request.uri.path, since: start, logger: context.logger, series: series)
    }

    /// The log line and the metrics of one finished request, however it
    /// was answered. The path is only made when the line is logged.
    static func record(path: @autoclosure () -> String, since start: ContinuousClock.Instant, logger: Logger, series: ServerMetrics.RequestSeries) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "\(series.key.method) \(path()) \(series.key.status)",
            metadata: ["duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000)])
        series.record(elapsed)
    }
}
