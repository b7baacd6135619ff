import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Nothing is served without a token the library knows; browsers sign in
/// for a cookie and must echo its CSRF token to change anything.
@Suite struct AuthenticationTests {
    @Test func everyRouteButSignInNeedsAToken() async throws {
        let fixture = try ServerFixture(photos: 1)
        let asset = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            for uri in [
                "/v1/library", "/v1/assets", "/v1/assets/\(asset)", "/v1/assets/\(asset)/thumbnail", "/v1/albums",
                "/v1/changes", "/v1/folders", "/v1/moments", "/v1/smart-albums",
            ] {
                let response = try await client.get(uri, token: nil)
                #expect(response.status == .unauthorized, "\(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            let forged = "opk_abcdefghijkm_" + String(repeating: "A", count: 43)
            for token in [forged, "garbage", "", fixture.ownerToken + "x", String(fixture.ownerToken.dropLast()) + "B"] {
                #expect(try await client.get("/v1/library", token: token).status == .unauthorized, "\(token)")
            }
            #expect(try await client.get("/v1/library", token: fixture.ownerToken).status == .ok)
        }
    }

    /// A proof is remembered, so that a burst of requests costs one lookup,
    /// but only until a revocation, which the server hears of through the
    /// library's commit watcher however it was made: here by another
    /// instance of the library, as `photos token revoke` would. The server's
    /// clock stands still, so no proof lapses on its own.
    @Test func aTokenRevokedElsewhereStopsWhenTheServerHearsOfItAndAnExpiredOneAtItsExpiry() async throws {
        let clock = TestClock()
        let fixture = try ServerFixture(photos: 1, configuration: .init(port: 0, clock: clock.read))
        let issued = try fixture.library.createAccessToken(forClient: nil)
        let kept = try fixture.library.createAccessToken(forClient: nil)
        let expiring = try fixture.library.createAccessToken(forClient: nil, expirationDate: clock.read().addingTimeInterval(30))
        let expired = try fixture.library.createAccessToken(forClient: nil, expirationDate: Date().addingTimeInterval(-1)).bearer
        let elsewhere = try PHPhotoLibrary(url: fixture.library.url)
        try await fixture.withRouter { client in
            for token in [issued.bearer, kept.bearer, expiring.bearer] {
                #expect(try await client.get("/v1/library", token: token).status == .ok)
            }
            try elsewhere.revokeAccessToken(id: issued.token.id)
            #expect(try await eventually { try await client.get("/v1/library", token: issued.bearer).status == .unauthorized })
            #expect(try await client.get("/v1/library", token: kept.bearer).status == .ok)
            #expect(try await client.get("/v1/library", token: expired).status == .unauthorized)
            clock.advance(by: 31)
            #expect(try await client.get("/v1/library", token: expiring.bearer).status == .unauthorized)
            #expect(try await client.get("/v1/library", token: kept.bearer).status == .ok)
        }
        #expect(throws: PHPhotosError.self) { try fixture.library.revokeAccessToken(id: issued.token.id) }
    }

