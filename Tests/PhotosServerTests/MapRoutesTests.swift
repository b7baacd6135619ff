import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// `/v1/map`, `/v1/map/outlines` and `/v1/map/clusters`: the gallery's
/// offline map, as each token sees its photos on it.
@Suite struct MapRoutesTests {
    /// Five photos: two in Paris, one in Lyon, one in Sydney, one not located.
    private static func placePhotos(_ fixture: ServerFixture) throws {
        let places: [(Double, Double)?] = [(48.8566, 2.3522), (48.86, 2.34), (45.764, 4.8357), (-33.87, 151.21), nil]
        let assets = PHAsset.fetchAssets(withLocalIdentifiers: fixture.assets, options: nil)
        try fixture.library.performChangesAndWait {
            for (index, place) in places.enumerated() {
                PHAssetChangeRequest(for: assets[index]).location = place.map { CLLocation(latitude: $0.0, longitude: $0.1) }
            }
        }
    }

    @Test func clustersAreTheTokensPhotosAndTheirSearchesFindThem() async throws {
        let fixture = try ServerFixture(photos: 5)
        try fixture.library.withCurrentLibrary { try Self.placePhotos(fixture) }
        let limited = try fixture.clientToken("org.example.map", grant: .limited, selection: [fixture.assets[2], fixture.assets[4]])
        try await fixture.withRouter { client in
            let world = try await client.get("/v1/map/clusters?south=-90&west=-180&north=90&east=180&cell=10", token: fixture.ownerToken)
            #expect(world.status == .ok, "\(world.text)")
            let clusters = try #require(world.json["items"] as? [[String: Any]])
            #expect(clusters.map { $0["assetCount"] as? Int } == [3, 1], "France's cell, then Sydney's: \(world.text)")
            let france = clusters[0]
            #expect((france["south"] as? Double) == 45.764 && (france["north"] as? Double) == 48.86)
            let search = try #require(france["search"] as? String)
            let found = try await client.get("/v1/search?q=" + search.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, token: fixture.ownerToken)
            #expect(Set((found.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []) == Set(fixture.assets[0..<3].map(urlID)))
            let fine = try await client.get("/v1/map/clusters?south=40&west=0&north=50&east=10&cell=0.5&limit=1", token: fixture.ownerToken)
            #expect((fine.json["items"] as? [[String: Any]])?.map { $0["assetCount"] as? Int } == [2], "Paris's two, the fullest: \(fine.text)")

            // The limited token sees its Lyon photo only (its other is not located).
            let mine = try await client.get("/v1/map/clusters?south=-90&west=-180&north=90&east=180&cell=10", token: limited)
            let theirs = try #require(mine.json["items"] as? [[String: Any]])
            #expect(theirs.count == 1 && theirs[0]["assetCount"] as? Int == 1 && theirs[0]["cover"] as? String == urlID(fixture.assets[2]))
            #expect((theirs[0]["latitude"] as? Double) == 45.764)
        }
    }

    @Test func badBoxesCellsAndLimitsAreRefused() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            for query in [
                "south=10&west=0&north=5&east=10&cell=1", "south=-91&west=0&north=5&east=10&cell=1", "south=0&west=0&north=5&east=181&cell=1",
                "south=0&west=10&north=5&east=0&cell=1", "south=0&west=0&north=5&east=10&cell=0", "south=0&west=0&north=5&east=10&cell=400",
                "south=0&west=0&north=5&east=10&cell=1&limit=0", "south=0&west=0&north=5&east=10&cell=1&limit=5001",
                "south=0&west=0&north=5&east=10", "south=nan&west=0&north=5&east=10&cell=1", "south=abc&west=0&north=5&east=10&cell=1",
                "south=0&west=0&north=inf&east=10&cell=1", "south=0&west=0&north=5&east=10&cell=1e-300",
            ] {
                let response = try await client.get("/v1/map/clusters?" + query, token: fixture.ownerToken)
                #expect(response.status == .badRequest, "\(query): \(response.status) \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(query)")
            }
            #expect(try await client.get("/v1/map/clusters?south=0&west=0&north=5&east=10&cell=1", token: nil).status == .unauthorized)
        }
    }

    @Test func theOutlinesAreServedOnceTaggedAndNoTilesAreSetByDefault() async throws {
        let fixture = try ServerFixture(photos: 1)
        try #require(MapRoutes.outlines != nil, "script/bootstrap installs the country outlines")
        try await fixture.withRouter { client in
            let settings = try await client.get("/v1/map", token: fixture.ownerToken)
            #expect(settings.json["outlines"] as? Bool == true && settings.json["tileTemplate"] == nil, "\(settings.text)")
            let outlines = try await client.get("/v1/map/outlines", token: fixture.ownerToken)
            #expect(outlines.status == .ok && outlines.headers[.contentType] == "application/json")
            let countries = try #require(outlines.json["countries"] as? [[String: Any]])
            #expect(countries.count == 177 && outlines.body.readableBytes < 400_000, "\(outlines.body.readableBytes) bytes")
            let france = try #require(countries.first { $0["code"] as? String == "FRA" })
            #expect((france["rings"] as? [[Double]])?.allSatisfy { $0.count % 2 == 0 } == true)
            let tag = try #require(outlines.headers[.eTag])
            #expect(try await client.get("/v1/map/outlines", token: fixture.ownerToken, headers: [.ifNoneMatch: tag]).status == .notModified)
            #expect(try await client.get("/v1/map/outlines", token: nil).status == .unauthorized)
            let page = try await client.get("/", token: nil)
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: blob:;") == true, "no other origin by default")
        }
    }

    @Test func anOwnersTileServerIsAllowedAndOnlyIt() async throws {
        var configuration = PhotoServer.Configuration(port: 0)
        configuration.mapTiles = try MapTiles(template: "https://Tiles.Example.org:8443/{z}/{x}/{y}.png", attribution: "© Example contributors")
        let fixture = try ServerFixture(photos: 1, configuration: configuration)
        try await fixture.withRouter { client in
            let settings = try await client.get("/v1/map", token: fixture.ownerToken)
            #expect(settings.json["tileTemplate"] as? String == "https://Tiles.Example.org:8443/{z}/{x}/{y}.png")
            #expect(settings.json["attribution"] as? String == "© Example contributors")
            let policy = try #require(try await client.get("/", token: nil).headers[.contentSecurityPolicy])
            #expect(policy.contains("img-src 'self' data: blob: https://tiles.example.org:8443;"), "\(policy)")
            #expect(policy.contains("connect-src 'self';"), "the page still talks to this server only")
        }
        for template in [
            "https://tiles.example.org/{z}/{x}.png", "ftp://tiles.example.org/{z}/{x}/{y}.png", "tiles.example.org/{z}/{x}/{y}.png",
            "https://tiles.example.org/{z}/{x}/{y}.png; script-src *", "https://a b/{z}/{x}/{y}", "https://u:p@tiles.example.org/{z}/{x}/{y}",
            "https:///{z}/{x}/{y}", "https://tiles.example.org/{z}/{x}/{y}'", "https://tiles.example.org/" + String(repeating: "a", count: 2_000) + "{z}{x}{y}",
            "https://tïles.example.org/{z}/{x}/{y}",
        ] {
            #expect(throws: MapTiles.Invalid.self, "\(template)") { try MapTiles(template: template) }
        }
        #expect(throws: MapTiles.Invalid.self) { try MapTiles(template: "https://t.example/{z}/{x}/{y}", attribution: "a\u{7}b") }
    }
}
