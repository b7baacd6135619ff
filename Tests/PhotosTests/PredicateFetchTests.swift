import Foundation
import PhotosStore
import Testing

@testable import Photos

@Suite struct PredicateFetchTests {
    let start = Date(timeIntervalSince1970: 1_600_000_000)
    let test: TestLibrary
    let ids: [String]

    init() throws {
        test = try TestLibrary()
        ids = try test.insert([
            TestLibrary.record(created: start, subtypes: 1 | 4, favorite: true, width: 4000, height: 1000),
            TestLibrary.record(created: start.addingTimeInterval(60), mediaType: 2, subtypes: 1 << 17, width: 1920, height: 1080, duration: 12.5),
            TestLibrary.record(created: start.addingTimeInterval(120), subtypes: 8, burst: "Burst-Éclair", representsBurst: true, width: 3000, height: 2000),
            TestLibrary.record(created: nil, width: 10, height: 10),
        ])
    }

    private func fetch(_ format: String, _ arguments: [Any] = []) -> [String] {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: format, argumentArray: arguments)
        options.sortDescriptors = [NSSortDescriptor(key: "pixelWidth", ascending: false)]
        return test.fetch { PHAsset.fetchAssets(with: options) }.identifiers
    }

    @Test func comparisonsOnNumbersDatesAndBooleans() {
        #expect(fetch("mediaType == %d", [PHAssetMediaType.video.rawValue]) == [ids[1]])
        #expect(fetch("mediaType = 1") == [ids[0], ids[2], ids[3]])
        #expect(fetch("mediaType != 1") == [ids[1]])
        #expect(fetch("pixelWidth < 3000") == [ids[1], ids[3]])
        #expect(fetch("pixelWidth <= 3000") == [ids[2], ids[1], ids[3]])
        #expect(fetch("pixelWidth > 1920") == [ids[0], ids[2]])
        #expect(fetch("pixelWidth >= 1920") == [ids[0], ids[2], ids[1]])
        #expect(fetch("pixelHeight BETWEEN {1000, 1080}") == [ids[0], ids[1]])
        #expect(fetch("duration > %f", [10.0]) == [ids[1]])
        #expect(fetch("creationDate > %@", [start]) == [ids[2], ids[1]])
        #expect(fetch("creationDate >= %@ AND creationDate < %@", [start, start.addingTimeInterval(61)]) == [ids[0], ids[1]])
        #expect(fetch("creationDate == nil") == [ids[3]])
        #expect(fetch("creationDate != nil") == [ids[0], ids[2], ids[1]])
        #expect(fetch("creationDate > nil") == [], "comparing with nil is unknown, as in SQL")
        #expect(fetch("favorite == YES") == [ids[0]])
        #expect(fetch("isFavorite == NO") == [ids[2], ids[1], ids[3]])
        #expect(fetch("favorite == TRUE OR hidden == true") == [ids[0]])
        #expect(fetch("isFavorite = %@", [NSNumber(value: true)]) == [ids[0]])
        #expect(fetch("favorite == 1") == [ids[0]])
        #expect(fetch("%d == mediaType", [2]) == [ids[1]], "a value on the left is mirrored")
        #expect(fetch("1000 < pixelHeight") == [ids[2], ids[1]])
        #expect(fetch("pixelWidth > pixelHeight") == [ids[0], ids[2], ids[1]], "two keys compare")
    }

    @Test func bitwiseSubtypesAsInApplesDocumentation() {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(
            format: "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0",
            argumentArray: [PHAssetMediaSubtype.photoPanorama, PHAssetMediaSubtype.videoHighFrameRate])
        #expect(Set(test.fetch { PHAsset.fetchAssets(with: options) }.identifiers) == [ids[0], ids[1]])
        #expect(fetch("(mediaSubtypes & %d) != 0", [PHAssetMediaSubtype.photoScreenshot.rawValue]) == [ids[0]])
        #expect(fetch("(mediaSubtypes & 8) == 8") == [ids[2]])
        #expect(fetch("mediaSubtypes == 0") == [ids[3]])
    }

    @Test func inAndStringOperatorsWithOptions() {
        #expect(fetch("mediaType IN %@", [[2, 3]]) == [ids[1]])
        #expect(fetch("mediaType IN {1}") == [ids[0], ids[2], ids[3]])
        #expect(fetch("mediaType IN %@", [Set([2])]) == [ids[1]])
        #expect(fetch("burstIdentifier == 'Burst-Éclair'") == [ids[2]])
        #expect(fetch("burstIdentifier == 'burst-éclair'") == [])
        #expect(fetch("burstIdentifier ==[c] 'burst-éclair'") == [ids[2]])
        #expect(fetch("burstIdentifier ==[cd] 'BURST-ECLAIR'") == [ids[2]])
        #expect(fetch("burstIdentifier CONTAINS 'clair'") == [ids[2]])
        #expect(fetch("burstIdentifier CONTAINS[d] 'Ecl'") == [ids[2]])
        #expect(fetch("burstIdentifier BEGINSWITH 'Burst'") == [ids[2]])
        #expect(fetch("burstIdentifier BEGINSWITH[c] 'BURST'") == [ids[2]])
        #expect(fetch("burstIdentifier ENDSWITH 'air'") == [ids[2]])
        #expect(fetch("burstIdentifier LIKE 'B*-?clair'") == [ids[2]])
        #expect(fetch("burstIdentifier LIKE[cd] 'b*e?LAIR'") == [ids[2]])
        #expect(fetch("burstIdentifier LIKE 'Burst'") == [])
        #expect(fetch("burstIdentifier != 'x'") == [ids[2]], "nil != 'x' is unknown, as in SQL")
        #expect(fetch("NOT burstIdentifier == 'x'") == [ids[2]])
        #expect(fetch("burstIdentifier IN {'Burst-Éclair', nil}") == [ids[2]])
    }

    @Test func identifiersAndSelf() throws {
        #expect(fetch("localIdentifier == %@", [ids[1]]) == [ids[1]])
        #expect(fetch("localIdentifier IN %@", [[ids[0], ids[3], "junk"]]) == [ids[0], ids[3]])
        #expect(fetch("localIdentifier != %@", [ids[1]]) == [ids[0], ids[2], ids[3]])
        #expect(fetch("localIdentifier BEGINSWITH %@", [String(ids[2].prefix(8))]) == [ids[2]])
        #expect(fetch("localIdentifier ENDSWITH '/L0/001'").count == 4)
        let asset = try #require(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil) }.firstObject)
        #expect(fetch("SELF == %@", [asset]) == [ids[0]])
        #expect(fetch("SELF IN %@", [[asset]]) == [ids[0]])
        #expect(fetch("NOT (SELF IN %@)", [[asset]]) == [ids[2], ids[1], ids[3]])
    }

    @Test func compoundPredicatesAndConstants() {
        let options = PHFetchOptions()
        options.predicate = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "mediaType == 2"), NSPredicate(format: "favorite == YES"),
        ])
        #expect(Set(test.fetch { PHAsset.fetchAssets(with: options) }.identifiers) == [ids[0], ids[1]])
        options.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [])
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.count == 4, "an empty AND matches everything")
        options.predicate = NSCompoundPredicate(orPredicateWithSubpredicates: [])
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.count == 0)
        options.predicate = NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(value: false))
        #expect(test.fetch { PHAsset.fetchAssets(with: options) }.count == 4)
        #expect(fetch("TRUEPREDICATE").count == 4 && fetch("FALSEPREDICATE").isEmpty)
    }

    @Test func seedStylePredicateWithADateArgument() {
        let lastLaunchDate = start.addingTimeInterval(30)
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "creationDate > %@", lastLaunchDate as any CVarArg)
        let insertedAssets = test.fetch { PHAsset.fetchAssets(with: options) }
        #expect(insertedAssets.count == 2)
        let typed = PHFetchOptions()
        typed.predicate = NSPredicate(
            format: "mediaType == %d AND creationDate > %@ AND favorite == NO",
            PHAssetMediaType.image.rawValue, start as any CVarArg)
        typed.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        #expect(test.fetch { PHAsset.fetchAssets(with: typed) }.identifiers == [ids[2]])
    }
}
