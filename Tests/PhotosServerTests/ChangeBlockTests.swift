import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Photos
import Testing

@testable import PhotosServer

/// `POST /v1/changes`: a change block over HTTP, atomic as `performChanges`.
@Suite struct ChangeBlockTests {
    @Test func aBlockWithPlaceholdersCommitsAsOne() async throws {
        let fixture = try ServerFixture(photos: 2)
        let (first, second) = (urlID(fixture.assets[0]), urlID(fixture.assets[1]))
        try await fixture.withRouter { client in
            let response = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        [
                            "op": "updateAsset", "asset": first, "favorite": true, "hidden": false, "creationDate": "2021-06-01T10:00:00.000Z",
                            "location": ["latitude": 48.85, "longitude": 2.35],
                        ],
                        ["op": "createAlbum", "title": "Paris", "ref": "paris", "addAssets": [first, second]],
                        ["op": "createFolder", "title": "Trips", "ref": "trips", "addCollections": ["$paris"]],
                        ["op": "deleteAssets", "assets": [second]],
                    ] as [[String: Any]]
                ])
            #expect(response.status == .ok, "\(response.text)")
            let created = try #require(response.json["created"] as? [String: String])
            #expect(created["paris"]?.hasSuffix("/L0/040") == true && created["trips"]?.hasSuffix("/L0/020") == true)
        }
        let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
        #expect(asset.isFavorite)
        #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2021-06-01T10:00:00Z"))
        #expect(abs((asset.location?.coordinate.latitude ?? 0) - 48.85) < 1e-9)
        let albums = fixture.library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        #expect(albums.count == 1 && albums[0].localizedTitle == "Paris")
        #expect(fixture.library.withCurrentLibrary { PHAsset.fetchAssets(with: nil) }.count == 1, "the second went to Recently Deleted")
    }

    @Test func aBadRequestAnywhereChangesNothing() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        let before = fixture.library.currentChangeToken
        try await fixture.withRouter { client in
            let cases: [(Any, HTTPResponse.Status)] = [
                (
                    [
                        "requests": [
                            ["op": "updateAsset", "asset": id, "favorite": true], ["op": "updateAsset", "asset": UUID().uuidString, "favorite": true],
                        ]
                    ], .notFound
                ),
                (["requests": [["op": "updateAsset", "asset": id, "favourite": true]]], .badRequest),
                (["requests": [["op": "renameLibrary"]]], .badRequest),
                (["requests": []], .badRequest),
                (["requests": [["op": "createAlbum"]]], .badRequest),
                (["requests": [["op": "createFolder", "title": "F", "addCollections": ["$nothing"]]]], .badRequest),
                (["requests": [["op": "updateAsset", "asset": "../../etc", "favorite": true]]], .notFound),
                (["extra": 1, "requests": [["op": "updateAsset", "asset": id, "favorite": true]]], .badRequest),
            ]
            for (body, status) in cases {
                let response = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: body)
                #expect(response.status == status, "\(body): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            let json: HTTPFields = [.authorization: "Bearer \(fixture.ownerToken)", .contentType: "application/json; charset=utf-8"]
            let valid = "{\"requests\": [{\"op\": \"updateAsset\", \"asset\": \"\(id)\", \"favorite\": true}]}"
            let bodies: [(String, HTTPFields, HTTPResponse.Status)] = [
                ("{nope", json, .badRequest),
                ("[" + String(repeating: "1,", count: 1 << 20) + "1]", json, .contentTooLarge),
                (valid, [.authorization: "Bearer \(fixture.ownerToken)"], .unsupportedMediaType),
                (valid, [.authorization: "Bearer \(fixture.ownerToken)", .contentType: "text/plain"], .unsupportedMediaType),
                ("{\"requests\": [{\"op\": \"updateAsset\", \"asset\": \"\(id)\", \"favorite\": true, \"favorite\": false}]}", json, .badRequest),
                ("{\"requests\": [], \"requ\\u0065sts\": [{\"op\": \"updateAsset\", \"asset\": \"\(id)\", \"favorite\": true}]}", json, .badRequest),
                (String(repeating: "[", count: 100_000), json, .badRequest),
            ]
            for (body, headers, status) in bodies {
                let response = try await client.execute(uri: "/v1/changes", method: .post, headers: headers, body: .init(string: body))
                #expect(response.status == status, "\(body.prefix(80)): \(response.text)")
            }
        }
        #expect(fixture.library.currentChangeToken == before, "no block committed")
    }

    @Test func aStaleWriteIsRefusedWithIfMatch() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        let token = fixture.library.currentChangeToken.textRepresentation
        try await fixture.withRouter { client in
            let block = ["requests": [["op": "updateAsset", "asset": id, "favorite": true]]]
            let first = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: block, headers: [.ifMatch: "\"\(token)\""])
            #expect(first.status == .ok)
            let stale = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: block, headers: [.ifMatch: "\"\(token)\""])
            #expect(stale.status == .preconditionFailed)
        }
    }

    /// The precondition is checked in the commit's transaction: of two
    /// blocks sent at once with the same token, one commits.
    @Test func ifMatchAdmitsOneOfTwoBlocksSentAtOnce() async throws {
        let fixture = try ServerFixture(photos: 2)
        let ids = fixture.assets.map(urlID)
        try await fixture.withRouter { client in
            for round in 0..<20 {
                let token = fixture.library.currentChangeToken.textRepresentation
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for id in ids {
                        group.addTask {
                            try await client.send(
                                .post, "/v1/changes", token: fixture.ownerToken,
                                json: ["requests": [["op": "updateAsset", "asset": id, "favorite": round % 2 == 0]]],
                                headers: [.ifMatch: "\"\(token)\""]
                            ).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed], "round \(round): \(statuses)")
            }
        }
    }

    /// A `$ref` is taken only where the kind of object its request creates
    /// is: an album where a photo belongs is a 400, never a trap.
    @Test func refsNameWhatTheirRequestCreatesAndWorkInEveryEdit() async throws {
        let fixture = try ServerFixture(photos: 2)
        let (first, second) = (urlID(fixture.assets[0]), urlID(fixture.assets[1]))
        let before = fixture.library.currentChangeToken
        try await fixture.withRouter { client in
            let wrong: [[[String: Any]]] = [
                [["op": "createAlbum", "title": "A", "ref": "a"], ["op": "createAlbum", "title": "B", "addAssets": ["$a"]]],
                [["op": "createFolder", "title": "F", "ref": "f"], ["op": "updateAlbum", "album": "$f", "title": "x"]],
                [["op": "createAlbum", "title": "A", "ref": "a"], ["op": "updateFolder", "folder": "$a", "title": "x"]],
                [["op": "createAlbum", "title": "A", "ref": "a"], ["op": "deleteAlbums", "albums": ["$a"]]],
                [["op": "createAlbum", "title": "A", "ref": "a"], ["op": "updateAlbum", "album": "$a", "moveAssets": [first], "toIndex": 0]],
                [["op": "updateAsset", "asset": first, "favorite": true, "ref": "x"]],
                [["op": "createAlbum", "title": "A", "ref": String(repeating: "é", count: 40)]],
            ]
            for block in wrong {
                let response = try await client.send(.post, "/v1/changes", token: fixture.ownerToken, json: ["requests": block])
                #expect(response.status == .badRequest, "\(block): \(response.text)")
            }
            #expect(fixture.library.currentChangeToken == before)
            let response = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        ["op": "createAlbum", "title": "Draft", "ref": "album", "addAssets": [first]],
                        ["op": "updateAlbum", "album": "$album", "title": "Summer", "addAssets": [second], "removeAssets": [first]],
                        ["op": "createFolder", "title": "Draft folder", "ref": "folder"],
                        ["op": "updateFolder", "folder": "$folder", "title": "Trips", "addCollections": ["$album"]],
                    ] as [[String: Any]]
                ])
            #expect(response.status == .ok, "\(response.text)")
        }
        let albums = fixture.library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        #expect(albums.count == 1 && albums[0].localizedTitle == "Summer")
        let members = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(in: albums[0], options: nil) }
        #expect(members.count == 1 && members[0].localIdentifier == fixture.assets[1])
        let folders = fixture.library.withCurrentLibrary { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil) }
        #expect(folders.count == 1 && folders[0].localizedTitle == "Trips")
        #expect(fixture.library.withCurrentLibrary { PHCollection.fetchCollections(in: folders[0], options: nil) }.count == 1)
    }
}
