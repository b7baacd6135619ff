import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Photos
import ServiceLifecycle

/// `GET /v1/changes?since=TOKEN`: persistent history, paged with
/// `moreComing`; with `Accept: text/event-stream`, the same as Server-Sent
/// Events whose ids are the change token after each change, so an
/// `EventSource` resumes with `Last-Event-ID` and loses nothing. Live
/// events come from the library's change observation, which sees commits
/// of every process. For the owner, an expired token is 410
/// (`persistentChangeTokenExpired`) and a foreign, altered or garbled one
/// 400; any other principal gets one 410 for every token that does not
/// work (``unusableToken``), so that no answer to a token it made up or
/// altered teaches it anything of the library.
struct HistoryRoutes {
    let libraries: LibraryPool
    /// How often an idle stream sends a comment, so proxies and the idle
    /// timeout keep it open, and a vanished client is noticed.
    let heartbeat: Duration
    /// How long one write to a stream may wait for a stalled reader before
    /// the stream is closed (the reader resumes by token).
    let writeTimeout: Duration
    let metrics: ServerMetrics

    func add(to group: RouterGroup<ServerContext>) {
        group.get("changes") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let library = try libraries.library(for: principal)
            let query = Query(request: request)
            let wantsStream = request.headers[.accept]?.contains("text/event-stream") == true
            let resumeFrom = query.header(HTTPField.Name("Last-Event-ID")!) ?? query.text("since")
            let since = try resumeFrom.map { try Self.token($0, principal: principal) } ?? library.currentChangeToken
            let limit = try query.integer("limit", default: 100, in: 1...1000)
            guard wantsStream else {
                return try JSONBody.response(try await blocking { try Self.page(library, since: since, limit: limit, principal: principal) })
            }
            // Subscribed before the first read, so that a commit between the
            // two wakes the stream instead of waiting for the next heartbeat.
            let broadcaster = try libraries.broadcaster(for: principal)
            let subscription = broadcaster.subscribe()
            do {
                let first = try await blocking { try Self.page(library, since: since, limit: limit, principal: principal) }
                return stream(library, principal: principal, broadcaster: broadcaster, subscription: subscription, first: first, limit: limit)
            } catch {
                broadcaster.cancel(subscription.id)
                throw error
            }
        }
    }

    /// The token a client sent; when it is not a token's text, 400 for
    /// the owner and ``unusableToken`` for anyone else.
    static func token(_ text: String, principal: Principal) throws -> PHPersistentChangeToken {
        guard let token = PHPersistentChangeToken(textRepresentation: text) else {
            throw principal.isOwner ? Problem.badRequest("the change token is not one this server gave") : unusableToken
        }
        return token
    }

    /// What a principal other than the owner is told of any change token
    /// that does not work: expired, made up, altered, another library's or
    /// not a token at all.
    static let unusableToken = Problem(.gone, """
        the change token names no state this client can resume from: it is older than the kept history, \
        or not one this client was given; refetch what you track
        """, code: .persistentChangeTokenExpired)

    /// Up to `limit` changes after `since`.
    static func page(_ library: PHPhotoLibrary, since: PHPersistentChangeToken, limit: Int, principal: Principal) throws -> ChangePage {
        let result: PHPersistentChangeFetchResult
        do {
            result = try library.fetchPersistentChanges(since: since)
        } catch let error as PHPhotosError where !principal.isOwner
                    && [.identifierNotFound, .persistentChangeTokenExpired].contains(error.code) {
            throw unusableToken
        } catch let error as PHPhotosError where error.code == .identifierNotFound {
            throw Problem(.badRequest, error.localizedDescription, code: .identifierNotFound)
        }
        var changes: [ChangeRepresentation] = []
        var moreComing = false
        for change in result {
            if changes.count == limit {
                moreComing = true
                break
            }
            changes.append(ChangeRepresentation(change))
        }
        return ChangePage(changes: changes, token: changes.last?.token ?? since.textRepresentation, moreComing: moreComing)
    }

    private func stream(_ library: PHPhotoLibrary, principal: Principal, broadcaster: ChangeBroadcaster,
                        subscription: (id: UUID, wakeUps: AsyncStream<Void>), first: ChangePage, limit: Int) -> Response {
        let (heartbeat, writeTimeout, metrics, libraries) = (self.heartbeat, self.writeTimeout, self.metrics, self.libraries)
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"]
        let body = ResponseBody { writer in
            metrics.streamOpened()
            defer { metrics.streamClosed() }
            let (id, wakeUps) = subscription
            defer { broadcaster.cancel(id) }
            // Heartbeats go through the same wake-ups: each one reads history
            // (one indexed query) and sends a comment when nothing is new.
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    broadcaster.wake(id)
                }
            }
            defer { ticker.cancel() }
            try await withGracefulShutdownHandler {
                var page = first
                try await Self.write(Self.events(page, retry: true), to: &writer, timeout: writeTimeout)
                while page.moreComing {
                    let since = try Self.token(page.token, principal: principal)
                    page = try await blocking { try Self.page(library, since: since, limit: limit, principal: principal) }
                    try await Self.write(Self.events(page, retry: false), to: &writer, timeout: writeTimeout)
                }
                for await _ in wakeUps {
                    // A stream outlives the request that proved its token: once the
                    // token is revoked or expired, it ends (the client's reconnection is refused).
                    guard try await blocking({ libraries.stillAuthorized(principal) }) else { break }
                    repeat {
                        let since = try Self.token(page.token, principal: principal)
                        page = try await blocking { try Self.page(library, since: since, limit: limit, principal: principal) }
                        let text = page.changes.isEmpty ? ": keep-alive\n\n" : Self.events(page, retry: false)
                        try await Self.write(text, to: &writer, timeout: writeTimeout)
                    } while page.moreComing
                }
            } onGracefulShutdown: {
                broadcaster.cancel(id)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The events of a page; the first of a stream also says how soon to reconnect.
    private static func events(_ page: ChangePage, retry: Bool) -> String {
        var text = retry ? "retry: 2000\n\n" : ""
        for change in page.changes {
            let data = (try? JSONBody.encode(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            text += "id: \(change.token)\nevent: change\ndata: \(data)\n\n"
        }
        return text
    }

    /// Writes, or gives up on a reader that has not taken it within `timeout`.
    private static func write(_ text: String, to writer: inout any ResponseBodyWriter, timeout: Duration) async throws {
        guard !text.isEmpty else { return }
        let buffer = ByteBuffer(string: text)
        nonisolated(unsafe) var target = writer
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await target.write(buffer) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Problem(.requestTimeout, "the event stream's reader stalled")
            }
            try await group.next()
            group.cancelAll()
        }
        writer = target
    }
}
