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
}
