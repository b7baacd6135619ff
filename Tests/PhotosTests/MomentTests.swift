import Foundation
import Synchronization
import Testing

@testable import Photos

@Suite struct MomentTests {
    @available(*, deprecated)
    @Test func momentsGroupByTimeAndPlace() throws {
        let test = try TestLibrary()
        let morning = Date(timeIntervalSince1970: 1_688_200_000)  // 2023-07-01
        // Two photos in Paris, one in Lyon the same hour, then a week later, then a year later.
        let ids = try test.importImages([
            try test.jpeg(taken: morning, latitude: 48.8566, longitude: 2.3522),
            try test.jpeg(taken: morning.addingTimeInterval(600), latitude: 48.8570, longitude: 2.3530),
            try test.jpeg(taken: morning.addingTimeInterval(1200), latitude: 45.7640, longitude: 4.8357),
            try test.jpeg(taken: morning.addingTimeInterval(7 * 86_400)),
            try test.jpeg(taken: morning.addingTimeInterval(370 * 86_400)),
        ])
        let moments = test.fetch { PHAssetCollection.fetchMoments(with: nil) }
        #expect(moments.count == 4)
        let paris = moments[0]
        #expect(paris.assetCollectionType == .moment)
        #expect(paris.estimatedAssetCount == 2)
        #expect(paris.startDate == morning && paris.endDate == morning.addingTimeInterval(600))
        let center = try #require(paris.approximateLocation)
        #expect(abs(center.coordinate.latitude - 48.8568) < 0.001)
        // Named offline, from the city to the country; a moment without a place has none.
        #expect(
            paris.localizedTitle == "Paris" && paris.localizedLocationNames == ["Paris", "Île-de-France Region", "France"], "\(paris.localizedLocationNames)")
        #expect(moments[1].localizedTitle == "Lyon" && moments[1].localizedLocationNames.last == "France")
        #expect(moments[2].localizedTitle == nil && moments[2].localizedLocationNames.isEmpty)
        #expect(paris.value(forKey: "localizedLocationNames") as? [String] == paris.localizedLocationNames)
        #expect(PHAsset.fetchAssets(in: paris, options: nil).identifiers == [ids[0], ids[1]])
        #expect(PHAsset.fetchAssets(in: moments[3], options: nil).identifiers == [ids[4]])

        let again = test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [paris.localIdentifier], options: nil) }
        #expect(again.count == 1 && again[0].estimatedAssetCount == 2, "moment identifiers are stable")
        let lyonAsset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2]], options: nil) }[0]
        #expect(
            test.fetch { PHAssetCollection.fetchAssetCollectionsContaining(lyonAsset, with: .moment, options: nil) }.identifiers
                == [moments[1].localIdentifier])

        let years = test.fetch { PHCollectionList.fetchMomentLists(with: .momentListYear, options: nil) }
        #expect(years.allObjects.map(\.localizedTitle) == ["2023", "2024"])
        #expect(PHAssetCollection.fetchMoments(inMomentList: years[0], options: nil).count == 3)
        #expect(years[0].localizedLocationNames == ["Paris", "Lyon"], "the cities of its moments, each once")
        #expect(years[1].localizedLocationNames.isEmpty)
        let clusters = test.fetch { PHCollectionList.fetchMomentLists(with: .momentListCluster, options: nil) }
        #expect(clusters.count == 3)
        #expect(
            PHCollectionList.fetchMomentLists(with: .momentListYear, containingMoment: paris, options: nil).identifiers
                == [years[0].localIdentifier])

        let big = PHFetchOptions()
        big.predicate = NSPredicate(format: "estimatedAssetCount >= 2")
        #expect(test.fetch { PHAssetCollection.fetchMoments(with: big) }.identifiers == [paris.localIdentifier])
        let newestFirst = PHFetchOptions()
        newestFirst.sortDescriptors = [NSSortDescriptor(key: "startDate", ascending: false)]
        #expect(test.fetch { PHAssetCollection.fetchMoments(with: newestFirst) }.firstObject?.localIdentifier == moments[3].localIdentifier)
    }

    /// Moments are cached per change block; readers must get them whole
    /// while commits keep clearing the cache.
    @available(*, deprecated)
    @Test func momentsStayReadableWhileChangeBlocksCommit() throws {
        let test = try TestLibrary()
        try test.importDays(3)
        let library = test.library
        let assets = test.fetch { PHAsset.fetchAssets(with: nil) }.allObjects
        let writing = Mutex(true)
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for round in 0..<150 {
                try? library.performChangesAndWait { PHAssetChangeRequest(for: assets[round % assets.count]).isFavorite = round % 2 == 0 }
            }
            writing.withLock { $0 = false }
            written.signal()
        }
        let counts = Mutex<Set<Int>>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while writing.withLock({ $0 }) {
                let count = library.withCurrentLibrary { PHAssetCollection.fetchMoments(with: nil) }.count
                counts.withLock { _ = $0.insert(count) }
            }
        }
        written.wait()
        #expect(counts.withLock { $0 } == [3])
    }
}
