import Foundation
import HummingbirdTesting
import Photos
import PhotosIndexing
import Testing

@testable import PhotosServer

/// `/v1/search`: searches over HTTP, paged, in the token's grant.
@Suite struct SearchRoutesTests {
    @Test func searchesFindWordsPagedAndBounded() async throws {
        let fixture = try ServerFixture(photos: 5)
        let assets = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: fixture.assets, options: nil) }
        try fixture.library.performChangesAndWait {
            for index in [1, 3] { PHAssetChangeRequest(for: assets[index]).caption = "Lighthouse at Brest" }
            PHAssetChangeRequest(for: assets[3]).isFavorite = true
        }
        try LibraryIndexer(library: fixture.library).catchUp()
        let limited = try fixture.clientToken("org.example.finder", grant: .limited, selection: [fixture.assets[1]])
        try await fixture.withRouter { client in
            func identifiers(_ uri: String, token: String) async throws -> [String] {
                let response = try await client.get(uri, token: token)
                #expect(response.status == .ok, "\(uri): \(response.text)")
                return (response.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } ?? []
            }
            let found = try await identifiers("/v1/search?q=lighthouse", token: fixture.ownerToken)
            #expect(Set(found) == [fixture.assets[1], fixture.assets[3]])
            #expect(try await identifiers("/v1/search?q=lightho%20favorite", token: fixture.ownerToken) == [fixture.assets[3]])
            #expect(try await identifiers("/v1/search?q=brest", token: limited) == [fixture.assets[1]], "only what the token may see")
            // Typos are forgiven when nothing matches as typed, within the token's grant.
            #expect(Set(try await identifiers("/v1/search?q=lighthuose", token: fixture.ownerToken)) == [fixture.assets[1], fixture.assets[3]])
            #expect(try await identifiers("/v1/search?q=lighthuose", token: limited) == [fixture.assets[1]])
            // Paged by cursor, each asset once.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let response = try await client.get("/v1/search?q=2020&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: fixture.ownerToken)
                seen += (response.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } ?? []
                #expect(response.json["total"] as? Int == 5)
                cursor = response.json["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == fixture.assets.reversed(), "newest first")
            let long = try await client.get("/v1/search?q=\(String(repeating: "a", count: 1_001))", token: fixture.ownerToken)
            #expect(long.status == .badRequest && long.text.contains("1000"))
            let many = (0..<40).map { "w\($0)" }.joined(separator: "%20")
            #expect(try await client.get("/v1/search?q=\(many)", token: fixture.ownerToken).status == .badRequest)
            #expect(try await client.get("/v1/search?q=x", token: nil).status == .unauthorized)
        }
    }

    @Test func theIndexsProgressIsTheOwnersAndPlacesAreTheTokens() async throws {
        let fixture = try ServerFixture(photos: 3)
        let limited = try fixture.clientToken("org.example.progress", grant: .limited, selection: [fixture.assets[0]])
        try await fixture.withRouter { client in
            let before = try await client.get("/v1/index", token: fixture.ownerToken)
            #expect(before.status == .ok)
            #expect(before.json["assets"] as? Int == 3 && before.json["searchable"] as? Int == 0)
            #expect((before.json["kinds"] as? [[String: Any]])?.first?["phase"] as? String == "notStarted")
            #expect(try await client.get("/v1/index", token: limited).status == .forbidden)
        }
        try LibraryIndexer(library: fixture.library).catchUp()
        try await fixture.withRouter { client in
            let after = try await client.get("/v1/index", token: fixture.ownerToken)
            #expect(after.json["searchable"] as? Int == 3)
            let kinds = try #require(after.json["kinds"] as? [[String: Any]])
            #expect(kinds.map { $0["name"] as? String } == IndexKind.allCases.map(\.rawValue))
            for kind in kinds {
                #expect(kind["phase"] as? String == "following" && kind["pendingChanges"] as? Int == 0 && kind["indexed"] as? Int == 3)
            }
            // The fixture's photos have no place: the list is empty, for every token.
            #expect((try await client.get("/v1/places", token: limited).json["items"] as? [Any])?.isEmpty == true)
            let suggestions = try await client.get("/v1/search/suggestions?q=fav", token: limited)
            #expect((suggestions.json["items"] as? [[String: Any]])?.map { $0["search"] as? String } == ["favorite"])
            #expect(try await client.get("/v1/search/suggestions?q=x&limit=0", token: limited).status == .badRequest)
        }
    }
}
