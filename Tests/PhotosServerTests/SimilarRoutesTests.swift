import Foundation
import HummingbirdTesting
import Photos
import PhotosIndexing
import Testing

@testable import PhotosServer

/// `/v1/similar`: groups of photos that look alike over HTTP, in the token's
/// grant, and keeping one of a group.
@Suite struct SimilarRoutesTests {
    @Test func groupsAreTheTokensAndKeepingOneTrashesTheRest() async throws {
        // The fixture's photos are one gradient in several shades: they look alike.
        let fixture = try ServerFixture(photos: 4)
        try LibraryIndexer(library: fixture.library, kinds: [.similarity]).catchUp()
        let limited = try fixture.clientToken("org.example.tidy", grant: .limited, selection: [fixture.assets[0], fixture.assets[1]])
        let reader = try fixture.clientToken("org.example.look", grant: .readWrite, readOnly: true)
        let expected = try fixture.library.similarPhotoGroups().map { $0.assetLocalIdentifiers.map(urlID) }
        #expect(!expected.isEmpty, "the fixture's gradients look alike")
        try await fixture.withRouter { client in
            let owner = try await client.get("/v1/similar", token: fixture.ownerToken)
            #expect(owner.status == .ok)
            let groups = (owner.json["items"] as? [[String: Any]])?.map { $0["assets"] as? [String] ?? [] }
            #expect(groups == expected)
            let mine = try await client.get("/v1/similar", token: limited)
            #expect((mine.json["items"] as? [[String: Any]])?.map { Set($0["assets"] as? [String] ?? []) } == [Set(fixture.assets[0...1].map(urlID))])
            for bad in ["17", "-1", "x"] {
                #expect(try await client.get("/v1/similar?distance=\(bad)", token: fixture.ownerToken).status == .badRequest, "\(bad)")
            }
            // A read-only token cannot delete; a photo outside the grant, or like no other, is not found.
            let refused = try await client.send(.post, "/v1/similar/keep", token: reader, json: ["keep": urlID(fixture.assets[0])])
            #expect(refused.status == .forbidden, "\(refused.text)")
            let outside = try await client.send(.post, "/v1/similar/keep", token: limited, json: ["keep": urlID(fixture.assets[3])])
            #expect(outside.status == .notFound)
            #expect(try await client.send(.post, "/v1/similar/keep", token: limited, json: ["keep": "../etc"]).status == .notFound)
            let kept = try await client.send(.post, "/v1/similar/keep", token: fixture.ownerToken, json: ["keep": urlID(fixture.assets[2])])
            #expect(kept.status == .ok, "\(kept.text)")
            #expect(
                Set(kept.json["recentlyDeleted"] as? [String] ?? [])
                    == Set(expected.first { $0.contains(urlID(fixture.assets[2])) } ?? []).subtracting([urlID(fixture.assets[2])]))
        }
    }

    @Test func aGroupIsStackedOrDismissedOnlyWithTheWholeLibrary() async throws {
        let fixture = try ServerFixture(photos: 4)
        try LibraryIndexer(library: fixture.library, kinds: [.similarity]).catchUp()
        let limited = try fixture.clientToken("org.example.stack", grant: .limited, selection: fixture.assets)
        let reader = try fixture.clientToken("org.example.look", grant: .readWrite, readOnly: true)
        let group = try #require(try fixture.library.similarPhotoGroups().first).assetLocalIdentifiers.map(urlID)
        try #require(group.count >= 2)
        try await fixture.withRouter { client in
            for token in [limited, reader] {
                for (path, field) in [("stack", "keep"), ("dismiss", "asset")] {
                    let refused = try await client.send(.post, "/v1/similar/\(path)", token: token, json: [field: group[0]])
                    #expect(refused.status == .forbidden, "\(path): \(refused.text)")
                }
            }
            #expect(
                try await client.send(.post, "/v1/similar/stack", token: fixture.ownerToken, json: ["keep": String(repeating: "a", count: 37)]).status
                    == .notFound)
            #expect(try await client.send(.post, "/v1/similar/dismiss", token: fixture.ownerToken, json: ["asset": group[0], "x": 1]).status == .badRequest)
            #expect(
                try await client.send(.post, "/v1/similar/stack", token: fixture.ownerToken, json: ["keep": group[0], "distance": 40]).status == .badRequest)

            let dismissed = try await client.send(.post, "/v1/similar/dismiss", token: fixture.ownerToken, json: ["asset": group[1]])
            #expect(dismissed.status == .ok && Set(dismissed.json["assets"] as? [String] ?? []) == Set(group), "\(dismissed.text)")
            let after = try await client.get("/v1/similar", token: fixture.ownerToken)
            #expect(!((after.json["items"] as? [[String: Any]]) ?? []).contains { Set($0["assets"] as? [String] ?? []) == Set(group) })
            #expect(
                try await client.send(.post, "/v1/similar/stack", token: fixture.ownerToken, json: ["keep": group[0]]).status == .notFound,
                "a dismissed group is no group to stack")
        }
        // Listed again (as they were), and stacked.
        let again = try #require(
            try fixture.library.similarPhotoGroups(includingDismissed: true).first { Set($0.assetLocalIdentifiers.map(urlID)) == Set(group) })
        try fixture.library.dismissSimilarPhotoGroup(again)
        let fresh = try ServerFixture(photos: 4)
        try LibraryIndexer(library: fresh.library, kinds: [.similarity]).catchUp()
        let freshGroup = try #require(try fresh.library.similarPhotoGroups().first).assetLocalIdentifiers.map(urlID)
        try await fresh.withRouter { client in
            let stacked = try await client.send(.post, "/v1/similar/stack", token: fresh.ownerToken, json: ["keep": freshGroup[1]])
            #expect(stacked.status == .ok, "\(stacked.text)")
            #expect(Set(stacked.json["stacked"] as? [String] ?? []) == Set(freshGroup) && (stacked.json["burst"] as? String)?.isEmpty == false)
            let listed = try await client.get("/v1/assets?limit=100", token: fresh.ownerToken)
            let ids = Set((listed.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [])
            #expect(ids.isDisjoint(with: freshGroup.filter { $0 != freshGroup[1] }) && ids.contains(freshGroup[1]), "the kept one shows for the stack")
        }
    }
}
