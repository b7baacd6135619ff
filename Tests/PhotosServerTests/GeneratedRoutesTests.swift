import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Photos
import Testing

@testable import PhotosServer

/// The routes swift-openapi-generator serves (``JSONRoutes``) answer as
/// every route of the API does: problems as problem+json with the API's
/// own statuses and messages, bodies held to the API's rules, nothing of
/// the request (its token least of all) echoed back.
@Suite struct GeneratedRoutesTests {
    @Test func whatDoesNotParseIsABadRequestThatEchoesNothing() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            for uri in ["/v1/assets?limit=abc", "/v1/albums?limit=1.5", "/v1/assets?hidden=maybe"] {
                let response = try await client.get(uri, token: fixture.ownerToken)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(!response.text.contains(fixture.ownerToken) && !response.text.contains("Bearer"), "\(uri): \(response.text)")
            }
            // A value of the right type the operation refuses: its own message.
            let tooMany = try await client.get("/v1/assets?limit=1001", token: fixture.ownerToken)
            #expect(tooMany.status == .badRequest && (tooMany.json["detail"] as? String)?.contains("from 1 to 1000") == true)
            let unknown = try await client.get("/v1/albums/\(UUID().uuidString)", token: fixture.ownerToken)
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json")
        }
    }

    @Test func anAcceptTheOperationCannotMeetIs406() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let html = try await client.get("/v1/library", token: fixture.ownerToken, headers: [.accept: "text/html"])
            #expect(html.status == .notAcceptable && html.headers[.contentType] == "application/problem+json")
            let any = try await client.get("/v1/library", token: fixture.ownerToken, headers: [.accept: "text/html, */*;q=0.1"])
            #expect(any.status == .ok && (any.json["counts"] as? [String: Any])?["photos"] as? Int == 1)
        }
    }

    @Test func aBodyKeepsTheAPIsRulesBeforeItIsDecoded() async throws {
        let fixture = try ServerFixture(photos: 1)
        let album = try fixture.library.withCurrentLibrary {
            var id = ""
            try fixture.library.performChangesAndWait {
                id =
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip").placeholderForCreatedAssetCollection
                    .localIdentifier
            }
            return urlID(id)
        }
        try await fixture.withRouter { client in
            func post(_ body: String, contentType: String = "application/json") async throws -> TestResponse {
                try await client.execute(
                    uri: "/v1/shares", method: .post,
                    headers: [.authorization: "Bearer \(fixture.ownerToken)", .contentType: contentType], body: ByteBuffer(string: body))
            }
            let valid = #"{"album": "\#(album)"}"#
            #expect(try await post(valid, contentType: "text/plain").status == .unsupportedMediaType)
            #expect(try await post(#"{"album": "\#(album)", "album": "x"}"#).status == .badRequest)
            #expect(try await post(#"{"album": "\#(album)", "label": "x"}"#).status == .badRequest, "a field the document does not declare")
            #expect(try await post(#"{"album": "\#(String(repeating: "x", count: 5000))"}"#).status == .contentTooLarge)
            #expect(try await post(#"{"album": "\#(album)", "expires": "tomorrow"}"#).status == .badRequest)
            let created = try await post(valid)
            #expect(created.status == .created && created.headers[.cacheControl] == "no-store")
            #expect((created.json["token"] as? String)?.hasPrefix("opk_") == true)
        }
    }

    @Test func aChangeBlockSaysWhereItsBodyIsWrong() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            for (body, expected) in [
                (["requests": [["op": "createAlbum", "title": "X", "bogus": 1]]], #"at .requests[0].bogus: unknown field "bogus""#),
                (["requests": [["op": "createAlbum", "title": "X"]], "extra": true], #"at .extra: unknown field "extra""#),
                (["requests": [["op": "createAlbum", "title": 5]]], "at .requests[0].title: expected String"),
                (["requests": [] as [Any]], "a block holds 1 to 1000 requests"),
            ] as [([String: Any], String)] {
                let response = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: body)
                #expect(response.status == .badRequest)
                let detail = response.json["detail"] as? String ?? ""
                #expect(detail.hasPrefix("the request is not what performChanges takes: ") && detail.contains(expected), "\(detail)")
            }
        }
    }

    /// The generated route decodes a block as the document's `ChangeBlock`
    /// typed by hand: a field left out leaves it as it is, `null` clears it.
    @Test func aFieldLeftOutIsUnchangedAndNullClearsIt() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        @Sendable func latitude() -> Double? {
            fixture.library.withCurrentLibrary {
                PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil)[0].location?.coordinate.latitude
            }
        }
        try await fixture.withRouter { client in
            func update(_ fields: [String: Any]) async throws {
                let request = fields.merging(["op": "updateAsset", "asset": id]) { $1 }
                let response = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: ["requests": [request]])
                #expect(response.status == .ok, "\(response.text)")
            }
            try await update(["location": ["latitude": 48.85, "longitude": 2.35]])
            #expect(latitude() == 48.85)
            try await update(["favorite": true])
            #expect(latitude() == 48.85, "left out: unchanged")
            try await update(["location": NSNull()])
            #expect(latitude() == nil, "null: cleared")
            // An empty If-Match is none, as every header the API reads; one naming no token is refused.
            let block = ["requests": [["op": "createAlbum", "title": "Trip"]]]
            #expect(try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: block, headers: [.ifMatch: ""]).status == .ok)
            #expect(
                try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: block, headers: [.ifMatch: "junk"]).status
                    == .badRequest)
        }
    }
}
