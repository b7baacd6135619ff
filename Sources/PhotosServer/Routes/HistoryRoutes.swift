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
    let authentication: TokenAuthority
    let streams: EventStreams
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
            let library = try await libraries.library(for: principal)
            let query = Query(request: request)
            let wantsStream = request.headers[.accept]?.contains("text/event-stream") == true
            let resumeFrom = query.header(HTTPField.Name("Last-Event-ID")!) ?? query.text("since")
            let limit = try query.integer("limit", default: 100, in: 1...1000)
            let since = try resumeFrom.map { try Self.token($0, principal: principal) }
            guard wantsStream else {
                let from = try await blocking { since ?? library.currentChangeToken }
                return try context.json(try await blocking { try Self.page(library, since: from, limit: limit, principal: principal) }, from: request)
            }
            return try await stream(principal: principal, bearer: context.identity?.bearer ?? "", since: since, limit: limit, connection: context.channel)
        }
    }

    /// An event stream from `since` (now, when nil): the changes since, then
    /// each change as the client's ``ChangeFeed`` reads it, and a comment on
    /// the stream's own clock. 429 when the token has as many streams as it may.
    private func stream(
        principal: Principal, bearer: String, since: PHPersistentChangeToken?, limit: Int,
        connection: any Channel
    ) async throws -> Response {
        let feed = try await libraries.feed(for: principal)
        // Subscribed before the first read, so that a commit between the two
        // is not missed: the stream then finds it after its position.
        let subscription = feed.subscribe()
        guard let registration = streams.register(tokenID: principal.tokenID, end: { subscription.continuation.finish() }) else {
            feed.unsubscribe(subscription.id)
            throw Problem(
                .tooManyRequests, "this token has as many event streams open as it may (\(EventStreams.maximumPerToken))",
                headers: [.retryAfter: "5"])
        }
        // A client gone ends its stream at once, not at its next write.
        connection.pipeline.handler(type: ConnectionLifecycleHandler.self)
            .flatMap { $0.clientGone?.futureResult ?? connection.closeFuture }
            .whenComplete { _ in subscription.continuation.finish() }
        let library = feed.library
        let first: ChangePage
        do {
            first = try await blocking {
                try Self.page(library, since: since ?? library.currentChangeToken, limit: limit, principal: principal)
            }
        } catch {
            streams.unregister(registration, tokenID: principal.tokenID)
            feed.unsubscribe(subscription.id)
            throw error
        }
        let (heartbeat, writeTimeout, metrics, streams, authentication) = (self.heartbeat, self.writeTimeout, self.metrics, self.streams, self.authentication)
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"]
        let body = ResponseBody { writer in
            metrics.streamOpened()
            defer {
                metrics.streamClosed()
                streams.unregister(registration, tokenID: principal.tokenID)
                feed.unsubscribe(subscription.id)
            }
            // Heartbeats on the stream's own clock, never because of a commit.
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    subscription.continuation.yield(.heartbeat)
                }
            }
            defer { ticker.cancel() }
            let run = StreamRun(
                library: library, feed: feed, wakes: subscription.wakes, first: first, principal: principal, bearer: bearer,
                limit: limit, writeTimeout: writeTimeout, authentication: authentication)
            try await withGracefulShutdownHandler {
                try await run(&writer)
            } onGracefulShutdown: {
                subscription.continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Writes the stream's events until it ends: its first page and what
    /// follows it (more pages, then each change the feed reads), with a
    /// comment on each heartbeat.
    private struct StreamRun {
        let library: PHPhotoLibrary
        let feed: ChangeFeed
        let wakes: AsyncStream<ChangeFeed.Wake>
        let first: ChangePage
        let principal: Principal
        let bearer: String
        let limit: Int
        let writeTimeout: Duration
        let authentication: TokenAuthority

        func callAsFunction(_ writer: inout any ResponseBodyWriter) async throws {
            var page = first
            try await HistoryRoutes.write(HistoryRoutes.events(page.changes, retry: true), to: &writer, timeout: writeTimeout)
            while page.moreComing {
                page = try await HistoryRoutes.next(after: page.token, library: library, limit: limit, principal: principal)
                try await HistoryRoutes.write(HistoryRoutes.events(page.changes, retry: false), to: &writer, timeout: writeTimeout)
            }
            var position = page.token
            for await wake in wakes {
                // A stream outlives the request that proved its token: once the
                // token is revoked or expired, it ends (the client's reconnection is refused).
                guard await authentication.stillValid(bearer, fresh: wake == .changes) else { break }
                switch wake {
                case .heartbeat:
                    try await HistoryRoutes.write(": keep-alive\n\n", to: &writer, timeout: writeTimeout)
                case .changes:
                    if let changes = feed.changes(after: position) {
                        try await HistoryRoutes.write(HistoryRoutes.events(changes, retry: false), to: &writer, timeout: writeTimeout)
                        position = changes.last?.token ?? position
                        continue
                    }
                    // Behind what the feed keeps: its own reads, to where it is now.
                    repeat {
                        page = try await HistoryRoutes.next(after: position, library: library, limit: limit, principal: principal)
                        try await HistoryRoutes.write(HistoryRoutes.events(page.changes, retry: false), to: &writer, timeout: writeTimeout)
                        position = page.token
                    } while page.moreComing
                }
            }
        }
    }

    /// The page of changes after the token `position`.
    private static func next(after position: String, library: PHPhotoLibrary, limit: Int, principal: Principal) async throws -> ChangePage {
        let since = try token(position, principal: principal)
        return try await blocking { try page(library, since: since, limit: limit, principal: principal) }
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
    static let unusableToken = Problem(
        .gone,
        """
        the change token names no state this client can resume from: it is older than the kept history, \
        or not one this client was given; refetch what you track
        """, code: .persistentChangeTokenExpired)

    /// Up to `limit` changes after `since`.
    static func page(_ library: PHPhotoLibrary, since: PHPersistentChangeToken, limit: Int, principal: Principal) throws -> ChangePage {
        let result: PHPersistentChangeFetchResult
        do {
            // One more than the page, to know whether more follow it.
            result = try library.fetchPersistentChanges(since: since, limit: limit + 1)
        } catch let error as PHPhotosError
            where !principal.isOwner
            && [.identifierNotFound, .persistentChangeTokenExpired].contains(error.code)
        {
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

    /// The events of some changes; the first of a stream also says how soon to reconnect.
    private static func events(_ changes: [ChangeRepresentation], retry: Bool) -> String {
        var text = retry ? "retry: 2000\n\n" : ""
        for change in changes {
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
