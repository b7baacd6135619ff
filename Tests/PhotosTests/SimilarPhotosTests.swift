import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import PhotosVision
import Testing

@testable import Photos
@testable import PhotosIndexing

/// Photos that look alike: a real camera photo, saved again, made smaller,
/// turned into a PNG and cropped a little, among other real photos; grouped
/// through the public API, the one to keep suggested, and resolved in one
/// change block.
@Suite struct SimilarPhotosTests {
    static let original = URL(fileURLWithPath: "/usr/share/forensics-samples/original-files/pic1/IMG_1054.JPG")
    static let others = ["pic1/IMG-20191006-WA0002.jpg", "pic1/debian_logo.jpg", "pic2/d-debian.jpg"].map {
        URL(fileURLWithPath: "/usr/share/forensics-samples/original-files/" + $0)
    }

    struct Fixture {
        let test: TestLibrary
        /// The original, then its copies: saved again, half the size, as PNG, cropped by 2 %.
        let copies: [String]
        let others: [String]

        init() throws {
            test = try TestLibrary()
            let folder = test.files
            let resaved = folder.appendingPathComponent("resaved.jpg")
            let smaller = folder.appendingPathComponent("smaller.jpg")
            let png = folder.appendingPathComponent("screenshot.png")
            let cropped = folder.appendingPathComponent("cropped.jpg")
            try DebianTool.run("vips", ["copy", SimilarPhotosTests.original.path, resaved.path + "[Q=40]"])
            try DebianTool.run("vips", ["resize", SimilarPhotosTests.original.path, smaller.path, "0.5"])
            try DebianTool.run("vips", ["copy", SimilarPhotosTests.original.path, png.path])
            try DebianTool.run("vips", ["crop", SimilarPhotosTests.original.path, cropped.path, "12", "10", "1254", "940"])
            let ids = try test.importImages([SimilarPhotosTests.original, resaved, smaller, png, cropped] + SimilarPhotosTests.others)
            copies = Array(ids[0..<5])
            others = Array(ids[5...])
            try LibraryIndexer(library: test.library, kinds: [.similarity]).catchUp()
        }
    }

