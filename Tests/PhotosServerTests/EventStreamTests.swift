import Foundation
import HTTPTypes
import Photos
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
        var admitted = ""
        for _ in 0..<50 where !admitted.contains("200 OK") {
            admitted = try await Self.open(port, token: token).text(until: "\r\n\r\n")
            if !admitted.contains("200 OK") { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(admitted.contains("200 OK"), "a stream closed makes room for another")
    }
}
