import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Photos
import PhotosMedia
import Testing

@testable import PhotosServer

/// `/v1/timeline`: buckets with ETags, and columnar pages.
@Suite struct TimelineRoutesTests {
    @Test func bucketsRevalidateAndPagesAreColumns() async throws {
        let fixture = try ServerFixture(photos: 3, configuration: .init(port: 0))
        try await fixture.withRouter { client in
            let summary = try await client.get("/v1/timeline", token: fixture.ownerToken)
            #expect(summary.status == .ok)
            let buckets = try #require(summary.json["buckets"] as? [[String: Any]])
            #expect(buckets.map { $0["id"] as? String } == ["2020-09"])
            #expect(buckets.first?["count"] as? Int == 3)
            let tag = try #require(summary.headers[.eTag])
            #expect(try await client.get("/v1/timeline", token: fixture.ownerToken, headers: [.ifNoneMatch: tag]).status == .notModified)

            let page = try await client.get("/v1/timeline/2020-09", token: fixture.ownerToken)
            #expect(page.status == .ok)
            let ids = try #require(page.json["ids"] as? [String])
            #expect(ids == fixture.assets.reversed().map(urlID), "newest first")
            for column in ["aspectRatios", "creationDates", "mediaTypes", "durations", "favorites", "ratings", "thumbHashes", "contentVersions"] {
                #expect((page.json[column] as? [Any])?.count == ids.count, "\(column)")
            }
            let placeholder = try #require((page.json["thumbHashes"] as? [String])?.first.flatMap { Data(base64Encoded: $0) })
            #expect(placeholder.count <= 25 && abs(ThumbHash.aspectRatio(of: placeholder)! - 4.0 / 3.0) < 0.5)
            #expect((page.json["aspectRatios"] as? [Double])?.first == 1.3333)
            #expect((page.json["creationDates"] as? [Double]) == [1_600_172_800, 1_600_086_400, 1_600_000_000], "seconds since 1970")
            let pageTag = try #require(page.headers[.eTag])

            let days = try await client.get("/v1/timeline/2020-09/days", token: fixture.ownerToken)
            #expect((days.json["buckets"] as? [[String: Any]])?.count == 3)
            let day = try #require((days.json["buckets"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await client.get("/v1/timeline/\(day)", token: fixture.ownerToken).json["ids"] as? [String] == [urlID(fixture.assets[2])])

            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil) }[0]
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
            #expect(try await client.get("/v1/timeline", token: fixture.ownerToken, headers: [.ifNoneMatch: tag]).status == .ok)
            let changed = try await client.get("/v1/timeline/2020-09", token: fixture.ownerToken, headers: [.ifNoneMatch: pageTag])
            #expect(changed.status == .ok && (changed.json["favorites"] as? [Bool])?.last == true)
            #expect(changed.json["ratings"] as? [Int] == [0, 0, 0])
            let changedTag = try #require(changed.headers[.eTag])
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = .four }
            let rated = try await client.get("/v1/timeline/2020-09", token: fixture.ownerToken, headers: [.ifNoneMatch: changedTag])
            #expect(rated.status == .ok && rated.json["ratings"] as? [Int] == [0, 0, 4], "a rating changes the page's tag")

            for bad in ["2020-13", "2020-9", "20-09", "2020-09-32", "undated", "../x", "2019-01"] {
                #expect(try await client.get("/v1/timeline/\(bad)", token: fixture.ownerToken).status == .notFound, "\(bad)")
            }
            #expect(try await client.get("/v1/timeline/2020-09?page=1", token: fixture.ownerToken).status == .badRequest)
            #expect(try await client.get("/v1/timeline?sort=creationDate", token: fixture.ownerToken).status == .badRequest)
        }
    }

    @Test func aLimitedTokensTimelineHoldsItsSelectionOnly() async throws {
        let fixture = try ServerFixture(photos: 3)
        let token = try fixture.clientToken("org.example.grid", grant: .limited, selection: [fixture.assets[1]])
        try await fixture.withRouter { client in
            let summary = try await client.get("/v1/timeline", token: token)
            #expect((summary.json["buckets"] as? [[String: Any]])?.first?["count"] as? Int == 1)
            let page = try await client.get("/v1/timeline/2020-09", token: token)
            #expect(page.json["ids"] as? [String] == [urlID(fixture.assets[1])])
            #expect(!page.text.contains(urlID(fixture.assets[0])) && !page.text.contains(urlID(fixture.assets[2])))
        }
    }
}

extension TimelineRoutesTests {
    @Test func aPageIsWrittenAsTheJSONItSays() throws {
        let columns = TimelineRoutes.Columns(
            bucket: "2024-05", page: 1, pages: 3, ids: ["A\"B\\C\n\u{1}é", "D"], aspectRatios: [1.5, 2],
            creationDates: [1_700_000_000.125, nil], mediaTypes: ["image", "video"], durations: [0, 12.25], favorites: [true, false],
            ratings: [5, 0], thumbHashes: ["AAEC", nil], contentVersions: [0, 7])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: columns.json())) as? [String: Any])
        #expect(object["bucket"] as? String == "2024-05" && object["page"] as? Int == 1 && object["pages"] as? Int == 3)
        #expect(object["ids"] as? [String] == ["A\"B\\C\n\u{1}é", "D"], "strings escaped")
        #expect(object["aspectRatios"] as? [Double] == [1.5, 2])
        let dates = try #require(object["creationDates"] as? [Any])
        #expect(dates.first as? Double == 1_700_000_000.125 && dates.last is NSNull)
        #expect(object["durations"] as? [Double] == [0, 12.25] && object["favorites"] as? [Bool] == [true, false])
        #expect(object["mediaTypes"] as? [String] == ["image", "video"] && object["contentVersions"] as? [Int] == [0, 7])
        #expect(object["ratings"] as? [Int] == [5, 0])
        let hashes = try #require(object["thumbHashes"] as? [Any])
        #expect(hashes.first as? String == "AAEC" && hashes.last is NSNull)
        #expect(
            object.keys.sorted() == [
                "aspectRatios", "bucket", "contentVersions", "creationDates", "durations", "favorites",
                "ids", "mediaTypes", "page", "pages", "ratings", "thumbHashes",
            ])
    }
}
