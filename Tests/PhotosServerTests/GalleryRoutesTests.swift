import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosGallery
import Testing

@testable import PhotosServer

/// What the web gallery needs from the server: its files, its session read
/// back, share links, the albums holding an asset, album order, restores,
/// and query text as browsers encode it.
@Suite struct GalleryRoutesTests {
    @Test func theGalleryIsServedWithAStrictPolicyAndValidators() async throws {
        let fixture = try ServerFixture(photos: 1)
        #expect(GalleryFiles.bundled.names.contains("main.js") && GalleryFiles.bundled.names.contains("index.html"))
        try await fixture.withRouter { client in
            let page = try await client.get("/", token: nil)
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"))
            let module = try await client.get("/gallery/grid.js", token: nil)
            #expect(module.status == .ok && module.headers[.contentType] == "text/javascript; charset=utf-8")
            let tag = try #require(module.headers[.eTag])
            #expect(try await client.get("/gallery/grid.js", token: nil, headers: [.ifNoneMatch: tag]).status == .notModified)
            for name in ["nothing.js", "..%2Fgrid.js", "%2E%2E"] {
                #expect(try await client.get("/gallery/\(name)", token: nil).status == .notFound, "\(name)")
            }
        }
    }

    @Test func aReloadedPageReadsItsSessionBack() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let signIn = try await client.send(.post, "/v1/session", token: nil, json: ["token": fixture.ownerToken])
            let cookie = String(try #require(signIn.headers[.setCookie]).prefix { $0 != ";" })
            let session = try await client.get("/v1/session", token: nil, headers: [.cookie: cookie])
            #expect(session.status == .ok && session.headers[.cacheControl] == "no-store")
            #expect(session.json["csrfToken"] as? String == signIn.json["csrfToken"] as? String)
            #expect(session.json["label"] as? String == "test owner")
            #expect(try await client.get("/v1/session", token: fixture.ownerToken).status == .notFound, "a bearer token has no session")
            #expect(try await client.get("/v1/session", token: nil).status == .unauthorized)
        }
    }

    @Test func theOwnerSharesAnAlbumAndRevokesTheLink() async throws {
        let fixture = try ServerFixture(photos: 3)
        let shared = Array(fixture.assets.prefix(2)).map(urlID)
        try await fixture.withRouter { client in
            let made = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: ["requests": [["op": "createAlbum", "title": "Beach", "ref": "a", "addAssets": shared]]])
            let album = urlID(try #require((made.json["created"] as? [String: String])?["a"]))
            let expires = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
            let created = try await client.send(.post, "/v1/shares", token: fixture.ownerToken, json: ["album": album, "expires": expires])
            #expect(created.status == .created, "\(created.text)")
            let bearer = try #require(created.json["token"] as? String)
            #expect(created.json["path"] as? String == "/#share=\(bearer)")
            let share = try #require(created.json["share"] as? [String: Any])
            let id = try #require(share["id"] as? String)
            #expect((share["label"] as? String)?.contains("Beach") == true && share["expires"] != nil)

            let page = try await client.get("/v1/assets", token: bearer)
            #expect(Set((page.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == Set(shared))
            let write = try await client.send(.post, "/v1/changes", token: bearer, json: ["requests": [["op": "deleteAssets", "assets": [shared[0]]]]])
            #expect(write.status == .forbidden, "a share link only reads")
            #expect(try await client.get("/v1/shares", token: bearer).status == .forbidden)

            let list = try await client.get("/v1/shares", token: fixture.ownerToken)
            #expect((list.json["shares"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let client2 = try fixture.clientToken("other", grant: .readWrite)
            #expect(try await client.send(.post, "/v1/shares", token: client2, json: ["album": album]).status == .forbidden)
            #expect(
                try await client.send(.post, "/v1/shares", token: fixture.ownerToken, json: ["album": album, "expires": "2001-01-01T00:00:00Z"]).status
                    == .badRequest)
            #expect(try await client.send(.post, "/v1/shares", token: fixture.ownerToken, json: ["album": UUID().uuidString]).status == .notFound)
            #expect(try await client.send(.post, "/v1/shares", token: fixture.ownerToken, json: ["album": album, "admin": true]).status == .badRequest)
            let ownerTokenID = try #require(fixture.library.accessTokens().first { $0.clientIdentifier == nil }?.id)
            #expect(
                try await client.execute(uri: "/v1/shares/\(ownerTokenID)", method: .delete, headers: .bearer(fixture.ownerToken)).status == .notFound,
                "only share links are revoked here")

            #expect(try await client.execute(uri: "/v1/shares/\(id)", method: .delete, headers: .bearer(fixture.ownerToken)).status == .noContent)
            #expect(
                try await client.get("/v1/assets", token: bearer).status == .unauthorized,
                "a link revoked by this server stops working at once")
        }
    }

    @Test func anAlbumIsReorderedByMovingAssetsAndAnAssetNamesItsAlbums() async throws {
        let fixture = try ServerFixture(photos: 4)
        let ids = fixture.assets.map(urlID)
        try await fixture.withRouter { client in
            let made = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: ["requests": [["op": "createAlbum", "title": "Order", "ref": "a", "addAssets": ids]]])
            let album = urlID(try #require((made.json["created"] as? [String: String])?["a"]))
            func order() async throws -> [String] {
                let page = try await client.get("/v1/albums/\(album)/assets", token: fixture.ownerToken)
                return (page.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            let move = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: ["requests": [["op": "updateAlbum", "album": album, "moveAssets": [ids[0], ids[1]], "toIndex": 2]]])
            #expect(move.status == .ok, "\(move.text)")
            #expect(try await order() == [ids[2], ids[3], ids[0], ids[1]])
            for bad: [String: Any] in [
                ["moveAssets": [ids[0]], "toIndex": 4], ["moveAssets": [ids[0]]], ["toIndex": 0],
                ["moveAssets": [ids[0], ids[0]], "toIndex": 0], ["moveAssets": [] as [String], "toIndex": 0],
            ] {
                let refused = try await client.send(
                    .post, "/v1/changes", token: fixture.ownerToken,
                    json: ["requests": [["op": "updateAlbum", "album": album].merging(bad) { $1 }]])
                #expect(refused.status == .badRequest, "\(bad): \(refused.text)")
            }
            #expect(try await order() == [ids[2], ids[3], ids[0], ids[1]], "a refused move changes nothing")
            let albums = try await client.get("/v1/assets/\(ids[0])/albums", token: fixture.ownerToken)
            #expect((albums.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Order"])
        }
    }

    @Test func anAssetInRecentlyDeletedIsRestoredOverHTTP() async throws {
        let fixture = try ServerFixture(photos: 2)
        let id = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            let delete = ["requests": [["op": "deleteAssets", "assets": [id]]]]
            #expect(try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: delete).status == .ok)
            let update = ["requests": [["op": "updateAsset", "asset": id, "favorite": true]]]
            #expect(
                try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: update).status == .notFound,
                "only a restore reaches into Recently Deleted")
            // Shown while in Recently Deleted, so the gallery can show what it would restore.
            #expect(try await client.get("/v1/assets/\(id)", token: fixture.ownerToken).status == .ok)
            #expect(try await client.get("/v1/assets/\(id)/thumbnail", token: fixture.ownerToken).status == .ok)
            #expect(try await client.get("/v1/assets/\(UUID().uuidString)", token: fixture.ownerToken).status == .notFound)
            let restore = ["requests": [["op": "restoreAssets", "assets": [id]]]]
            let restored = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: restore)
            #expect(restored.status == .ok, "\(restored.text)")
            #expect(try await client.get("/v1/assets/\(id)", token: fixture.ownerToken).status == .ok)
        }
    }

    @Test func queryTextIsDecodedAsBrowsersEncodeIt() async throws {
        let fixture = try ServerFixture(photos: 2)
        try await fixture.withRouter { client in
            // URLSearchParams writes spaces as + and a plus as %2B.
            let spaced = try await client.get("/v1/assets?predicate=pixelWidth+%3E+10", token: fixture.ownerToken)
            #expect(spaced.status == .ok, "\(spaced.text)")
            #expect((spaced.json["items"] as? [Any])?.count == 2)
            let plus = try await client.get("/v1/assets?predicate=pixelWidth+%2B+1", token: fixture.ownerToken)
            #expect(
                plus.status == .badRequest && (plus.json["detail"] as? String)?.contains("pixelWidth + 1") == true,
                "a %2B is a plus sign: \(plus.text)")
        }
    }
}
