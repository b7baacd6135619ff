import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

@testable import PhotosServer

/// The fixture's server listening on a free loopback port until stopped.
final class LivePort: Sendable {
    let number: Int
    private let task: Task<Void, any Error>

    private init(number: Int, task: Task<Void, any Error>) {
        self.number = number
        self.task = task
    }

    static func start(_ fixture: ServerFixture) async throws -> LivePort {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try fixture.server.application(onListening: { continuation.yield($0) })
        let task = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return LivePort(number: port, task: task)
    }

    func stop() {
        task.cancel()
    }
}

/// A Server-Sent Events reader over AsyncHTTPClient, as `EventSource` reads them.
final class EventStream: @unchecked Sendable {
    struct Event: Equatable {
        var id: String?
        var name: String?
        var data: String
    }

    private var iterator: HTTPClientResponse.Body.AsyncIterator?
    private var pending = ""
    let status: HTTPResponseStatus

    private init(response: HTTPClientResponse) {
        status = response.status
        iterator = response.body.makeAsyncIterator()
    }

    static func open(_ url: String, token: String, lastEventID: String? = nil) async throws -> EventStream {
        let client = HTTPClient.shared
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await client.execute(request, deadline: .distantFuture)
        return EventStream(response: response)
    }

    /// The next event (comments and `retry:` lines skipped); nil when the stream ends or `timeout` passes.
    func nextEvent(timeout: Duration) async throws -> Event? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = pending[..<range.lowerBound]
                pending.removeSubrange(..<range.upperBound)
                var event = Event(data: "")
                var hasData = false
                for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") {
                        event.data += String(line.dropFirst(6))
                        hasData = true
                    }
                }
                if hasData { return event }
                continue
            }
            guard ContinuousClock.now < deadline, let current = iterator else { return nil }
            let chunk = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                nonisolated(unsafe) var iterator = current
                group.addTask { try await iterator.next() }
                group.addTask {
                    try await Task.sleep(until: deadline)
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                self.iterator = iterator
                return first
            }
            guard let chunk else { return nil }
            pending += String(buffer: chunk)
        }
    }

    /// Stops reading; the connection closes when the response is released.
    func close() async throws {
        iterator = nil
    }
}
