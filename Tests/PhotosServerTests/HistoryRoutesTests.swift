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

    /// A client without read-write access that alters its own token (its
    /// masked number, with the checksum made again) gets one answer for
    /// every guess: nothing tells it which number is the library's.
    @Test func alteredOpaqueTokensAllGetOneAnswer() async throws {
        let fixture = try ServerFixture(photos: 3)
        for index in 0..<5 {
            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[index % 3]], options: nil) }[0]
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = index % 2 == 0 }
        }
        let token = try fixture.clientToken("org.example.prober", grant: .limited, selection: [fixture.assets[0]])
        try await fixture.withRouter { client in
            let library = try await client.get("/v1/library", token: token)
            let own = try #require(library.json["changeToken"] as? String)
            #expect(try await client.get("/v1/changes?since=\(own)", token: token).status == .ok)
            let fields = try #require(Self.fields(own))
            var answers: Set<String> = []
            for guess in 1...300 {
                var altered = fields
                altered["transaction"] = (fields["transaction"] as! Int64) ^ Int64(guess)
                let response = try await client.get("/v1/changes?since=\(Self.text(altered))", token: token)
                answers.insert("\(response.status.code) \(response.text)")
            }
            for garbage in ["garbage", "", String(repeating: "A", count: 64), Self.text(fields.merging(["opaque": false]) { $1 })] {
                let response = try await client.get("/v1/changes?since=\(garbage)", token: token)
                if !garbage.isEmpty { answers.insert("\(response.status.code) \(response.text)") }
            }
            #expect(answers.count == 1, "\(answers)")
            #expect(answers.first?.hasPrefix("410 ") == true)
        }
    }

    /// A token's fields, as its text carries them (base64url JSON).
    static func fields(_ text: String) -> [String: Any]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return Dictionary(
            uniqueKeysWithValues: object.map { key, value in
                switch key {
                case "library": (key, value)
                case "opaque": (key, (value as? NSNumber)?.boolValue ?? false)
                default: (key, (value as? NSNumber)?.int64Value ?? 0)
                }
            })
    }

    /// A token's text from its fields, with the checksum of its stored form made again, as an attacker would.
    static func text(_ fields: [String: Any]) -> String {
        var fields = fields
        let opaque = fields["opaque"] as? Bool == true
        let summary = "\(fields["library"]!)|\(fields["transaction"]!)|\(fields["stamp"]!)" + (opaque ? "|opaque|\(fields["tag"] ?? 0)" : "")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in summary.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        fields["check"] = Int64(bitPattern: hash)
        if !opaque {
            fields.removeValue(forKey: "opaque")
            fields.removeValue(forKey: "tag")
        }
        let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
