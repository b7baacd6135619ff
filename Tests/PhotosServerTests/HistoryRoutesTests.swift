import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Photos
import Testing
@testable import PhotosServer

/// `/v1/changes`: persistent history as pages and as Server-Sent Events.
@Suite struct HistoryRoutesTests {
    @Test func pagesOfHistorySinceAToken() async throws {
        let fixture = try ServerFixture(photos: 1)
        let since = fixture.library.currentChangeToken.textRepresentation
        let added = try fixture.importPhotos(3)
        for identifier in added {
            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }[0]
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        try await fixture.withRouter { client in
            let first = try await client.get("/v1/changes?since=\(since)&limit=2", token: fixture.ownerToken)
            #expect(first.status == .ok)
            let changes = try #require(first.json["changes"] as? [[String: Any]])
            #expect(changes.count == 2 && first.json["moreComing"] as? Bool == true)
            #expect((changes[0]["assets"] as? [String: [String]])?["inserted"]?.sorted() == added.sorted())
            let next = try #require(first.json["token"] as? String)
            let rest = try await client.get("/v1/changes?since=\(next)", token: fixture.ownerToken)
            #expect((rest.json["changes"] as? [Any])?.count == 2 && rest.json["moreComing"] as? Bool == false)

            let garbled = try await client.get("/v1/changes?since=garbage", token: fixture.ownerToken)
            #expect(garbled.status == .badRequest)
            var altered = Array(since)
            altered[altered.count / 2] = altered[altered.count / 2] == "A" ? "B" : "A"
            #expect(try await client.get("/v1/changes?since=\(String(altered))", token: fixture.ownerToken).status == .badRequest)
        }
    }

    @Test func anExpiredTokenIsGone() async throws {
        let fixture = try ServerFixture(photos: 1)
        let old = fixture.library.currentChangeToken.textRepresentation
        try fixture.importPhotos(1)
        #expect(try fixture.library.purgePersistentChanges(before: Date().addingTimeInterval(60)))
        try await fixture.withRouter { client in
            let response = try await client.get("/v1/changes?since=\(old)", token: fixture.ownerToken)
            #expect(response.status == .gone)
            #expect(response.json["code"] as? Int == 3105)
            #expect(response.json["codeName"] as? String == "persistentChangeTokenExpired")
        }
    }

    @Test func eventsStreamLiveAndResumeByLastEventID() async throws {
        let fixture = try ServerFixture(photos: 1)
        let start = fixture.library.currentChangeToken.textRepresentation
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let url = "http://127.0.0.1:\(port.number)/v1/changes"
        // A second instance of the library commits: the server hears of it through change observation.
        let writer = try PHPhotoLibrary(url: fixture.library.url)
        let stream = try await EventStream.open(url, token: fixture.ownerToken, lastEventID: start)
        let asset = writer.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
        try writer.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        // How soon it arrives is photos-bench serve's row, not a bound here:
        // the whole suite beside this test on two cores can delay it.
        let event = try #require(try await stream.nextEvent(timeout: .seconds(20)))
        #expect(event.data.contains(fixture.assets[0]))
        try await stream.close()

        // Resuming from before that change replays it; from its id, nothing.
        let replay = try await EventStream.open(url, token: fixture.ownerToken, lastEventID: start)
        #expect(try await replay.nextEvent(timeout: .seconds(5))?.id == event.id)
        try await replay.close()
        let resumed = try await EventStream.open(url, token: fixture.ownerToken, lastEventID: event.id)
        try writer.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }
        let next = try #require(try await resumed.nextEvent(timeout: .seconds(5)))
        #expect(next.id != event.id)
        try await resumed.close()
    }

    @Test func aStreamStopsWhenItsTokenIsRevoked() async throws {
        let fixture = try ServerFixture(photos: 1)
        let issued = try fixture.library.createAccessToken(forClient: nil, label: "revoked while streaming")
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let stream = try await EventStream.open("http://127.0.0.1:\(port.number)/v1/changes", token: issued.bearer)
        let writer = try PHPhotoLibrary(url: fixture.library.url)
        let asset = writer.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
        try writer.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        #expect(try await stream.nextEvent(timeout: .seconds(5)) != nil, "a change while the token stands arrives")
        try fixture.library.revokeAccessToken(id: issued.token.id)
        try writer.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }
        #expect(try await stream.nextEvent(timeout: .seconds(3)) == nil, "a change after the revocation must not reach the stream")
        try await stream.close()
    }
}
