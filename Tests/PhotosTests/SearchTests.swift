import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosIndexing

/// Search through the public fetch API, over what the indexer wrote.
@Suite struct SearchTests {
    /// A library of four photos, indexed: Paris with a caption and a
    /// keyword, Lyon a favorite of four stars in an album, a Canon photo
    /// with no place taken in 2019, and a screenshot-less one in Zürich.
    struct Fixture {
        let test: TestLibrary
        let paris: String, lyon: String, canon: String, zurich: String

        init() throws {
            test = try TestLibrary()
            let july2023 = Date(timeIntervalSince1970: 1_688_200_000)
            let june2019 = Date(timeIntervalSince1970: 1_560_000_000)
            let ids = try test.importImages([
                try test.jpeg("harbour.jpg", taken: july2023, latitude: 48.8566, longitude: 2.3522),
                try test.jpeg("lyon.jpg", taken: july2023.addingTimeInterval(3_600), latitude: 45.7640, longitude: 4.8357),
                try test.jpeg("IMG_0042.JPG", taken: june2019, make: "Canon", model: "Canon EOS 5D Mark IV"),
                try test.jpeg("see.jpg", taken: july2023.addingTimeInterval(7_200), latitude: 47.3769, longitude: 8.5417),
            ])
            (paris, lyon, canon, zurich) = (ids[0], ids[1], ids[2], ids[3])
            let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
            try test.library.performChangesAndWait {
                let harbour = PHAssetChangeRequest(for: assets[0])
                harbour.caption = "Boats at dawn"
                harbour.addKeyword("Harbour")
                let lyon = PHAssetChangeRequest(for: assets[1])
                lyon.isFavorite = true
                lyon.rating = .four
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Été à Lyon")
                album.addAssets([assets[1]] as NSArray)
            }
            try LibraryIndexer(library: test.library, kinds: [.metadata]).catchUp()
        }

        func search(_ query: String, options: PHFetchOptions? = nil, in library: PHPhotoLibrary? = nil) throws -> [String] {
            try (library ?? test.library).withCurrentLibrary {
                let result = try PHAsset.fetchAssets(matchingSearch: query, options: options)
                return result.objects(at: IndexSet(integersIn: 0..<result.count)).map(\.localIdentifier)
            }
        }
    }

    @Test func wordsPlacesDatesAndFiltersFindTheirPhotos() throws {
        let f = try Fixture()
        // Words of captions, keywords, file names and cameras, as word beginnings, case and accents aside.
        #expect(try f.search("boats") == [f.paris])
        #expect(try f.search("BOAT harb") == [f.paris])
        #expect(try f.search("img_0042") == [f.canon])
        #expect(try f.search("canon eos") == [f.canon])
        #expect(try f.search("boats canon").isEmpty, "every word must match")
        // Places, named offline: the city, the region, the country, with or without diacritics.
        #expect(try f.search("paris") == [f.paris])
        #expect(try f.search("zurich") == [f.zurich])
        #expect(try f.search("Zürich") == [f.zurich])
        #expect(Set(try f.search("france")) == [f.paris, f.lyon])
        #expect(try f.search("place:lyon") == [f.lyon])
        #expect(Set(try f.search("place:lyon place:paris")) == [f.paris, f.lyon], "places are alternatives")
        #expect(try f.search("place:boats").isEmpty, "place: reads only the place")
        #expect(try f.search(#"place:"ile de france""#) == [f.paris])
        // Dates, in the photo's own time.
        #expect(try f.search("2019") == [f.canon])
        #expect(try f.search("june") == [f.canon])
        #expect(try f.search("july 2023").count == 3)
        #expect(try f.search("year:2019 month:6") == [f.canon])
        // Filters on the assets' own columns, and albums by their whole title.
        #expect(try f.search("favorite") == [f.lyon])
        #expect(try f.search("rating>=4") == [f.lyon])
        #expect(try f.search("rating>4").isEmpty)
        #expect(try f.search(#"album:"ete a lyon""#) == [f.lyon])
        #expect(try f.search(#"album:"Été à Lyon" france"#) == [f.lyon])
        #expect(try f.search("album:ete").isEmpty, "an album is named by its whole title")
        #expect(try f.search("france favorite") == [f.lyon])
        #expect(try f.search("video").isEmpty)
        // Newest first when nothing ranks; the options' sort replaces it.
        #expect(try f.search("") == [f.zurich, f.lyon, f.paris, f.canon])
        let oldestFirst = PHFetchOptions()
        oldestFirst.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        #expect(try f.search("france", options: oldestFirst) == [f.paris, f.lyon])
        let limited = PHFetchOptions()
        limited.fetchLimit = 1
        #expect(try f.search("", options: limited) == [f.zurich])
    }