    /// A proof lasts until a revocation is heard; once the library becomes
    /// unavailable (its write-ahead log deleted) revocations can no longer
    /// be heard, and a proof lasts only a second of the server's clock.
    @Test func whileRevocationsCannotBeHeardAProofLastsASecond() async throws {
        let clock = TestClock()
        let fixture = try ServerFixture(photos: 1, configuration: .init(port: 0, clock: clock.read))
        let proofs = fixture.server.authentication.provenTokens
        let principal = Principal(try #require(try fixture.library.accessTokens().first))
        #expect(proofs.isFollowing)
        proofs.remember("heard", as: principal, expires: nil, lookedUpAfter: proofs.revocationCount)
        clock.advance(by: 30)
        #expect(proofs.principal(for: "heard") != nil, "heard revocations: the proof holds")

        try FileManager.default.removeItem(atPath: fixture.library.url.appendingPathComponent("database/Photos.sqlite-wal").path)
        #expect(try await eventually { !proofs.isFollowing })
        #expect(proofs.principal(for: "heard") == nil, "what was proven is forgotten when the watch goes down")
        // The first proof after the watch went down starts it again (the library
        // is still unavailable, so it goes down again), and outdates what was
        // looked up before: the next is what a lookup now makes.
        proofs.remember("retried", as: principal, expires: nil, lookedUpAfter: proofs.revocationCount)
        #expect(try await eventually { !proofs.isFollowing })
        proofs.remember("unheard", as: principal, expires: nil, lookedUpAfter: proofs.revocationCount)
        #expect(proofs.principal(for: "unheard") != nil)
        clock.advance(by: 1.5)
        #expect(proofs.principal(for: "unheard") == nil)
    }

    @Test func theLibraryKeepsOnlyHashesOfTokens() throws {
        let fixture = try ServerFixture(photos: 0)
        let database =
            try Data(contentsOf: fixture.library.url.appendingPathComponent("database/Photos.sqlite"))
            + ((try? Data(contentsOf: fixture.library.url.appendingPathComponent("database/Photos.sqlite-wal"))) ?? Data())
        let secret = String(fixture.ownerToken.suffix(43))
        #expect(database.range(of: Data(secret.utf8)) == nil)
        #expect(try fixture.library.accessTokens().count == 1)
    }

    @Test func aClientMayNotManageTokens() throws {
        let fixture = try ServerFixture(photos: 0)
        try fixture.library.setAccess(.readWrite, forClient: "org.example.app")
        let client = try PHPhotoLibrary(url: fixture.library.url, clientIdentifier: "org.example.app")
        #expect(throws: PHPhotosError.self) { try client.createAccessToken(forClient: nil) }
        #expect(throws: PHPhotosError.self) { try client.accessTokens() }
    }

    @Test func aBrowserSignsInForAStrictCookieAndEchoesItsCSRFToken() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let signIn = try await client.send(.post, "/v1/session", token: nil, json: ["token": fixture.ownerToken])
            #expect(signIn.status == .ok)
            let setCookie = try #require(signIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
            let session = String(setCookie.prefix { $0 != ";" })
            let csrf = try #require(signIn.json["csrfToken"] as? String)

            #expect(try await client.get("/v1/library", token: nil, headers: [.cookie: session]).status == .ok)
            let block = ["requests": [["op": "createAlbum", "title": "From a browser"]]]
            let forged = try await client.send(.post, "/v1/changes", token: nil, json: block, headers: [.cookie: session])
            #expect(forged.status == .forbidden, "no CSRF token: \(forged.text)")
            let wrong = try await client.send(
                .post, "/v1/changes", token: nil, json: block,
                headers: [.cookie: session, HTTPField.Name("X-CSRF-Token")!: csrf + "x"])
            #expect(wrong.status == .forbidden)
            let allowed = try await client.send(
                .post, "/v1/changes", token: nil, json: block,
                headers: [.cookie: session, HTTPField.Name("X-CSRF-Token")!: csrf])
            #expect(allowed.status == .ok, "\(allowed.text)")

            let signOut = try await client.execute(
                uri: "/v1/session", method: .delete,
                headers: [.cookie: session, HTTPField.Name("X-CSRF-Token")!: csrf])
            #expect(signOut.status == .noContent)
            #expect(try await client.get("/v1/library", token: nil, headers: [.cookie: session]).status == .unauthorized)
            let refused = try await client.send(.post, "/v1/session", token: nil, json: ["token": "nope"])
            #expect(refused.status == .unauthorized)
            let unknownField = try await client.send(.post, "/v1/session", token: nil, json: ["token": fixture.ownerToken, "admin": true])
            #expect(unknownField.status == .badRequest)
        }
    }

    /// Failures from one address are throttled, never a valid token: behind
    /// a NAT or a proxy, the owner shares the address with whoever fails.
    @Test func failedSignInsFromOneAddressAreThrottledButValidTokensStillWork() async throws {
        let fixture = try ServerFixture(photos: 0, configuration: .init(port: 0, signInFailuresPerMinute: 3))
        try await fixture.withLiveServer { client in
            for _ in 0..<3 { #expect(try await client.get("/v1/library", token: "wrong").status == .unauthorized) }
            let throttled = try await client.get("/v1/library", token: "wrong")
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] != nil)
            #expect(try await client.get("/v1/library", token: fixture.ownerToken).status == .ok)
            let signIn = try await client.send(.post, "/v1/session", token: nil, json: ["token": fixture.ownerToken])
            #expect(signIn.status == .ok)
            #expect(try await client.send(.post, "/v1/session", token: nil, json: ["token": "nope"]).status == .tooManyRequests)
        }
    }

    /// A web page of another site can post a `text/plain` body without
    /// asking the browser, never a JSON one: such a sign-in is refused before
    /// it is tried, so no page the owner visits can throttle the owner.
    @Test func aSignInThatIsNotJSONIsRefusedUncounted() async throws {
        let fixture = try ServerFixture(photos: 0, configuration: .init(port: 0, signInFailuresPerMinute: 2))
        try await fixture.withLiveServer { client in
            for _ in 0..<10 {
                let response = try await client.execute(
                    uri: "/v1/session", method: .post, headers: [.contentType: "text/plain"],
                    body: ByteBuffer(string: "{\"token\": \"nope\"}"))
                #expect(response.status == .unsupportedMediaType)
            }
            #expect(try await client.send(.post, "/v1/session", token: nil, json: ["token": "nope"]).status == .unauthorized)
        }
    }
}
