import Foundation
import PhotosMedia
import PhotosTestSupport
import Testing

@testable import Photos

/// The timeline: a fetch's assets by month and day, and columnar pages.
@Suite struct TimelineTests {
    private static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test func monthsDaysAndPagesAgreeWithAFetch() throws {
        let test = try TestLibrary()
        let dates = ["2024-05-17T10:00:00Z", "2024-05-17T12:00:00Z", "2024-05-03T08:00:00Z", "2023-12-31T23:00:00Z", "2024-06-01T00:30:00Z"]
        try test.insert(
            dates.map { TestLibrary.record(created: Self.date($0), width: 400, height: 300) } + [TestLibrary.record(created: nil)]
                + [TestLibrary.record(created: Self.date("2024-05-10T00:00:00Z"), hidden: true)])
        let months = try test.library.timelineMonths()
        #expect(months.map(\.id) == [.month(year: 2024, month: 6), .month(year: 2024, month: 5), .month(year: 2023, month: 12), .undated])
        #expect(months.map(\.count) == [1, 3, 1, 1], "hidden assets stay out, as in a fetch")
        #expect(months.map(\.year) == [2024, 2024, 2023, nil] && months.map(\.month) == [6, 5, 12, nil])
        let may = months[1]
        let days = try test.library.timelineDays(of: may)
        #expect(
            days.map(\.id) == [.day(year: 2024, month: 5, day: 17), .day(year: 2024, month: 5, day: 3)] && days.map(\.count) == [2, 1] && days[0].day == 17)

        let page = try test.library.timelinePage(of: may)
        #expect(page.localIdentifiers.count == 3)
        #expect(page.creationDates == [Self.date("2024-05-17T12:00:00Z"), Self.date("2024-05-17T10:00:00Z"), Self.date("2024-05-03T08:00:00Z")])
        #expect(page.aspectRatios.allSatisfy { abs($0 - 4.0 / 3.0) < 1e-9 })
        #expect(try test.library.timelinePage(of: may, offset: 1, limit: 1).localIdentifiers == [page.localIdentifiers[1]])
        #expect(try test.library.timelinePage(of: days[1]).localIdentifiers == [page.localIdentifiers[2]])
        let total = try months.reduce(0) { $0 + (try test.library.timelinePage(of: $1).localIdentifiers.count) }
        #expect(total == test.fetch { PHAsset.fetchAssets(with: nil) }.count)
    }

    @Test func aBucketsFingerprintChangesWithItsAssetsOnly() throws {
        let test = try TestLibrary()
        let ids = try test.insert([
            TestLibrary.record(created: Self.date("2024-05-17T10:00:00Z")),
            TestLibrary.record(created: Self.date("2024-04-01T10:00:00Z")),
        ])
        let before = try test.library.timelineMonths()
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil) }[0]
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        let after = try test.library.timelineMonths()
        #expect(after[0].fingerprint != before[0].fingerprint, "May changed")
        #expect(after[1].fingerprint == before[1].fingerprint, "April did not")
        let favorites = PHFetchOptions()
        favorites.predicate = NSPredicate(format: "favorite == YES")
        #expect(try test.library.timelineMonths(options: favorites).map(\.id) == [.month(year: 2024, month: 5)])
        let sorted = PHFetchOptions()
        sorted.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        #expect(throws: PHPredicateError.self) { try test.library.timelineMonths(options: sorted) }
    }

    @Test func importedPhotosCarryAPlaceholderAndTheirLocalDay() throws {
        let test = try TestLibrary()
        // 23:30 in UTC+2 on May 31 is May 31 where it was taken, June 1 nowhere.
        let url = try test.jpeg(width: 160, height: 90, taken: Self.date("2024-05-31T21:30:00Z"), utcOffset: 7200)
        let identifier = try test.importImages([url])[0]
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }[0]
        let placeholder = try #require(asset.thumbHash)
        #expect(placeholder.count <= 25)
        #expect(abs(ThumbHash.aspectRatio(of: placeholder)! - 16.0 / 9.0) < 0.5)
        let months = try test.library.timelineMonths()
        #expect(months.map(\.id) == [.month(year: 2024, month: 5)])
        #expect(try test.library.timelineDays(of: months[0]).map(\.id) == [.day(year: 2024, month: 5, day: 31)])
        #expect(try test.library.timelinePage(of: months[0]).thumbHashes == [placeholder])
    }

    @Test func aLimitedClientCountsOnlyItsSelection() throws {
        let test = try TestLibrary()
        let ids = try test.insert((1...4).map { TestLibrary.record(created: Self.date("2024-05-0\($0)T10:00:00Z")) })
        try test.library.setAccess(.limited, forClient: "org.example.timeline")
        try test.library.addToLimitedSelection([ids[1]], ofClient: "org.example.timeline")
        let client = try PHPhotoLibrary(url: test.library.url, clientIdentifier: "org.example.timeline")
        let months = try client.timelineMonths()
        #expect(months.map(\.count) == [1])
        #expect(try client.timelinePage(of: months[0]).localIdentifiers == [ids[1]])
    }
}