    @Test func queriesAreBoundedAndNeverSQL() throws {
        let f = try Fixture()
        expectPhotosError(.limitExceeded) { _ = try f.search(String(repeating: "a", count: 1_001)) }
        expectPhotosError(.limitExceeded) { _ = try f.search((0..<33).map { "w\($0)" }.joined(separator: " ")) }
        // The full-text engines' own syntax is only ever words here.
        for hostile in [
            #"" OR 1=1 --"#, "boats' OR '1'='1", "NEAR(boats dawn)", "boats*", "{place}:paris", "b:*", "!paris & !", "\"unclosed", "place:\"", "rating>=x",
            "year:0", "month:13", "AND OR NOT",
        ] {
            _ = try f.search(hostile)
        }
        #expect(try f.search("boats*") == [f.paris])
        #expect(try f.search("NOT paris").isEmpty, "NOT is a word, not an operator")
        // No album's title holds a control character; PostgreSQL would refuse a NUL in text.
        #expect(try f.search("album:\u{0}x").isEmpty && f.search("album:\"Été\u{7}\"").isEmpty)
    }

    /// Random text, made of the pieces the two full-text syntaxes and the
    /// search's own give meaning to, never reaches the database as syntax:
    /// every query parses, or is refused as too long, and runs.
    @Test(arguments: [461, 462])
    func randomQueriesAlwaysRunAndPunctuationIsNotAWord(seed: UInt64) throws {
        let f = try Fixture()
        let store = try #require(f.test.library.store)
        var random = SeededRandom(seed: seed)
        let pieces = [
            "\"", "'", ":", "*", "{", "}", "(", ")", "-", "+", "^", "\\", "<", ">", "=", ">=", "<->", "&", "|", "!", ":*", " ", "  ", "\t",
            "place:", "person:", "album:", "year:", "month:", "is:", "rating", "rating>=", "NEAR", "AND", "OR", "NOT", "boats", "paris", "é",
            "日本", "🙂", "\u{301}", "2019", "june", "favorite", "0", "99999", "\0", "\n", "%", "_", "NULL", ";", "--", "/*",
        ]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            do {
                let query = try SearchQuery(text)
                _ = try store.fetchAssets(query.assetQuery(limit: 50))
                for term in query.match.terms + query.match.places + query.match.people {
                    #expect(!term.isEmpty && term.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }, "\(text)")
                }
            } catch {
                guard case .limitExceeded = error else { throw error }
            }
        }
        // Punctuation around a word is no word: the word alone decides.
        for noise in ["\"boats\"", "(boats)", "boats*", "{boats}", "boats^", "-boats-", "'boats'", "boats!!", "<boats>"] {
            #expect(try f.search(noise) == [f.paris], "\(noise)")
        }
    }

    @Test func aLimitedClientFindsOnlyWhatItMaySee() throws {
        let f = try Fixture()
        try f.test.library.setAccess(.limited, forClient: "com.example.search")
        try f.test.library.addToLimitedSelection([f.paris], ofClient: "com.example.search")
        let client = try f.test.client("com.example.search")
        #expect(try f.search("france", in: client) == [f.paris])
        #expect(try f.search("lyon", in: client).isEmpty)
        #expect(try f.search(#"album:"ete a lyon""#, in: client).isEmpty, "an album it cannot see names nothing")
        #expect(try f.search("", in: client) == [f.paris])
    }

    @Test func aSearchThatFindsNothingForgivesATypo() throws {
        let f = try Fixture()
        #expect(try f.search("baots") == [f.paris], "two letters swapped")
        #expect(try f.search("lyom") == [f.lyon], "one changed")
        #expect(try f.search("harbor") == [f.paris], "one missing")
        #expect(try f.search("zuerich") == [f.zurich], "one added")
        #expect(try f.search("baots 2023") == [f.paris], "beside a filter")
        #expect(try f.search("boats") == [f.paris] && f.search("boat") == [f.paris], "found as typed: nothing else")
        #expect(try f.search("baots canon").isEmpty, "every word must still match")
        #expect(try f.search("bots") == [f.paris], "four letters, one edit: boats")
        #expect(try f.search("bot").isEmpty, "three letters are never corrected")
        #expect(try f.search("voats").isEmpty, "the first letter is kept")
        #expect(try f.search("0043").isEmpty && f.search("img_0043").isEmpty, "numbers are never corrected: IMG_0042 is another file")
        #expect(try f.search("bxxts").isEmpty, "two edits are too many under eight letters")
        #expect(try f.search("switzerlamd") == [f.zurich] && f.search("swizterlamd") == [f.zurich], "two edits from eight letters")

        // A limited client's results never depend on words only photos it cannot see hold:
        // a typo near one finds nothing, as a word nobody has.
        try f.test.library.setAccess(.limited, forClient: "com.example.typos")
        try f.test.library.addToLimitedSelection([f.lyon], ofClient: "com.example.typos")
        let client = try f.test.client("com.example.typos")
        #expect(try f.search("baots", in: client).isEmpty && f.search("lyom", in: client) == [f.lyon])
        #expect(try f.search("lyom", in: client) == (try f.search("lyon", in: client)))
    }

    @Test func placesAndSuggestionsShowOnlyWhatTheReaderSees() throws {
        let f = try Fixture()
        let places = try f.test.library.places()
        #expect(places.map(\.city) == ["Lyon", "Paris", "Zurich"], "by country, then city")
        let paris = try #require(places.first { $0.city == "Paris" })
        #expect(paris.country == "France" && paris.countryCode == "FR" && paris.assetCount == 1 && paris.coverAssetLocalIdentifier == f.paris)
        #expect(try f.search(paris.search) == [f.paris])
        let suggestions = try f.test.library.searchSuggestions(for: "boats fr")
        #expect(suggestions.first == SearchSuggestion(kind: .place, label: "France", search: "boats France"))
        #expect(try f.test.library.searchSuggestions(for: "ete").map(\.search) == [#"album:"Été à Lyon""#])
        #expect(try f.test.library.searchSuggestions(for: "jun").map(\.search) == ["june"])
        #expect(try f.test.library.searchSuggestions(for: "").isEmpty && f.test.library.searchSuggestions(for: "paris ").isEmpty)
        expectPhotosError(.limitExceeded) { try f.test.library.searchSuggestions(for: String(repeating: "z", count: 1_001)) }

        try f.test.library.setAccess(.limited, forClient: "com.example.places")
        try f.test.library.addToLimitedSelection([f.zurich], ofClient: "com.example.places")
        let client = try f.test.client("com.example.places")
        #expect(try client.places().map(\.city) == ["Zurich"])
        #expect(try client.searchSuggestions(for: "fr").isEmpty, "a place of photos it cannot see is not suggested")
        #expect(try client.searchSuggestions(for: "et").isEmpty, "nor an album it cannot see")
        // Hiding the photo takes its place off the list: the list shows what a default fetch shows.
        let zurich = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.zurich], options: nil)[0] }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest(for: zurich).isHidden = true }
        #expect(try client.places().isEmpty && f.test.library.places().count == 2)
    }

    @Test func theIndexFollowsChangesDeletionsAndRestarts() throws {
        let f = try Fixture()
        let indexer = LibraryIndexer(library: f.test.library, kinds: [.metadata])
        let asset = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.canon], options: nil)[0] }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).caption = "Lighthouse" }
        #expect(try f.search("lighthouse").isEmpty, "not indexed yet")
        #expect(try indexer.status().kinds[0].pendingChanges == 1)
        let run = try indexer.catchUp()
        #expect(run.indexed == 1 && run.removed == 0)
        #expect(try f.search("lighthouse") == [f.canon])
        #expect(try indexer.status().kinds[0].pendingChanges == 0)
        // A deletion removes its entry; a second run finds nothing to do.
        let paris = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.paris], options: nil)[0] }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([paris] as NSArray) }
        #expect(try f.search("boats").isEmpty, "Recently Deleted is never found")
        try f.test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([paris] as NSArray) }
        #expect(try indexer.catchUp().removed == 1)
        #expect(try indexer.catchUp() == IndexRun())
        let status = try indexer.status()
        #expect(status.assets == 3 && status.searchable == 3 && status.located == 2, "\(status)")
        #expect(status.kinds[0].phase == .following)
    }

    @Test func aStatusCountsABacklogOnlyUpToItsBound() throws {
        let test = try TestLibrary()
        let id = try test.importImages([try test.jpeg("busy.jpg")])[0]
        let indexer = LibraryIndexer(library: test.library, kinds: [.metadata])
        try indexer.catchUp()
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] }
        for round in 0...IndexStatus.pendingChangesCounted {
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).caption = "round \(round)" }
        }
        #expect(try indexer.status().kinds[0].pendingChanges == IndexStatus.pendingChangesCounted)
        let blocks = IndexStatus.pendingChangesCounted + 1
        let batches = (blocks + LibraryIndexer.changesPerBatch - 1) / LibraryIndexer.changesPerBatch
        #expect(try indexer.catchUp().indexed == batches, "the one photo, written once per batch of change blocks")
        #expect(try indexer.status().kinds[0].pendingChanges == 0)
    }

    @Test func aPlaceFollowsItsAssetsLocation() throws {
        let f = try Fixture()
        let indexer = LibraryIndexer(library: f.test.library, kinds: [.metadata])
        let canon = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.canon], options: nil)[0] }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest(for: canon).location = CLLocation(latitude: 41.3851, longitude: 2.1734) }
        try indexer.catchUp()
        #expect(try f.search("barcelona") == [f.canon] && f.search("place:spain") == [f.canon])
        #expect(try f.test.library.places().contains { $0.city == "Barcelona" && $0.coverAssetLocalIdentifier == f.canon })
        let paris = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.paris], options: nil)[0] }
        try f.test.library.performChangesAndWait {
            PHAssetChangeRequest(for: canon).location = nil
            PHAssetChangeRequest(for: paris).location = CLLocation(latitude: 35.0116, longitude: 135.7681)
        }
        try indexer.catchUp()
        #expect(try f.search("barcelona").isEmpty && f.search("paris").isEmpty)
        #expect(try f.search("kyoto boats") == [f.paris])
        #expect(try f.test.library.places().map(\.city) == ["Lyon", "Kyoto", "Zurich"])
        #expect(try indexer.status().located == 3)
    }

    @Test func aPassStoppedBetweenBatchesResumesWithoutRepeating() throws {
        let test = try TestLibrary()
        let ids = try test.importImages(try (0..<7).map { try test.jpeg("pass-\($0).jpg", latitude: 48.8566, longitude: 2.3522) })
        let first = LibraryIndexer(library: test.library, holder: "first", kinds: [.metadata], now: Date.init, batchLimit: 2)
        var batches = 0
        let stopped = try first.catchUp {
            batches += 1
            return batches > 2
        }
        #expect(stopped.indexed == 4)
        #expect(try first.status().kinds[0].phase == .wholePass)
        // Another process (another holder) resumes where the first stopped, once its lease is given up.
        let second = LibraryIndexer(library: test.library, holder: "second", kinds: [.metadata], now: Date.init, batchLimit: 2)
        #expect(try second.catchUp().indexed == 3, "nothing indexed twice")
        let status = try second.status()
        #expect(status.kinds[0].indexed == 7 && status.searchable == 7 && status.kinds[0].phase == .following)
        let found = try test.library.withCurrentLibrary { try PHAsset.fetchAssets(matchingSearch: "paris pass", options: nil) }
        #expect(found.count == ids.count)
    }

    @Test func oneProcessIndexesAtATimeAndALapsedLeasePasses() throws {
        let test = try TestLibrary()
        _ = try test.importImages([try test.jpeg("lease.jpg")])
        let store = try #require(test.library.store)
        let clock = TestClock(Date(timeIntervalSince1970: 2_000_000_000))
        // Another server holds the lease (it is indexing, or died mid-batch).
        #expect(try store.claimIndexer("metadata", holder: "other", replacing: nil, now: clock.now, lease: LibraryIndexer.lease) != nil)
        let indexer = LibraryIndexer(library: test.library, holder: "me", kinds: [.metadata], now: clock.read, batchLimit: 8)
        #expect(try indexer.catchUp().heldElsewhere == [.metadata])
        #expect(try indexer.status().kinds[0].holder == "other")
        clock.advance(by: LibraryIndexer.lease + 1)
        #expect(try indexer.catchUp().indexed == 1, "a lease that lapsed passes on")
        // The old holder's late batch is refused, not written over the new one's.
        let late = IndexBatch(
            indexer: "metadata", holder: "other", assets: [], removed: [], position: .unstarted, endsPass: false, now: clock.now, lease: 1)
        _ = try store.claimIndexer("metadata", holder: "me", replacing: nil, now: clock.now, lease: 60)
        expectPhotosError(.changeNotSupported) { try Self.write(store, late) }
        #expect(try indexer.status().kinds[0].phase == .following)
    }

    @Test func reindexingPassesOverEverythingAgain() throws {
        let f = try Fixture()
        let indexer = LibraryIndexer(library: f.test.library, kinds: [.metadata])
        try indexer.reindex()
        #expect(try indexer.status().kinds[0].phase == .notStarted)
        #expect(try f.search("boats") == [f.paris], "what is indexed stays searchable meanwhile")
        #expect(try indexer.catchUp().indexed == 4)
        #expect(try f.search("boats") == [f.paris])
    }

    private static func write(_ store: any PhotoStore, _ batch: IndexBatch) throws {
        do { try store.writeIndex(batch) } catch { throw PHPhotosError(storeError: error) }
    }
}
