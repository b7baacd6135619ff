import Hummingbird
import Logging

/// Logs every request (swift-log) with its status and duration, and
/// records it in the server's metrics under its route's pattern.
struct RequestObservation<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            finish(request, context, status: response.status.code, since: start)
            return response
        } catch let error as HTTPResponseError {
            finish(request, context, status: error.status.code, since: start)
            throw error
        } catch {
            finish(request, context, status: 500, since: start)
            throw error
        }
    }

    private func finish(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info("\(request.method) \(request.uri.path) \(status)",
                            metadata: ["duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000)])
        metrics.requestFinished(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status, duration: elapsed)
    }
}
