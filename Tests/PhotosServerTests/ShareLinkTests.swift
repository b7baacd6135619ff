import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// A share link reads its album as it is now, and nothing else: no other
/// collection's title, never a hidden, removed or deleted photo; a
/// revocation ends it at once on every path; a password holds it back.
@Suite struct ShareLinkTests {
    /// Albums "Public" (photos 0 and 1) and "Secret ex-partner" (photo 0)
    /// in a folder "Private folder"; a link to "Public".
    private struct Shared {
        let fixture: ServerFixture
        let album: PHAssetCollection
        let link: PHPhotoLibrary.IssuedAccessToken

        init(photos: Int = 4, password: String? = nil) throws {
            fixture = try ServerFixture(photos: photos)
            let library = fixture.library
            let assets = fixture.assets
            var publicID = ""
            try library.performChangesAndWait {
                let all = PHAsset.fetchAssets(withLocalIdentifiers: assets, options: nil)
                let shared = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Public")
                shared.addAssets(all.objects(at: IndexSet([0, 1])) as NSArray)
                let secret = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Secret ex-partner")
                secret.addAssets([all[0]] as NSArray)
                let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Private folder")
                folder.addChildCollections([secret.placeholderForCreatedAssetCollection] as NSArray)
                publicID = shared.placeholderForCreatedAssetCollection.localIdentifier
            }
            let album = library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [publicID], options: nil)[0] }
            self.album = album
            link = try library.withCurrentLibrary { try library.createShareLink(for: album, password: password) }
        }

        func asset(_ index: Int) -> PHAsset {
            fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[index]], options: nil)[0] }
        }
    }

    @Test func aLinkTellsNoOtherCollectionsTitle() async throws {
        let shared = try Shared()
        let (fixture, token) = (shared.fixture, shared.link.bearer)
        let ids = fixture.assets.map(urlID)
        try await fixture.withRouter { client in
            let albums = try await client.get("/v1/albums", token: token)
            #expect((albums.json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Public"])
            let holding = try await client.get("/v1/assets/\(ids[0])/albums", token: token)
            #expect((holding.json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Public"])
            var everything = ""
            for path in [
                "/v1/library", "/v1/albums", "/v1/smart-albums", "/v1/moments", "/v1/folders", "/v1/assets", "/v1/timeline",
                "/v1/assets/\(ids[0])", "/v1/assets/\(ids[0])/albums", "/v1/assets/\(ids[1])/albums",
                "/v1/albums/\(urlID(shared.album.localIdentifier))", "/v1/changes",
            ] {
                everything += try await client.get(path, token: token).text
            }
            #expect(!everything.contains("Secret") && !everything.contains("Private folder"), "\(everything)")
            #expect((try await client.get("/v1/folders", token: token).json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Public"])
            #expect((try await client.get("/v1/smart-albums", token: token).json["items"] as? [Any])?.isEmpty == true)
            #expect((try await client.get("/v1/moments", token: token).json["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.get("/v1/assets/\(ids[2])", token: token).status == .notFound, "outside the album")
        }
    }

    /// What the owner hides, removes from the album or deletes is gone for
    /// the link at once, on the cached thumbnail path too; what the owner
    /// adds appears.
    @Test func aLinkFollowsTheAlbumAsItIsNow() async throws {
        let shared = try Shared()
        let (fixture, token) = (shared.fixture, shared.link.bearer)
        let ids = fixture.assets.map(urlID)
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let connection = try RawConnection(port: port.number)
        func thumbnail(_ id: String) async throws -> String {
            try connection.send("GET /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
            return try #require(try await connection.response()).statusLine
        }
        for id in ids[0...1] {
            #expect(try await thumbnail(id).contains("200"))
            #expect(try await thumbnail(id).contains("200"), "now from the cache")
        }
        #expect(try await thumbnail(ids[3]).contains("404"))
        let album = shared.album
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: shared.asset(0)).isHidden = true
            PHAssetCollectionChangeRequest(for: album)!.removeAssets([shared.asset(1)] as NSArray)
            PHAssetCollectionChangeRequest(for: album)!.addAssets([shared.asset(2), shared.asset(3)] as NSArray)
        }
        try fixture.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([shared.asset(3)] as NSArray) }
        #expect(try await eventually { try await thumbnail(ids[0]).contains("404") }, "hidden")
        #expect(try await thumbnail(ids[1]).contains("404"), "removed from the album")
        #expect(try await thumbnail(ids[2]).contains("200"), "added to it")
        #expect(try await thumbnail(ids[3]).contains("404"), "deleted")
    }

    /// Revoked through the server, a link stops at once: on a connection
    /// whose thumbnails come from the cache, and in its browser sessions.
    @Test func aRevokedLinkStopsAtOnceOnEveryPath() async throws {
        let shared = try Shared()
        let (fixture, token) = (shared.fixture, shared.link.bearer)
        let id = urlID(fixture.assets[0])
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let connection = try RawConnection(port: port.number)
        let request = "GET /v1/assets/\(id)/thumbnail HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n"
        for _ in 0..<3 {
            try connection.send(request)
            #expect(try #require(try await connection.response()).statusLine.contains("200"))
        }
        let owner = try RawConnection(port: port.number)
        try owner.send(
            "DELETE /v1/shares/\(shared.link.token.id) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(fixture.ownerToken)\r\nContent-Length: 0\r\n\r\n")
        #expect(try #require(try await owner.response()).statusLine.contains("204"))
        try connection.send(request)
        #expect(try #require(try await connection.response()).statusLine.contains("401"), "not one more thumbnail")
    }

    @Test func aPasswordHoldsALinkBack() async throws {
        let shared = try Shared(password: "correct horse")
        let (fixture, token) = (shared.fixture, shared.link.bearer)
        #expect(shared.link.token.hasPassword)
        try await fixture.withRouter { client in
            #expect(try await client.get("/v1/library", token: token).status == .unauthorized, "the token alone is not enough")
            for body in [["token": token], ["token": token, "password": "wrong"], ["token": token, "password": ""]] {
                #expect(try await client.send(.post, "/v1/session", token: nil, json: body).status == .unauthorized, "\(body)")
            }
            let signedIn = try await client.send(.post, "/v1/session", token: nil, json: ["token": token, "password": "correct horse"])
            #expect(signedIn.status == .ok)
            let cookie = try #require(signedIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(try await client.get("/v1/albums", token: nil, headers: [.cookie: cookie]).status == .ok)
            let listed = try await client.get("/v1/shares", token: fixture.ownerToken)
            #expect((listed.json["shares"] as? [[String: Any]])?.first?["hasPassword"] as? Bool == true)
        }
    }

    /// A link's holder signing in again and again pushes out its own oldest
    /// sessions, never the owner's.
    @Test func signInsOfOneTokenPushOutOnlyItsOwnSessions() async throws {
        let shared = try Shared(photos: 2)
        let (fixture, token) = (shared.fixture, shared.link.bearer)
        try await fixture.withRouter { client in
            let owner = try await client.send(.post, "/v1/session", token: nil, json: ["token": fixture.ownerToken])
            let ownerCookie = try #require(owner.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            for _ in 0..<(BrowserSessions.maximumPerToken * 3) {
                #expect(try await client.send(.post, "/v1/session", token: nil, json: ["token": token]).status == .ok)
            }
            #expect(try await client.get("/v1/library", token: nil, headers: [.cookie: ownerCookie]).status == .ok)
        }
        #expect(fixture.server.authentication.sessions.count(tokenID: shared.link.token.id) == BrowserSessions.maximumPerToken)
        #expect(fixture.server.authentication.sessions.count() == BrowserSessions.maximumPerToken + 1)
    }
}
