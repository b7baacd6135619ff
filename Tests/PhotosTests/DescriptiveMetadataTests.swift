import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// iOS 27's descriptive metadata through the public API: `PHAsset.rating`,
/// `PHAssetChangeRequest`'s `rating`, `caption`, `addKeyword(_:)` and
/// `removeKeyword(_:)`, `PHAsset.extendedMetadata` read on demand or
/// prefetched, and fetches by rating, caption and keyword.
@Suite struct DescriptiveMetadataTests {
    private func asset(_ test: TestLibrary, _ identifier: String, options: PHFetchOptions? = nil) -> PHAsset {
        test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options)[0] }
    }

    private func change(_ test: TestLibrary, _ identifier: String, _ body: @escaping (PHAssetChangeRequest) -> Void) throws {
        let target = asset(test, identifier)
        try test.library.performChangesAndWait { body(PHAssetChangeRequest(for: target)) }
    }

    private func identifiers(_ test: TestLibrary, _ format: String, _ arguments: [Any] = [], sort: [NSSortDescriptor]? = nil) -> [String] {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: format, argumentArray: arguments)
        options.sortDescriptors = sort
        return test.fetch { PHAsset.fetchAssets(with: options).objects(at: IndexSet(integersIn: 0..<PHAsset.fetchAssets(with: options).count)) }
            .map(\.localIdentifier)
    }

    @Test func ratingsHaveApplesRawValuesAndDefaultToUnset() throws {
        #expect(PHAsset.Rating.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(PHAsset.Rating(rawValue: 6) == nil)
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        #expect(asset(test, identifier).rating == .unset)
        try change(test, identifier) { $0.rating = .four }
        #expect(asset(test, identifier).rating == .four)
        #expect(asset(test, identifier).value(forKey: "rating") as? Int == 4)
        try change(test, identifier) { $0.rating = .unset }
        #expect(asset(test, identifier).rating == .unset)
    }

    @Test func aCaptionIsSetAndClearedByNilOrEmpty() throws {
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        #expect(asset(test, identifier).extendedMetadata.caption == nil)
        try change(test, identifier) { request in
            #expect(request.caption == nil)
            request.caption = "Sunset over the harbour\nsecond line"
            #expect(request.caption == "Sunset over the harbour\nsecond line")
        }
        #expect(asset(test, identifier).extendedMetadata.caption == "Sunset over the harbour\nsecond line")
        try change(test, identifier) { request in
            #expect(request.caption == "Sunset over the harbour\nsecond line", "a request reads the stored caption until set")
            request.caption = ""
        }
        #expect(asset(test, identifier).extendedMetadata.caption == nil)
        try change(test, identifier) { $0.caption = "again" }
        try change(test, identifier) { $0.caption = nil }
        #expect(asset(test, identifier).extendedMetadata.caption == nil)
    }

    @Test func keywordsKeepTheirOrderAndIgnoreRepeatsAndAbsentees() throws {
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        try change(test, identifier) { request in
            request.addKeyword("beach")
            request.addKeyword("Beach")
            request.addKeyword("beach")
            request.removeKeyword("absent")
            request.addKeyword("城市")
        }
        #expect(asset(test, identifier).extendedMetadata.keywords == ["beach", "Beach", "城市"])
        try change(test, identifier) { request in
            request.removeKeyword("Beach")
            request.addKeyword("dog")
            request.removeKeyword("dog")
        }
        #expect(asset(test, identifier).extendedMetadata.keywords == ["beach", "城市"])
    }

    /// Random sequences of additions and removals, over a handful of
    /// keywords and several change blocks, against an ordered set.
    @Test func keywordChangesMatchAnOrderedSetModel() throws {
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        var random = PredicateFuzzTests.SplitMix(state: 45)
        var model: [String] = []
        let words = ["a", "b", "c", "d", "e"]
        for _ in 0..<12 {
            var operations: [(add: Bool, word: String)] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                operations.append((Bool.random(using: &random), words.randomElement(using: &random)!))
            }
            try change(test, identifier) { request in
                for operation in operations {
                    if operation.add { request.addKeyword(operation.word) } else { request.removeKeyword(operation.word) }
                }
            }
            for operation in operations {
                if operation.add {
                    if !model.contains(operation.word) { model.append(operation.word) }
                } else {
                    model.removeAll { $0 == operation.word }
                }
            }
            #expect(asset(test, identifier).extendedMetadata.keywords == model)
        }
    }

    @Test func aNewAssetTakesItsDescriptionInItsCreationBlock() throws {
        let test = try TestLibrary()
        let file = try test.jpeg("IMG_0042.JPG", taken: Date(timeIntervalSince1970: 1_600_000_000))
        var identifier = ""
        try test.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: file, options: nil)
            request.rating = .five
            request.caption = "First light"
            request.addKeyword("dawn")
            request.addKeyword("hills")
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let created = asset(test, identifier)
        #expect(created.rating == .five)
        #expect(created.extendedMetadata.caption == "First light")
        #expect(created.extendedMetadata.keywords == ["dawn", "hills"])
        #expect(created.extendedMetadata.originalFilename == "IMG_0042.JPG")
    }

    /// Prefetched metadata is what was stored when the fetch read its
    /// assets; metadata read on demand is read when first asked, and kept.
    @Test func extendedMetadataIsPrefetchedOrReadOnDemand() throws {
        let test = try TestLibrary()
        let identifiers = try test.importDays(3)
        for (index, identifier) in identifiers.enumerated() {
            try change(test, identifier) { request in
                request.caption = "caption \(index)"
                request.addKeyword("k\(index)")
            }
        }
        let prefetching = PHFetchOptions()
        prefetching.prefetchAssetExtendedMetadata = true
        prefetching.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let prefetched = test.fetch { PHAsset.fetchAssets(with: prefetching) }
        let plain = test.fetch { PHAsset.fetchAssets(with: .image, options: nil) }
        let first = prefetched[0]
        let onDemand = plain[0]
        #expect(first.extendedMetadataIfRead?.caption == "caption 0", "read with the asset")
        #expect(onDemand.extendedMetadataIfRead == nil, "not read until asked")
        try change(test, identifiers[0]) { $0.caption = "changed" }
        #expect(first.extendedMetadata.caption == "caption 0", "a prefetched snapshot")
        #expect(onDemand.extendedMetadata.caption == "changed", "read when first asked")
        #expect(prefetched.objects(at: IndexSet(integersIn: 0..<3)).map(\.extendedMetadata.keywords) == [["k0"], ["k1"], ["k2"]])
        var enumerated: [String?] = []
        prefetched.enumerateObjects { asset, _, _ in enumerated.append(asset.extendedMetadataIfRead?.caption) }
        // An enumeration reads its rows when it runs, with their metadata: the change shows.
        #expect(enumerated == ["changed", "caption 1", "caption 2"])
        #expect(prefetching.copy() as? PHFetchOptions != nil && (prefetching.copy() as! PHFetchOptions).prefetchAssetExtendedMetadata)
    }

    @Test func fetchesFilterAndSortByRatingCaptionAndKeywords() throws {
        let test = try TestLibrary()
        let ids = try test.importDays(4)
        try change(test, ids[0]) { request in
            request.rating = .five
            request.caption = "Sunset at the Beach"
            request.addKeyword("beach")
            request.addKeyword("sunset")
        }
        try change(test, ids[1]) { request in
            request.rating = .four
            request.addKeyword("Beachcomber")
        }
        try change(test, ids[2]) { request in
            request.rating = .two
            request.caption = "kitchen"
        }
        #expect(identifiers(test, "rating >= 4", sort: [NSSortDescriptor(key: "creationDate", ascending: true)]) == [ids[0], ids[1]])
        #expect(identifiers(test, "rating == %d", [PHAsset.Rating.unset.rawValue]) == [ids[3]])
        #expect(identifiers(test, "rating > 0", sort: [NSSortDescriptor(key: "rating", ascending: true)]) == [ids[2], ids[1], ids[0]])
        #expect(identifiers(test, "caption CONTAINS[c] 'sunset'") == [ids[0]])
        #expect(identifiers(test, "caption == nil", sort: [NSSortDescriptor(key: "creationDate", ascending: true)]) == [ids[1], ids[3]])
        #expect(identifiers(test, "ANY keywords == 'beach'") == [ids[0]])
        #expect(identifiers(test, "keywords CONTAINS 'beach'") == [ids[0]])
        #expect(identifiers(test, "'sunset' IN keywords") == [ids[0]])
        #expect(identifiers(test, "ANY keywords BEGINSWITH[c] 'beach'", sort: [NSSortDescriptor(key: "creationDate", ascending: true)]) == [ids[0], ids[1]])
        #expect(
            identifiers(test, "ANY keywords IN %@", [["sunset", "Beachcomber"]], sort: [NSSortDescriptor(key: "creationDate", ascending: true)]) == [
                ids[0], ids[1],
            ])
        #expect(identifiers(test, "NONE keywords == 'beach'", sort: [NSSortDescriptor(key: "creationDate", ascending: true)]) == [ids[1], ids[2], ids[3]])
        #expect(identifiers(test, "ANY keywords == nil").isEmpty)

        for format in ["keywords == 'beach'", "ALL keywords == 'beach'", "ANY keywords BETWEEN {1, 2}", "ANY rating == 4"] {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            #expect(throws: PHPredicateError.self, "\(format)") { try options.validate(for: PHAsset.self) }
        }
        let sortByKeywords = PHFetchOptions()
        sortByKeywords.sortDescriptors = [NSSortDescriptor(key: "keywords", ascending: true)]
        #expect(throws: PHPredicateError.self) { try sortByKeywords.validate(for: PHAsset.self) }
    }

    @Test func eachChangeIsHistoryAndObserved() throws {
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "rating >= 3")
        let rated = test.fetch { PHAsset.fetchAssets(with: options) }
        #expect(rated.count == 0)
        let token = test.library.currentChangeToken
        try change(test, identifier) { $0.rating = .three }
        try change(test, identifier) { $0.caption = "described" }
        try change(test, identifier) { $0.addKeyword("kept") }
        let changes = try test.library.fetchPersistentChanges(since: token).map { $0 }
        #expect(changes.count == 3)
        for change in changes {
            #expect(try change.changeDetails(for: .asset).updatedLocalIdentifiers == [identifier])
        }
        let change = PHChange(library: test.library, from: rated.tracking!.changeBlock, to: try test.library.store!.lastChangeBlock())
        let details = try #require(change.changeDetails(for: rated))
        #expect(details.insertedObjects.map(\.localIdentifier) == [identifier])
        #expect(details.fetchResultAfterChanges[0].rating == .three)
    }

    /// Text the library does not take fails the block with a typed error,
    /// and nothing of the block is stored.
    @Test func oversizedOrControlTextIsRefusedAndNothingIsStored() throws {
        let test = try TestLibrary()
        let identifier = try test.importDays(1)[0]
        let refusals: [(String, (PHAssetChangeRequest) -> Void)] = [
            ("a caption too long", { $0.caption = String(repeating: "x", count: 16 * 1024 + 1) }),
            ("a caption with an escape", { $0.caption = "bad\u{1B}[31m" }),
            ("an empty keyword", { $0.addKeyword("") }),
            ("a keyword with a newline", { $0.addKeyword("two\nlines") }),
            ("a keyword too long", { $0.addKeyword(String(repeating: "k", count: 257)) }),
            ("too many keywords", { request in for index in 0...500 { request.addKeyword("k\(index)") } }),
        ]
        for (name, refusal) in refusals {
            expectPhotosError(.changeNotSupported, "\(name)") {
                try change(test, identifier) { request in
                    request.rating = .five
                    refusal(request)
                }
            }
        }
        let stored = asset(test, identifier)
        #expect(stored.rating == .unset)
        #expect(stored.extendedMetadata == PHAssetExtendedMetadata(.init(), originalFilename: stored.extendedMetadata.originalFilename))
        try change(test, identifier) { $0.caption = "tabs\tand\nlines are text" }
        #expect(asset(test, identifier).extendedMetadata.caption == "tabs\tand\nlines are text")
    }
}
