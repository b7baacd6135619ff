import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing
@testable import PhotosServer

/// A token carries its client's grant: what the engine hides from the
/// client, no endpoint, header, count or event reveals.
@Suite struct GrantTests {
    @Test func aLimitedTokenSeesOnlyItsSelectionEverywhere() async throws {
        let fixture = try ServerFixture(photos: 4)
        let (visible, hidden) = (fixture.assets[0], fixture.assets[1])
        let token = try fixture.clientToken("org.example.picker", grant: .limited, selection: [visible])
        try await fixture.withRouter { client in
            let library = try await client.get("/v1/library", token: token)
            #expect((library.json["counts"] as? [String: Int])?["photos"] == 1)
            let assets = try await client.get("/v1/assets", token: token)
            #expect((assets.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } == [visible])
            #expect(assets.json["total"] as? Int == 1)
            for path in ["", "/resources", "/thumbnail", "/preview", "/original"] {
                let response = try await client.get("/v1/assets/\(urlID(hidden))\(path)", token: token)
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains(hidden.prefix(8)) || response.text.contains("no asset has the id"), "\(path)")
                #expect(try await client.get("/v1/assets/\(urlID(visible))\(path)", token: token).status == .ok, "\(path)")
            }
            let change = try await client.send(.post, "/v1/changes", token: token, json: [
                "requests": [["op": "updateAsset", "asset": urlID(hidden), "favorite": true]]])
            #expect(change.status == .notFound)
            let since = try #require(library.json["changeToken"] as? String)
            try fixture.library.performChangesAndWait {
                let all = PHAsset.fetchAssets(withLocalIdentifiers: [hidden], options: nil)
                PHAssetChangeRequest(for: all[0]).isFavorite = true
            }
            let history = try await client.get("/v1/changes?since=\(since)", token: token)
            #expect(history.status == .ok)
            #expect(!history.text.contains(urlID(hidden)), "a change to an asset outside the grant is not told")
        }
    }

    @Test func aShareLinkReadsOneAlbumAndWritesNothing() async throws {
        let fixture = try ServerFixture(photos: 3)
        var albumID = ""
        let shared = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[1]], options: nil) }
        try fixture.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Shared")
            album.addAssets(shared)
            albumID = urlID(album.placeholderForCreatedAssetCollection.localIdentifier)
        }
        let album = fixture.library.withCurrentLibrary {
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID + "/L0/040"], options: nil)[0]
        }
        let link = try fixture.library.createShareLink(for: album, expirationDate: Date().addingTimeInterval(3600))
        #expect(link.token.isReadOnly && link.token.clientIdentifier?.hasPrefix("share.") == true)
        let expiredLink = try fixture.library.createShareLink(for: album, expirationDate: Date().addingTimeInterval(-1)).bearer
        let sharedAlbum = albumID
        try await fixture.withRouter { client in
            let contents = try await client.get("/v1/albums/\(sharedAlbum)/assets", token: link.bearer)
            #expect((contents.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } == [fixture.assets[1]])
            #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[1]))/thumbnail", token: link.bearer).status == .ok)
            #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[0]))", token: link.bearer).status == .notFound)
            let write = try await client.send(.post, "/v1/changes", token: link.bearer, json: [
                "requests": [["op": "updateAsset", "asset": urlID(fixture.assets[1]), "favorite": true]]])
            #expect(write.status == .forbidden)
            #expect(try await client.get("/v1/library", token: expiredLink).status == .unauthorized)
        }
    }

    /// A limited client refused a change of what it may see (an album or a
    /// folder holding others' photos) is told 403, as the engine refuses it,
    /// never that the object does not exist; what it may not see is 404.
    @Test func aRefusedChangeOfWhatTheClientSeesIs403() async throws {
        let fixture = try ServerFixture(photos: 3)
        let (mine, theirs) = (fixture.assets[0], fixture.assets[1])
        var ids = (album: "", folder: "")
        try fixture.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mixed")
            album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [mine, theirs], options: nil))
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            folder.addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
            ids = (urlID(album.placeholderForCreatedAssetCollection.localIdentifier), urlID(folder.placeholderForCreatedCollectionList.localIdentifier))
        }
        let token = try fixture.clientToken("org.example.organiser", grant: .limited, selection: [mine])
        let (album, folder) = ids
        let before = fixture.library.currentChangeToken
        try await fixture.withRouter { client in
            let refused: [[[String: Any]]] = [
                [["op": "updateAlbum", "album": album, "title": "x"]],
                [["op": "updateAlbum", "album": album, "removeAssets": [urlID(mine)]]],
                [["op": "updateAlbum", "album": album, "moveAssets": [urlID(mine)], "toIndex": 0]],
                [["op": "deleteAlbums", "albums": [album]]],
                [["op": "createFolder", "title": "Mine", "addCollections": [album]]],
                [["op": "updateFolder", "folder": folder, "title": "x"]],
                [["op": "deleteFolders", "folders": [folder]]],
                [["op": "createFolder", "title": "Own", "ref": "f"], ["op": "updateFolder", "folder": "$f", "addCollections": [album]]],
            ]
            for block in refused {
                let response = try await client.send(.post, "/v1/changes", token: token, json: ["requests": block])
                #expect(response.status == .forbidden, "\(block): \(response.text)")
            }
            let unseen = try await client.send(.post, "/v1/changes", token: token, json: ["requests": [["op": "updateAsset", "asset": urlID(theirs), "favorite": true]]])
            #expect(unseen.status == .notFound)
        }
        #expect(fixture.library.currentChangeToken == before, "nothing was changed")
    }

    @Test func addOnlyAndDeniedTokensReadNothing() async throws {
        let fixture = try ServerFixture(photos: 2)
        for grant in [PHPhotoLibrary.ClientAccessGrant.addOnly, .denied] {
            let token = try fixture.clientToken("org.example.\(grant)", grant: grant)
            try await fixture.withRouter { client in
                let assets = try await client.get("/v1/assets", token: token)
                #expect(assets.status == .forbidden || (assets.json["total"] as? Int) == 0, "\(grant): \(assets.text)")
                #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[0]))", token: token).status != .ok, "\(grant)")
                #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[0]))/thumbnail", token: token).status != .ok, "\(grant)")
            }
        }
    }

    /// Random selections and random requests: a limited token's responses
    /// never name an asset outside its selection.
    @Test(arguments: [1, 2, 3, 4])
    func randomGrantsNeverLeak(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let fixture = try ServerFixture(photos: 8)
        let selection = fixture.assets.filter { _ in Bool.random(using: &random) }
        let outside = Set(fixture.assets).subtracting(selection)
        let token = try fixture.clientToken("org.example.random\(seed)", grant: .limited, selection: selection)
        let uris = ["/v1/library", "/v1/assets", "/v1/assets?predicate=favorite%20%3D%3D%20NO", "/v1/assets?sort=pixelWidth:desc",
                    "/v1/albums", "/v1/smart-albums?limit=1000", "/v1/moments", "/v1/folders", "/v1/changes?since="]
            + fixture.assets.flatMap { ["/v1/assets/\(urlID($0))", "/v1/assets/\(urlID($0))/resources"] }
        let since = fixture.library.currentChangeToken.textRepresentation
        let requests = (0..<30).map { _ in uris.randomElement(using: &random)! }.map { $0.hasSuffix("since=") ? $0 + since : $0 }
        try await fixture.withRouter { client in
            for uri in requests {
                let response = try await client.get(uri, token: token)
                for identifier in outside where !uri.contains(urlID(identifier)) {
                    #expect(!response.text.contains(urlID(identifier)), "\(uri) named an asset outside the grant")
                }
                if outside.contains(where: { uri.contains(urlID($0)) }) {
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
        }
    }
}