extension TimelineTests {
    /// The month counts kept by triggers against counting with a query,
    /// through random changes of what the timeline counts.
    @Test func keptMonthCountsMatchACountingQuery() throws {
        let test = try TestLibrary()
        var random = SeededRandom(seed: 12)
        let months = ["2023-11", "2024-02", "2024-05"]
        func someDate() -> Date { Self.date("\(months.randomElement(using: &random)!)-1\(Int.random(in: 0...9, using: &random))T10:00:00Z") }
        try test.insert(
            (0..<12).map { index in
                TestLibrary.record(created: index == 0 ? nil : someDate(), hidden: index % 5 == 0)
            })
        let counting = PHFetchOptions()
        counting.predicate = NSPredicate(format: "mediaType >= 0")  // true of every asset, and counted by a query
        for step in 0..<24 {
            let assets = test.fetch { PHAsset.fetchAssets(with: nil) }
            let hidden = test.fetch {
                PHAsset.fetchAssets(
                    with: {
                        let o = PHFetchOptions()
                        o.includeHiddenAssets = true
                        return o
                    }())
            }
            let asset = hidden[Int.random(in: 0..<hidden.count, using: &random)]
            switch step % 5 {
            case 0: try test.insert([TestLibrary.record(created: someDate())])
            case 1: try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden.toggle() }
            case 2: try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).creationDate = someDate() }
            case 3: try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite.toggle() }
            default:
                if assets.count > 3 { try test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[0]] as NSArray) } }
            }
            let kept = try test.library.timelineMonths()
            let counted = try test.library.timelineMonths(options: counting)
            #expect(kept.map(\.id) == counted.map(\.id) && kept.map(\.count) == counted.map(\.count), "step \(step)")
        }
    }
}

extension TimelineTests {
    /// A bucket's period reads and writes the names URLs use, and nothing else parses.
    @Test func aPeriodIsNamedAsURLsNameItAndNothingElseParses() {
        let periods: [PHTimelineBucket.Period] = [.undated, .month(year: 2024, month: 5), .day(year: 1999, month: 12, day: 31), .month(year: 7, month: 1)]
        for period in periods {
            #expect(PHTimelineBucket.Period(period.description) == period, "\(period)")
        }
        #expect(PHTimelineBucket.Period.month(year: 2024, month: 5).description == "2024-05")
        #expect(PHTimelineBucket.Period.day(year: 2024, month: 5, day: 7).containingMonth == .month(year: 2024, month: 5))
        for bad in ["", "2024", "2024-13", "2024-00", "2024-5", "2024-05-32", "2024-05-00", "24-05", "2024-05-01-01", "２０２４-05", "+024-05", "Undated"] {
            #expect(PHTimelineBucket.Period(bad) == nil, "\(bad)")
        }
    }
}
