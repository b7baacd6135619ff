import Foundation
import HTTPTypes
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Event streams tell a client nothing it may not see, not even when the
/// library changes; they are bounded per token; and one reader of history
/// serves all the streams of a client.
@Suite struct EventStreamTests {
    /// A stream opened raw, with `token`, from now.
    private static func open(_ port: LivePort, token: String) throws -> RawConnection {
        let connection = try RawConnection(port: port.number, readTimeout: .milliseconds(700))
        try connection.send("GET /v1/changes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n")
        return connection
    }

    /// Commits about photos a limited client cannot see send its stream no
    /// byte at all: no event, and no keep-alive either (heartbeats come on
    /// the stream's own clock, here a minute away).
    @Test func invisibleCommitsSendNothingNotEvenAKeepAlive() async throws {
        let fixture = try ServerFixture(photos: 3, configuration: .init(port: 0, heartbeat: .seconds(60)))
        let token = try fixture.clientToken("org.example.watcher", grant: .limited, selection: [fixture.assets[0]])
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let stream = try Self.open(port, token: token)
        let opening = try await stream.text(until: "retry: 2000\n\n")
        #expect(opening.contains("200 OK") && opening.contains("retry: 2000"))
        let others = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: Array(fixture.assets[1...]), options: nil) }
        for round in 0..<20 {
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: others[round % 2]).isFavorite = round % 4 < 2 }
        }
        let afterInvisible = try await stream.drain()
        #expect(afterInvisible.isEmpty, "20 invisible commits sent \(afterInvisible.debugDescription)")
        let mine = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: mine).isFavorite = true }
        let afterVisible = try await stream.text(until: "\n\n")
        #expect(afterVisible.contains("event: change") && afterVisible.contains(fixture.assets[0]))
        #expect(!afterVisible.contains(fixture.assets[1]) && !afterVisible.contains(fixture.assets[2]))
    }

    /// Heartbeats come on the stream's own clock.
    @Test func anIdleStreamSendsHeartbeats() async throws {
        let fixture = try ServerFixture(photos: 1, configuration: .init(port: 0, heartbeat: .milliseconds(200)))
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let stream = try Self.open(port, token: fixture.ownerToken)
        #expect(try await stream.text(until: ": keep-alive").contains(": keep-alive"))
    }

    /// A token may hold so many streams and no more; one client's streams
    /// share one history reader, however many they are.
    @Test func streamsAreBoundedPerTokenAndShareOneReaderPerClient() async throws {
        let fixture = try ServerFixture(photos: 2, configuration: .init(port: 0, heartbeat: .seconds(60)))
        let token = try fixture.clientToken("org.example.tabs", grant: .limited, selection: [fixture.assets[0]])
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        var streams: [RawConnection] = []
        for _ in 0..<EventStreams.maximumPerToken {
            let stream = try Self.open(port, token: token)
            #expect(try await stream.text(until: "retry: 2000\n\n").contains("200 OK"))
            streams.append(stream)
        }
        let refused = try Self.open(port, token: token)
        let answer = try await refused.text(until: "}")
        #expect(answer.contains("429"), "\(answer)")
        #expect(fixture.server.streams.count(tokenID: try #require(fixture.library.accessTokens().last?.id)) == EventStreams.maximumPerToken)
        let principal = Principal(try #require(fixture.library.accessTokens().last))
        let feed = try await fixture.server.libraries.feed(for: principal)
        #expect(feed.subscriberCount == EventStreams.maximumPerToken, "one feed for all the client's streams")
        #expect(fixture.server.libraries.openClientCount == 1)

        let mine = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: mine).isFavorite = true }
        for stream in streams {
            #expect(try await stream.text(until: "}\n\n").contains(fixture.assets[0]))
        }
        streams.removeAll()
        #expect(
            try await eventually { try await Self.open(port, token: token).text(until: "\r\n\r\n").contains("200 OK") },
            "a stream closed makes room for another")
    }

    /// A herd of streams from one address (a proxy for many clients, all
    /// reconnecting after a restart) is admitted, however slowly the
    /// address's work goes: each token is looked up once for all its
    /// streams, and lookups wait in a line longer than other work's.
    @Test func aHerdOfStreamsFromOneAddressIsAdmitted() async throws {
        let fixture = try ServerFixture(photos: 1, configuration: .init(port: 0, heartbeat: .seconds(60)))
        let tokens = try (0..<2 * BlockingWork.maximumWaiting).map { _ in try fixture.library.createAccessToken(forClient: nil).bearer }
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        // The address's turns taken by slow work, so that every lookup waits.
        let peer = "peer 127.0.0.1"
        let gate = DispatchSemaphore(value: 0)
        let slow = (0..<BlockingWork.maximumPerPrincipal).map { _ in
            Task { try await fixture.server.work.run(for: peer, client: nil) { gate.wait() } }
        }
        try #require(try await eventually(within: .seconds(120)) { fixture.server.work.load(of: peer).running >= BlockingWork.maximumPerPrincipal })
        var streams = try tokens.map { try Self.open(port, token: $0) }
        streams += try (1..<EventStreams.maximumPerToken).map { _ in try Self.open(port, token: tokens[0]) }
        // Every lookup waiting now (a refused one never will: then, on after ten seconds).
        _ = try await eventually { fixture.server.work.load(of: peer).waiting >= tokens.count }
        for _ in slow { gate.signal() }
        for task in slow { try await task.value }
        for stream in streams {
            let head = try await stream.text(until: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        }
    }
}
