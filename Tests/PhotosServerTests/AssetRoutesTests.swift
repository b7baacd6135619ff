import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Photos
import Testing

@testable import PhotosServer

/// `/v1/assets` and the collection routes: PhotoKit's fetches over HTTP.
@Suite struct AssetRoutesTests {
    @Test func cursorPagesWalkTheWholeFetchOnceEvenAsItChanges() async throws {
        let fixture = try ServerFixture(photos: 7)
        try await fixture.withRouter { client in
            var seen: [String] = []
            var cursor: String?
            repeat {
                let uri = "/v1/assets?limit=3&sort=creationDate:asc" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.get(uri, token: fixture.ownerToken)
                #expect(page.status == .ok)
                let items = try #require(page.json["items"] as? [[String: Any]])
                seen += items.compactMap { $0["localIdentifier"] as? String }
                cursor = page.json["nextCursor"] as? String
                if seen.count == 3 {
                    // A newer photo and a deletion of one already sent do not shift what follows.
                    try fixture.importPhotos(1, from: Date(timeIntervalSince1970: 1_900_000_000))
                    let first = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }
                    try fixture.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(first) }
                }
            } while cursor != nil
            #expect(seen == Array(fixture.assets), "every asset once, in order, the one added last included")
            #expect(try await client.get("/v1/assets?cursor=zzz", token: fixture.ownerToken).status == .badRequest)
            #expect(try await client.get("/v1/assets?limit=0", token: fixture.ownerToken).status == .badRequest)
            #expect(try await client.get("/v1/assets?limit=5000", token: fixture.ownerToken).status == .badRequest)
        }
    }

    /// A cursor naming something the fetch does not hold (made up, or
    /// outside the caller's grant) pages from its offset, without walking
    /// the result; one whose object moved is followed to where it is.
    @Test func aCursorIsFollowedByItsObjectOrItsOffset() async throws {
        let fixture = try ServerFixture(photos: 6)
        let token = try fixture.clientToken("org.example.pager", grant: .limited, selection: Array(fixture.assets[0..<4]))
        @Sendable func cursor(_ offset: Int, _ identifier: String) -> String {
            "\(offset)~"
                + Data(identifier.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        try await fixture.withRouter { client in
            func page(_ cursor: String) async throws -> [String] {
                let response = try await client.get("/v1/assets?limit=2&sort=creationDate:asc&cursor=\(cursor)", token: token)
                #expect(response.status == .ok)
                return (response.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } ?? []
            }
            let madeUp = try await page(cursor(1, "\(UUID().uuidString)/L0/001"))
            #expect(madeUp == Array(fixture.assets[1..<3]), "made up: from the offset")
            let outside = try await page(cursor(1, fixture.assets[5]))
            #expect(outside == Array(fixture.assets[1..<3]), "outside the grant: from the offset")
            let garbled = try await page(cursor(1, "not an identifier"))
            #expect(garbled == Array(fixture.assets[1..<3]))
            let moved = try await page(cursor(0, fixture.assets[2]))
            #expect(moved == [fixture.assets[3]], "moved: after where it is now")
        }
    }

    @Test func predicatesAndSortKeysArePhotoKits() async throws {
        let fixture = try ServerFixture(photos: 4)
        let favorite = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[2]], options: nil) }[0]
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: favorite).isFavorite = true }
        try await fixture.withRouter { client in
            let favorites = try await client.get("/v1/assets?predicate=favorite%20%3D%3D%20YES", token: fixture.ownerToken)
            #expect((favorites.json["items"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } == [fixture.assets[2]])
            let newest = try await client.get("/v1/assets?sort=creationDate:desc&limit=1", token: fixture.ownerToken)
            #expect((newest.json["items"] as? [[String: Any]])?.first?["localIdentifier"] as? String == fixture.assets[3])

            let bad = try await client.get("/v1/assets?predicate=favorite%20%3D%3D%3D%20YES", token: fixture.ownerToken)
            #expect(bad.status == .badRequest)
            #expect(bad.headers[.contentType] == "application/problem+json")
            let detail = try #require(bad.json["detail"] as? String)
            #expect(detail.contains("position 11") && detail.contains("favorite === YES\n") && detail.contains("           ^"), "\(detail)")
            for query in ["predicate=noSuchKey%20%3D%3D%201", "sort=noSuchKey", "sort=creationDate:sideways", "hidden=maybe"] {
                #expect(try await client.get("/v1/assets?\(query)", token: fixture.ownerToken).status == .badRequest, "\(query)")
            }
        }
    }

    @Test func oneAssetHasEveryPhotoKitPropertyAndItsResources() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            let asset = try await client.get("/v1/assets/\(id)", token: fixture.ownerToken)
            #expect(asset.status == .ok)
            for key in [
                "id", "localIdentifier", "mediaType", "mediaSubtypes", "pixelWidth", "pixelHeight", "creationDate",
                "modificationDate", "addedDate", "duration", "isFavorite", "isHidden", "sourceType", "representsBurst",
                "burstSelectionTypes", "playbackStyle", "hasAdjustments", "contentType", "contentVersion",
            ] {
                #expect(asset.json[key] != nil, "\(key)")
            }
            #expect(asset.json["pixelWidth"] as? Int == 64 && asset.json["mediaType"] as? String == "image")
            #expect(asset.json["playbackVariation"] as? String == "none", "PhotoKit's case name")
            let resources = try await client.get("/v1/assets/\(id)/resources", token: fixture.ownerToken)
            let list = try #require((try? JSONSerialization.jsonObject(with: Data(buffer: resources.body))) as? [[String: Any]])
            #expect(list.first?["uniformTypeIdentifier"] as? String == "public.jpeg")
            for trick in ["..%2F..%2Fetc%2Fpasswd", "not-a-uuid", id + "%2FL0%2F001", UUID().uuidString] {
                let response = try await client.get("/v1/assets/\(trick)", token: fixture.ownerToken)
                #expect(response.status == .notFound, "\(trick)")
            }
        }
    }

    /// JSON has no infinity: a location a client stored with one is sent as
    /// none, and the server keeps serving.
    @Test func aLocationOffTheGlobeIsSentAsNone() async throws {
        let fixture = try ServerFixture(photos: 1)
        let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: fixture.assets, options: nil) }[0]
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: asset).location = CLLocation(latitude: .infinity, longitude: 2)
        }
        try await fixture.withRouter { client in
            let response = try await client.get("/v1/assets/\(urlID(fixture.assets[0]))", token: fixture.ownerToken)
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            #expect(response.json["location"] == nil || response.json["location"] is NSNull, "\(response.json)")
        }
    }

    @Test func albumsFoldersSmartAlbumsAndMoments() async throws {
        let fixture = try ServerFixture(photos: 3)
        var albumIDs = ""
        var folderIDs = ""
        let assets = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: Array(fixture.assets.prefix(2)), options: nil) }
        try fixture.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            album.addAssets(assets)
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Years")
            folder.addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
            albumIDs = urlID(album.placeholderForCreatedAssetCollection.localIdentifier)
            folderIDs = urlID(folder.placeholderForCreatedCollectionList.localIdentifier)
        }
        let (albumID, folderID) = (albumIDs, folderIDs)
        try await fixture.withRouter { client in
            let albums = try await client.get("/v1/albums", token: fixture.ownerToken)
            #expect((albums.json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Trip"])
            let album = try await client.get("/v1/albums/\(albumID)", token: fixture.ownerToken)
            #expect(album.json["estimatedAssetCount"] as? Int == 2)
            let contents = try await client.get("/v1/albums/\(albumID)/assets", token: fixture.ownerToken)
            #expect(contents.json["total"] as? Int == 2)
            let top = try await client.get("/v1/folders", token: fixture.ownerToken)
            #expect((top.json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Years"])
            let children = try await client.get("/v1/folders/\(folderID)/children", token: fixture.ownerToken)
            #expect((children.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [albumID])
            let smart = try await client.get("/v1/smart-albums?limit=1000", token: fixture.ownerToken)
            #expect((smart.json["items"] as? [[String: Any]])?.contains { $0["title"] as? String == "Favorites" } == true)
            let moments = try await client.get("/v1/moments", token: fixture.ownerToken)
            #expect((moments.json["total"] as? Int ?? 0) >= 1)
            #expect(try await client.get("/v1/albums/\(folderID)", token: fixture.ownerToken).status == .notFound)
        }
    }
}

extension AssetRoutesTests {
    @Test func emptyParametersAreNotGivenButAnEmptyNumberIsRefused() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let empty = try await client.get("/v1/assets?predicate=&sort=&cursor=&hidden=", token: fixture.ownerToken)
            #expect(empty.status == .ok)
            let noNumber = try await client.get("/v1/assets?limit=", token: fixture.ownerToken)
            #expect(noNumber.status == .badRequest)
        }
    }
}
