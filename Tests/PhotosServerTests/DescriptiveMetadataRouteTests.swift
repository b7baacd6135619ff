import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import Testing

@testable import PhotosServer

/// Ratings, captions and keywords over HTTP: an asset's JSON carries them,
/// change blocks set them (`rating`, `caption` with null to clear,
/// `addKeywords`, `removeKeywords`), predicates filter by them, and a
/// limited client touches only what its grant covers.
@Suite struct DescriptiveMetadataRouteTests {
    private func described(_ fixture: ServerFixture, _ identifier: String) -> PHAsset {
        fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil)[0] }
    }

    @Test func changeBlocksSetThemAndAssetsCarryThem() async throws {
        let fixture = try ServerFixture(photos: 2)
        let (first, second) = (urlID(fixture.assets[0]), urlID(fixture.assets[1]))
        try await fixture.withRouter { client in
            let set = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        ["op": "updateAsset", "asset": first, "rating": 4, "caption": "Harbour at dawn", "addKeywords": ["harbour", "boats"]],
                        ["op": "updateAsset", "asset": second, "rating": 2, "addKeywords": ["kitchen"]],
                    ] as [[String: Any]]
                ])
            #expect(set.status == .ok, "\(set.text)")
            let asset = try await client.get("/v1/assets/\(first)", token: fixture.ownerToken)
            #expect(asset.json["rating"] as? Int == 4)
            #expect(asset.json["caption"] as? String == "Harbour at dawn")
            #expect(asset.json["keywords"] as? [String] == ["harbour", "boats"])

            let best = try await client.get("/v1/assets?predicate=\("rating >= 4 AND ANY keywords == 'boats'".queryEscaped)", token: fixture.ownerToken)
            let items = try #require(best.json["items"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == [first])
            #expect(items.first?["caption"] as? String == "Harbour at dawn", "a page carries captions")

            // Absent leaves a field alone; null clears the caption.
            let cleared = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: ["requests": [["op": "updateAsset", "asset": first, "caption": NSNull(), "removeKeywords": ["boats", "absent"]]] as [[String: Any]]])
            #expect(cleared.status == .ok, "\(cleared.text)")
            let after = try await client.get("/v1/assets/\(first)", token: fixture.ownerToken)
            #expect(after.json["caption"] == nil && after.json["rating"] as? Int == 4)
            #expect(after.json["keywords"] as? [String] == ["harbour"])
            #expect((try await client.get("/v1/assets/\(second)", token: fixture.ownerToken)).json["keywords"] as? [String] == ["kitchen"])
        }
        #expect(described(fixture, fixture.assets[0]).rating == .four)
    }

    @Test func badDescriptionsAreRefusedAndChangeNothing() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        let before = fixture.library.currentChangeToken
        try await fixture.withRouter { client in
            let cases: [([String: Any], HTTPResponse.Status)] = [
                (["op": "updateAsset", "asset": id, "rating": 6], .badRequest),
                (["op": "updateAsset", "asset": id, "rating": -1], .badRequest),
                (["op": "updateAsset", "asset": id, "rating": "five"], .badRequest),
                (["op": "updateAsset", "asset": id, "caption": 12], .badRequest),
                (["op": "updateAsset", "asset": id, "addKeywords": "one"], .badRequest),
                (["op": "updateAsset", "asset": id, "addKeywords": ["two\nlines"]], .unprocessableContent),
                (["op": "updateAsset", "asset": id, "caption": String(repeating: "x", count: 20_000)], .unprocessableContent),
                (["op": "updateAsset", "asset": id, "addKeywords": (0...500).map { "k\($0)" }], .badRequest),
            ]
            for (request, status) in cases {
                let response = try await client.send(
                    .post, "/v1/changes", token: fixture.ownerToken, json: ["requests": [request]])
                #expect(response.status == status, "\(request): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
        #expect(fixture.library.currentChangeToken == before)
    }

    @Test func aLimitedClientDescribesOnlyWhatItSees() async throws {
        let fixture = try ServerFixture(photos: 2)
        let (mine, other) = (fixture.assets[0], fixture.assets[1])
        let token = try fixture.clientToken("org.example.tagger", grant: .limited, selection: [mine])
        try await fixture.withRouter { client in
            let outside = try await client.send(
                .post, "/v1/changes", token: token, json: ["requests": [["op": "updateAsset", "asset": urlID(other), "rating": 5]]])
            #expect(outside.status == .notFound)
            let inside = try await client.send(
                .post, "/v1/changes", token: token,
                json: ["requests": [["op": "updateAsset", "asset": urlID(mine), "rating": 5, "addKeywords": ["mine"]] as [String: Any]]])
            #expect(inside.status == .ok, "\(inside.text)")
            let found = try await client.get("/v1/assets?predicate=\("rating == 5 OR ANY keywords == 'mine'".queryEscaped)", token: token)
            #expect((found.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } == [mine])
        }
        #expect(described(fixture, other).rating == .unset)
        #expect(described(fixture, mine).extendedMetadata.keywords == ["mine"])
    }
}

extension String {
    fileprivate var queryEscaped: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self
    }
}
