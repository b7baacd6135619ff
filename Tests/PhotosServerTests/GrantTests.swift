import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosIndexing
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
            let change = try await client.send(
                .post, "/v1/changes", token: token,
                json: [
                    "requests": [["op": "updateAsset", "asset": urlID(hidden), "favorite": true]]
                ])
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
        #expect(link.token.isReadOnly && link.token.isShareLink)
        // A share link is one by its client's grant, not by its name.
        #expect(try fixture.library.accessTokens().filter(\.isShareLink).map(\.id) == [link.token.id])
        // Nor can its grant be widened into another: it stays a share link until revoked.
        let linkClient = try #require(link.token.clientIdentifier)
        #expect(throws: PHPhotosError.self) { try fixture.library.setAccess(.readWrite, forClient: linkClient) }
        #expect(try fixture.library.accessTokens().filter(\.isShareLink).map(\.id) == [link.token.id])
        let expiredLink = try fixture.library.createShareLink(for: album, expirationDate: Date().addingTimeInterval(-1)).bearer
        let sharedAlbum = albumID
        try await fixture.withRouter { client in
            let contents = try await client.get("/v1/albums/\(sharedAlbum)/assets", token: link.bearer)
            #expect((contents.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } == [fixture.assets[1]])
            #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[1]))/thumbnail", token: link.bearer).status == .ok)
            #expect(try await client.get("/v1/assets/\(urlID(fixture.assets[0]))", token: link.bearer).status == .notFound)
            let write = try await client.send(
                .post, "/v1/changes", token: link.bearer,
                json: [
                    "requests": [["op": "updateAsset", "asset": urlID(fixture.assets[1]), "favorite": true]]
                ])
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
            let unseen = try await client.send(
                .post, "/v1/changes", token: token, json: ["requests": [["op": "updateAsset", "asset": urlID(theirs), "favorite": true]]])
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
        // Hashed, so that /v1/similar has groups to leak if it would.
        try LibraryIndexer(library: fixture.library, kinds: [.similarity]).catchUp()
        let selection = fixture.assets.filter { _ in Bool.random(using: &random) }
        let outside = Set(fixture.assets).subtracting(selection)
        let token = try fixture.clientToken("org.example.random\(seed)", grant: .limited, selection: selection)
        let uris =
            [
                "/v1/library", "/v1/assets", "/v1/assets?predicate=favorite%20%3D%3D%20NO", "/v1/assets?sort=pixelWidth:desc",
                "/v1/albums", "/v1/smart-albums?limit=1000", "/v1/moments", "/v1/folders", "/v1/changes?since=",
                "/v1/search", "/v1/search?q=2020", "/v1/search?q=september%20photo", "/v1/search?q=jpg&limit=2", "/v1/places",
                "/v1/search/suggestions?q=s", "/v1/similar", "/v1/similar?distance=16",
            ]
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

    /// Random albums, a share link to one of them, and random changes by
    /// the owner (hiding, removing from the album, deleting, adding): after
    /// each, nothing the link reads names a photo that is not in its album
    /// now and visible, nor another collection's title; a limited client's
    /// event stream receives nothing for commits it cannot see; and its
    /// own token, altered at random, gets one answer whatever the change.
    @Test(arguments: [11, 12, 13])
    func randomShareLinksStreamsAndTokensNeverLeak(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let fixture = try ServerFixture(photos: 9, configuration: .init(port: 0, heartbeat: .seconds(60)))
        let library = fixture.library
        // The photos the rounds change, and one in the client's selection that
        // only marks the end of each round on its stream.
        let all = Array(fixture.assets.prefix(8))
        let sentinel = fixture.assets[8]
        var albumIDs: [String] = []
        let titles = ["Public", "Secret one", "Secret two"]
        try library.performChangesAndWait {
            let fetched = PHAsset.fetchAssets(withLocalIdentifiers: all, options: nil)
            for title in titles {
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                album.addAssets(fetched.objects(at: IndexSet(integersIn: 0..<fetched.count)).filter { _ in Bool.random(using: &random) } as NSArray)
                albumIDs.append(album.placeholderForCreatedAssetCollection.localIdentifier)
            }
        }
        func album(_ index: Int) -> PHAssetCollection {
            library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumIDs[index]], options: nil)[0] }
        }
        let link = try library.withCurrentLibrary { try library.createShareLink(for: album(0)).bearer }
        let selected = all.filter { _ in Bool.random(using: &random) }
        let limited = try fixture.clientToken("org.example.watcher\(seed)", grant: .limited, selection: selected + [sentinel])
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let stream = try RawConnection(port: port.number, readTimeout: .milliseconds(300))
        try stream.send("GET /v1/changes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(limited)\r\nAccept: text/event-stream\r\n\r\n")
        #expect(try await stream.text(until: "retry: 2000\n\n").contains("200 OK"))
        let limitedToken = try #require(
            try await fixture.withRouter { client in
                try await client.get("/v1/library", token: limited).json["changeToken"] as? String
            })
        var answers: Set<String> = []
        for round in 0..<12 {
            // A random change by the owner.
            let target = all.randomElement(using: &random)!
            let asset = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [target], options: nil).firstObject }
            let shared = album(0)
            let change = Int.random(in: 0..<4, using: &random)
            switch change {
            case 0: try asset.map { asset in try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden.toggle() } }
            case 1:
                try asset.map { asset in try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: shared)!.removeAssets([asset] as NSArray) } }
            case 2: try asset.map { asset in try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: shared)!.addAssets([asset] as NSArray) } }
            default: try asset.map { asset in try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) } }
            }
            let albums = albumIDs
            let flip = Int64.random(in: 1...4096, using: &random)
            let visible = Set(
                library.withCurrentLibrary { () -> [String] in
                    let members = PHAsset.fetchAssets(in: album(0), options: nil)
                    return members.objects(at: IndexSet(integersIn: 0..<members.count)).map(\.localIdentifier)
                })
            let answer = try await fixture.withRouter { client -> String in
                for path in [
                    "/v1/assets", "/v1/albums", "/v1/folders", "/v1/moments", "/v1/smart-albums", "/v1/timeline",
                    "/v1/albums/\(urlID(albums[0]))/assets", "/v1/search", "/v1/search?q=2020", "/v1/search?q=album:secret%20one",
                    "/v1/search?q=album:public", "/v1/search/suggestions?q=s", "/v1/search/suggestions?q=public%20sec", "/v1/places", "/v1/similar",
                ] + all.map({ "/v1/assets/\(urlID($0))/albums" }) {
                    let read = try await client.get(path, token: link).text
                    // What the path itself names (an id it was asked about) is the client's own.
                    let named = all.filter { !visible.contains($0) && !path.contains(urlID($0)) && read.contains(urlID($0)) }
                    #expect(named.isEmpty, "round \(round): \(path) names \(named), not in the link's album")
                    let leaked = titles.dropFirst().filter { read.contains($0) }
                    #expect(leaked.isEmpty, "round \(round): \(path) names \(leaked)")
                }
                for identifier in all {
                    let status = try await client.get("/v1/assets/\(urlID(identifier))/thumbnail", token: link).status
                    #expect((status == .ok) == visible.contains(identifier), "round \(round): \(identifier) \(status)")
                }
                // The limited client's own token, altered: one answer whatever the library did.
                var fields = try #require(HistoryRoutesTests.fields(limitedToken))
                fields["transaction"] = (fields["transaction"] as! Int64) ^ flip
                let altered = try await client.get("/v1/changes?since=\(HistoryRoutesTests.text(fields))", token: limited)
                return "\(altered.status.code) \(altered.text)"
            }
            answers.insert(answer)
            // What the limited stream got: only changes about its selection. A
            // change it sees then ends the round: its event follows every event
            // of the round's change, so none is waited for by the clock.
            let marker = try #require(library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [sentinel], options: nil).firstObject })
            try library.performChangesAndWait { PHAssetChangeRequest(for: marker).isFavorite.toggle() }
            let received = try await stream.text(until: urlID(sentinel))
            #expect(received.contains(urlID(sentinel)), "round \(round): the stream told of the change it sees")
            // A photo outside the selection hidden or deleted is nothing the
            // client may hear of, not even through an album it sees. (An album's
            // membership changing is told to whoever sees the album.)
            if !selected.contains(target), change == 0 || change == 3 {
                let events = received.components(separatedBy: "event: change").count - 1
                #expect(events == 1, "round \(round): a commit about \(target), outside the selection, sent \(received.debugDescription)")
            }
            for identifier in all where !selected.contains(identifier) { #expect(!received.contains(identifier)) }
        }
        #expect(answers.count == 1, "\(answers)")
    }
}