    @Test func copiesOfAPhotoFormOneGroupTheBestFirst() throws {
        let f = try Fixture()
        let groups = try f.test.library.similarPhotoGroups()
        #expect(groups.count == 1, "\(groups)")
        let group = try #require(groups.first)
        #expect(Set(group.assetLocalIdentifiers) == Set(f.copies), "every copy, and nothing else")
        // The most pixels: the original, its resave and its PNG are 1280 × 960 (their order is their dates', then their identifiers').
        #expect([f.copies[0], f.copies[1], f.copies[3]].contains(group.suggestedLocalIdentifier), "the most pixels: \(group)")
        #expect(Array(group.assetLocalIdentifiers.suffix(2)) == [f.copies[4], f.copies[2]], "then the crop, then the half-size copy")
        // A favorite comes first, whatever its size.
        let smaller = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.copies[2]], options: nil)[0] }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest(for: smaller).isFavorite = true }
        #expect(try f.test.library.similarPhotoGroups().first?.suggestedLocalIdentifier == f.copies[2])
        // At distance 0 only identical hashes group; past 16 is refused.
        #expect(try f.test.library.similarPhotoGroups(maximumDistance: 0).allSatisfy { Set($0.assetLocalIdentifiers).isSubset(of: Set(f.copies)) })
        expectPhotosError(.limitExceeded) { try f.test.library.similarPhotoGroups(maximumDistance: 17) }
        expectPhotosError(.limitExceeded) { try f.test.library.similarPhotoGroups(maximumDistance: -1) }
    }

    @Test func keepingOneMovesTheOthersToRecentlyDeletedInOneChange() throws {
        let f = try Fixture()
        let group = try #require(try f.test.library.similarPhotoGroups().first)
        expectPhotosError(.identifierNotFound) { try f.test.library.keepOnly(f.others[0], of: group) }
        let before = f.test.library.currentChangeToken
        try f.test.library.keepOnly(f.copies[1], of: group)
        let changes = try f.test.library.fetchPersistentChanges(since: before)
        #expect(changes.reduce(0) { count, _ in count + 1 } == 1, "one change block")
        #expect(f.test.fetch { PHAsset.fetchAssets(with: PHFetchOptions()) }.count == 1 + f.others.count)
        #expect(try f.test.library.similarPhotoGroups().isEmpty, "nothing left to review")
        let recentlyDeleted = try #require(
            f.test.fetch { PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil).firstObject })
        #expect(f.test.fetch { PHAsset.fetchAssets(in: recentlyDeleted, options: nil) }.count == 4, "the others can be put back from there")
    }

    @Test func stackingShowsTheKeptOneAndKeepsTheOthersInItsBurst() throws {
        let f = try Fixture()
        let group = try #require(try f.test.library.similarPhotoGroups().first)
        expectPhotosError(.identifierNotFound) { try f.test.library.stack(group, keeping: f.others[0]) }
        try f.test.library.setAccess(.limited, forClient: "com.example.stacks")
        try f.test.library.addToLimitedSelection(f.copies, ofClient: "com.example.stacks")
        expectPhotosError(.accessUserDenied) { try f.test.client("com.example.stacks").stack(group, keeping: f.copies[1]) }
        let before = f.test.library.currentChangeToken
        try f.test.library.stack(group, keeping: f.copies[1])
        let changes = try f.test.library.fetchPersistentChanges(since: before)
        #expect(changes.reduce(0) { count, _ in count + 1 } == 1, "one change block")
        let shown = f.test.fetch { PHAsset.fetchAssets(with: PHFetchOptions()) }
        let shownIDs = shown.objects(at: IndexSet(integersIn: 0..<shown.count)).map(\.localIdentifier)
        #expect(shownIDs.count == 1 + f.others.count && shownIDs.contains(f.copies[1]), "the kept one, and nothing deleted")
        let kept = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.copies[1]], options: nil)[0] }
        #expect(kept.representsBurst && kept.burstSelectionTypes.contains(.userPick))
        let burst = try #require(kept.burstIdentifier)
        #expect(f.test.fetch { PHAsset.fetchAssets(withBurstIdentifier: burst, options: nil) }.count == 1, "as a burst: its pick alone by default")
        let all = PHFetchOptions()
        all.includeAllBurstAssets = true
        let stacked = f.test.fetch { PHAsset.fetchAssets(withBurstIdentifier: burst, options: all) }
        #expect(Set(stacked.objects(at: IndexSet(integersIn: 0..<stacked.count)).map(\.localIdentifier)) == Set(f.copies))
        #expect(f.test.fetch { PHAsset.fetchAssets(with: all) }.count == f.copies.count + f.others.count)
        #expect(try f.test.library.similarPhotoGroups().isEmpty, "the others left the views a group is made of")
    }

    /// A photo already in a burst brings the burst's other shots into the
    /// stack, hidden ones too: no shot is left in a burst with nobody shown.
    @Test func stackingAShotOfABurstBringsTheWholeBurst() throws {
        let test = try TestLibrary()
        let now = Date()
        let ids = try test.insert([
            TestLibrary.record(created: now, burst: "burst-1", representsBurst: true, burstSelection: 1),
            TestLibrary.record(created: now.addingTimeInterval(1), burst: "burst-1"),
            TestLibrary.record(created: now.addingTimeInterval(2), burst: "burst-1"),
            TestLibrary.record(created: now.addingTimeInterval(3)),
        ])
        try test.library.stack(SimilarPhotoGroup(assetLocalIdentifiers: [ids[0], ids[3]]), keeping: ids[3])
        let all = PHFetchOptions()
        all.includeAllBurstAssets = true
        let assets = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: all) }
        let byID = Dictionary(uniqueKeysWithValues: assets.objects(at: IndexSet(integersIn: 0..<assets.count)).map { ($0.localIdentifier, $0) })
        #expect(Set(ids.map { byID[$0]?.burstIdentifier }).count == 1 && byID[ids[0]]?.burstIdentifier != "burst-1", "one new stack of all four")
        #expect(ids.map { byID[$0]?.representsBurst } == [false, false, false, true])
        #expect(test.fetch { PHAsset.fetchAssets(with: PHFetchOptions()) }.firstObject?.localIdentifier == ids[3])
        #expect(test.fetch { PHAsset.fetchAssets(with: PHFetchOptions()) }.count == 1)
    }

    @Test func dismissedLookAlikesStayApartUntilANewOneComes() throws {
        let f = try Fixture()
        let group = try #require(try f.test.library.similarPhotoGroups().first)
        try f.test.library.setAccess(.limited, forClient: "com.example.dismiss")
        try f.test.library.addToLimitedSelection(f.copies, ofClient: "com.example.dismiss")
        expectPhotosError(.accessUserDenied) { try f.test.client("com.example.dismiss").dismissSimilarPhotoGroup(group) }
        try f.test.library.dismissSimilarPhotoGroup(group)
        #expect(try f.test.library.similarPhotoGroups().isEmpty, "remembered")
        #expect(try f.test.library.similarPhotoGroups(includingDismissed: true).map { Set($0.assetLocalIdentifiers) } == [Set(f.copies)])
        #expect(f.test.fetch { PHAsset.fetchAssets(with: PHFetchOptions()) }.count == f.copies.count + f.others.count, "nothing changed in the photos")
        // A new copy looks like them all: the group comes back for review, with it.
        let again = f.test.files.appendingPathComponent("again.jpg")
        try DebianTool.run("vips", ["copy", SimilarPhotosTests.original.path, again.path + "[Q=70]"])
        let new = try f.test.importImages([again])[0]
        try LibraryIndexer(library: f.test.library, kinds: [.similarity]).catchUp()
        #expect(try f.test.library.similarPhotoGroups().map { Set($0.assetLocalIdentifiers) } == [Set(f.copies + [new])])
    }

    @Test func aLimitedClientGroupsOnlyWhatItSees() throws {
        let f = try Fixture()
        try f.test.library.setAccess(.limited, forClient: "com.example.tidy")
        try f.test.library.addToLimitedSelection([f.copies[0], f.copies[2], f.others[0]], ofClient: "com.example.tidy")
        let client = try f.test.client("com.example.tidy")
        let groups = try client.similarPhotoGroups()
        #expect(groups.map { Set($0.assetLocalIdentifiers) } == [[f.copies[0], f.copies[2]]])
    }

    @Test func theHashTellsCopiesFromOtherPhotos() throws {
        func hash(_ url: URL) throws -> UInt64 {
            let pixels = try ImageRenderer.render(fileAt: url, RenderSpec(targetWidth: 64, targetHeight: 64, mode: .fill, exact: false))
            return pixels.bytes.withUnsafeBytes { PerceptualHash.of(rgba: $0, width: pixels.width, height: pixels.height, bytesPerRow: pixels.width * 4) }
        }
        let original = try hash(Self.original)
        for other in Self.others { #expect(PerceptualHash.distance(original, try hash(other)) > 16, "\(other.lastPathComponent)") }
        #expect(PerceptualHash.of(rgba: UnsafeRawBufferPointer(start: nil, count: 0), width: 0, height: 0, bytesPerRow: 0) == 0)
    }

    /// The grouping against the obvious model: every pair compared, chained.
    @Test(arguments: [1, 2, 3]) func groupingAgreesWithComparingEveryPair(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var hashes: [UInt64] = (0..<300).map { _ in random.next() }
        // Planted look-alikes: copies with a few bits flipped, and chains of them.
        for _ in 0..<60 {
            var copy = hashes[Int.random(in: 0..<hashes.count, using: &random)]
            for _ in 0..<Int.random(in: 0...9, using: &random) { copy ^= 1 << UInt64.random(in: 0..<64, using: &random) }
            hashes.append(copy)
        }
        for distance in [0, 3, 6, 10] {
            var parents = Array(hashes.indices)
            func root(_ index: Int) -> Int { parents[index] == index ? index : root(parents[index]) }
            for a in hashes.indices {
                for b in hashes.indices where a < b && (hashes[a] ^ hashes[b]).nonzeroBitCount <= distance {
                    let (ra, rb) = (root(a), root(b))
                    if ra != rb { parents[max(ra, rb)] = min(ra, rb) }
                }
            }
            let model = Dictionary(grouping: hashes.indices, by: root).values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
            #expect(SimilarHashes.groups(hashes, maximumDistance: distance) == model, "seed \(seed), distance \(distance)")
        }
        // Pairs said apart are never joined directly; the model skips them too.
        let apart = Set((0..<200).map { _ in [Int.random(in: 0..<hashes.count, using: &random), Int.random(in: 0..<hashes.count, using: &random)].sorted() })
        var parents = Array(hashes.indices)
        func root(_ index: Int) -> Int { parents[index] == index ? index : root(parents[index]) }
        for a in hashes.indices {
            for b in hashes.indices where a < b && (hashes[a] ^ hashes[b]).nonzeroBitCount <= 6 && !apart.contains([a, b]) {
                let (ra, rb) = (root(a), root(b))
                if ra != rb { parents[max(ra, rb)] = min(ra, rb) }
            }
        }
        let model = Dictionary(grouping: hashes.indices, by: root).values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
        #expect(SimilarHashes.groups(hashes, maximumDistance: 6, apart: { apart.contains([min($0, $1), max($0, $1)]) }) == model, "seed \(seed)")
    }
}
