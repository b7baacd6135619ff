import Foundation
import PhotosStore
import Testing

@testable import Photos

/// The predicates and sort keys open-source PhotoKit clients write
/// (photo_manager, TLPhotoPicker, DKImagePickerController,
/// CTAssetsPickerController, expo-media-library, react-native-cameraroll,
/// YPImagePicker, TZImagePickerController, ZLPhotoBrowser, immich, kDrive,
/// MEGA, crelies/Media and others), written as they write them, each checked
/// against a plain model of the same assets.
@Suite struct ClientPredicateTests {
    /// What a model asset holds, beside its row.
    struct Row {
        var id = ""
        var mediaType: Int
        var subtypes: Int
        var created: Date
        var modified: Date
        var width: Int, height: Int
        var duration: Double
        var favorite: Bool
        var hidden: Bool
        var burst: String?
        var playback: Int
    }

    static let epoch = Date(timeIntervalSince1970: 1_600_000_000)
    static let day = 86_400.0

    /// Ten assets: photos with subtypes (Live Photo 8, screenshot 4, panorama 1), a GIF, videos, a favorite, a hidden one, a burst.
    static let rows: [Row] = [
        Row(mediaType: 1, subtypes: 0, created: epoch, modified: epoch, width: 4032, height: 3024, duration: 0, favorite: false, hidden: false, playback: 1),
        Row(
            mediaType: 1, subtypes: 8, created: epoch + day, modified: epoch + 9 * day, width: 3024, height: 4032, duration: 0, favorite: true, hidden: false,
            playback: 3),
        Row(
            mediaType: 1, subtypes: 4, created: epoch + 2 * day, modified: epoch + 2 * day, width: 1170, height: 2532, duration: 0, favorite: false,
            hidden: false, playback: 1),
        Row(
            mediaType: 1, subtypes: 1, created: epoch + 3 * day, modified: epoch + 3 * day, width: 12000, height: 3000, duration: 0, favorite: false,
            hidden: false, playback: 1),
        Row(
            mediaType: 1, subtypes: 0, created: epoch + 4 * day, modified: epoch + 4 * day, width: 480, height: 270, duration: 0, favorite: false,
            hidden: false, playback: 2),
        Row(
            mediaType: 2, subtypes: 0, created: epoch + 5 * day, modified: epoch + 5 * day, width: 1920, height: 1080, duration: 12.5, favorite: true,
            hidden: false, playback: 4),
        Row(
            mediaType: 2, subtypes: 1 << 17, created: epoch + 6 * day, modified: epoch + 6 * day, width: 1280, height: 720, duration: 3, favorite: false,
            hidden: false, playback: 4),
        Row(
            mediaType: 1, subtypes: 0, created: epoch + 7 * day, modified: epoch + 7 * day, width: 800, height: 600, duration: 0, favorite: false, hidden: true,
            playback: 1),
        Row(
            mediaType: 1, subtypes: 0, created: epoch + 8 * day, modified: epoch + 8 * day, width: 800, height: 600, duration: 0, favorite: false,
            hidden: false, burst: "B1", playback: 1),
        Row(
            mediaType: 3, subtypes: 0, created: epoch + 9 * day, modified: epoch + 9 * day, width: 0, height: 0, duration: 60, favorite: false, hidden: false,
            playback: 0),
    ]

    let test: TestLibrary
    let stored: [Row]

    init() throws {
        test = try TestLibrary()
        var rows = Self.rows
        let records = rows.map { row in
            AssetRecord(
                uuid: UUID().uuidString, mediaType: AssetMediaType(rawValue: row.mediaType) ?? .unknown,
                mediaSubtypes: AssetMediaSubtypes(rawValue: row.subtypes), pixelWidth: row.width,
                pixelHeight: row.height, creationDate: row.created, modificationDate: row.modified, addedDate: row.created,
                duration: row.duration, isFavorite: row.favorite, isHidden: row.hidden, burstIdentifier: row.burst,
                representsBurst: row.burst != nil, playbackStyle: AssetPlaybackStyle(rawValue: row.playback) ?? .unsupported)
        }
        let ids = try test.insert(records)
        for index in rows.indices { rows[index].id = ids[index] }
        stored = rows
    }

    /// Fetches with the predicate (hidden assets included, so that both
    /// sides of a flag can be asked) and compares with the model.
    private func expect(_ predicate: NSPredicate, _ model: (Row) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let options = PHFetchOptions()
        options.predicate = predicate
        options.includeHiddenAssets = true
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try options.validate(for: PHAsset.self) }
        let fetched = Set(test.fetch { PHAsset.fetchAssets(with: options) }.allObjects.map(\.localIdentifier))
        let expected = Set(stored.filter(model).map(\.id))
        #expect(fetched == expected, "\(predicate)", sourceLocation: sourceLocation)
    }

    @Test func mediaTypePredicates() {
        let image = PHAssetMediaType.image.rawValue
        let video = PHAssetMediaType.video.rawValue
        expect(NSPredicate(format: "mediaType == %d", image)) { $0.mediaType == 1 }
        expect(NSPredicate(format: "mediaType == %ld", video)) { $0.mediaType == 2 }
        expect(NSPredicate(format: "mediaType = %i", image)) { $0.mediaType == 1 }
        expect(NSPredicate(format: "mediaType = %d OR mediaType = %d", image, video)) { $0.mediaType != 3 }
        expect(NSPredicate(format: "mediaType == %d || mediaType == %d", image, video)) { $0.mediaType != 3 }
        expect(NSPredicate(format: "(mediaType == %d) || (mediaType == %d) || (mediaType == %d)", argumentArray: [1, 2, 3])) { _ in true }
        expect(NSPredicate(format: "mediaType == 1 OR mediaType == 2 OR mediaType == 3")) { _ in true }
        expect(NSPredicate(format: "mediaType != %i", image)) { $0.mediaType != 1 }
        expect(NSPredicate(format: "mediaType IN %@", [1, 2])) { $0.mediaType != 3 }
        expect(NSPredicate(format: "mediaType in %@", [2] as NSArray)) { $0.mediaType == 2 }
        expect(NSPredicate(format: "mediaType IN %@ AND creationDate >= %@", [1, 2], Self.epoch + 5 * Self.day as NSDate)) {
            $0.mediaType != 3 && $0.created >= Self.epoch + 5 * Self.day
        }
        expect(NSPredicate(format: "NOT (mediaType IN %@)", [1])) { $0.mediaType != 1 }
        expect(NSPredicate(format: "mediaType BETWEEN {1, 2}")) { $0.mediaType != 3 }
    }

    @Test func subtypePredicates() {
        let live = Int(PHAssetMediaSubtype.photoLive.rawValue)
        let screenshot = Int(PHAssetMediaSubtype.photoScreenshot.rawValue)
        let panorama = Int(PHAssetMediaSubtype.photoPanorama.rawValue)
        expect(NSPredicate(format: "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0", panorama, screenshot)) { $0.subtypes & 5 != 0 }
        expect(NSPredicate(format: "(mediaSubtypes & %d) != 0", live)) { $0.subtypes & 8 != 0 }
        expect(NSPredicate(format: "(mediaSubtypes & %d) == 0", live)) { $0.subtypes & 8 == 0 }
        expect(NSPredicate(format: "mediaSubtypes & %d != 0", live)) { $0.subtypes & 8 != 0 }
        expect(NSPredicate(format: "mediaSubtypes & %d == 0", live)) { $0.subtypes & 8 == 0 }
        expect(NSPredicate(format: "(mediaSubtype & %d) != 0", live)) { $0.subtypes & 8 != 0 }
        expect(NSPredicate(format: "NOT ((mediaSubtype & %d) != 0)", live)) { $0.subtypes & 8 == 0 }
        expect(NSPredicate(format: "((mediaSubtype & %d) == %d)", live, live)) { $0.subtypes & 8 == 8 }
        expect(NSPredicate(format: "( ( mediaSubtype & 8 ) == 8 )")) { $0.subtypes & 8 == 8 }
        expect(NSPredicate(format: "NOT ( ( mediaSubtype & 8 ) == 8 )")) { $0.subtypes & 8 != 8 }
        expect(NSPredicate(format: "( ( mediaSubtype & 8 ) != 8 )")) { $0.subtypes & 8 != 8 }
        expect(NSPredicate(format: "(mediaType == %d) AND ((mediaSubtype & %d) == %d)", 1, live, live)) { $0.mediaType == 1 && $0.subtypes & 8 == 8 }
        expect(NSPredicate(format: "(mediaType == %d) AND !((mediaSubtype & %d) == %d)", 1, live, live)) { $0.mediaType == 1 && $0.subtypes & 8 != 8 }
        expect(NSPredicate(format: "mediaType == %d AND (mediaSubtypes & %d) != 0", 2, 1 << 17)) { $0.mediaType == 2 && $0.subtypes != 0 }
        expect(NSPredicate(format: "(mediaType == %d) OR (mediaSubtypes & %d) != 0", 2, screenshot)) { $0.mediaType == 2 || $0.subtypes == 4 }
        expect(NSPredicate(format: "mediaSubtypes == %ld", live)) { $0.subtypes == 8 }
        expect(NSPredicate(format: "mediaSubtypes != %ld", 0)) { $0.subtypes != 0 }
        expect(NSPredicate(format: "mediaSubtype in %@", [1, 4])) { [1, 4].contains($0.subtypes) }
        expect(NSPredicate(format: "%K == %ld", "mediaSubtypes", panorama)) { $0.subtypes == 1 }
    }

    @Test func datePredicates() {
        let third = Self.epoch + 2 * Self.day
        let sixth = Self.epoch + 5 * Self.day
        expect(NSPredicate(format: "creationDate > %@", third as NSDate)) { $0.created > third }
        expect(NSPredicate(format: "creationDate >= %@", third as any CVarArg)) { $0.created >= third }
        expect(NSPredicate(format: "creationDate < %@", third as NSDate)) { $0.created < third }
        expect(NSPredicate(format: "creationDate <= %@", third as NSDate)) { $0.created <= third }
        expect(NSPredicate(format: "creationDate = %@", third as NSDate)) { $0.created == third }
        expect(NSPredicate(format: "creationDate >= %@ AND creationDate <= %@", third as NSDate, sixth as NSDate)) { (third...sixth).contains($0.created) }
        expect(NSPredicate(format: "creationDate > %@ && creationDate < %@", third as NSDate, sixth as NSDate)) { $0.created > third && $0.created < sixth }
        expect(NSPredicate(format: "creationDate > %@ OR modificationDate > %@", sixth as NSDate, sixth as NSDate)) {
            $0.created > sixth || $0.modified > sixth
        }
        expect(
            NSPredicate(
                format: "creationDate > %@ OR (modificationDate > %@ AND creationDate > %@)", sixth as NSDate, sixth as NSDate,
                Self.epoch as NSDate)
        ) { $0.created > sixth || ($0.modified > sixth && $0.created > Self.epoch) }
        expect(NSPredicate(format: "modificationDate = %@", third as NSDate)) { $0.modified == third }
        expect(NSPredicate(format: "creationDate >=  CAST(\(third.timeIntervalSinceReferenceDate), \"NSDate\")")) { $0.created >= third }
        expect(NSPredicate(format: "addedDate < %@", third as NSDate)) { $0.created < third }
    }

    @Test func sizeDurationFlagAndIdentifierPredicates() throws {
        expect(NSPredicate(format: "pixelWidth >=%d AND pixelWidth <=%d AND pixelHeight >=%d AND pixelHeight <=%d", 800, 4032, 600, 3024)) {
            (800...4032).contains($0.width) && (600...3024).contains($0.height)
        }
        expect(NSPredicate(format: "pixelHeight > %d AND pixelWidth > %d", 1000, 1000)) { $0.height > 1000 && $0.width > 1000 }
        expect(NSPredicate(format: "pixelWidth = %i", 800)) { $0.width == 800 }
        expect(NSPredicate(format: "duration < %f", 5.0)) { $0.duration < 5 }
        expect(NSPredicate(format: "duration >= %f AND duration <= %f", 1.0, 20.0)) { (1...20).contains($0.duration) }
        expect(NSPredicate(format: "( duration == nil OR ( duration >= %f AND duration <= %f ) )", 1.0, 20.0)) { (1...20).contains($0.duration) }
        expect(NSPredicate(format: "mediaType = %i OR (mediaType = %i AND duration < %f)", 1, 2, 5.0)) {
            $0.mediaType == 1 || ($0.mediaType == 2 && $0.duration < 5)
        }
        expect(NSPredicate(format: "favorite == YES")) { $0.favorite }
        expect(NSPredicate(format: "favorite == %@", NSNumber(value: true))) { $0.favorite }
        expect(NSPredicate(format: "favorite = 1")) { $0.favorite }
        expect(NSPredicate(format: "isFavorite == NO")) { !$0.favorite }
        expect(NSPredicate(format: "isFavorite = %@", NSNumber(value: true))) { $0.favorite }
        expect(NSPredicate(format: "isHidden = %@", NSNumber(value: true))) { $0.hidden }
        expect(NSPredicate(format: "isHidden == NO")) { !$0.hidden }
        expect(NSPredicate(format: "burstIdentifier == %@", "B1")) { $0.burst == "B1" }
        expect(NSPredicate(format: "burstIdentifier = %@", "B1")) { $0.burst == "B1" }
        expect(NSPredicate(format: "burstIdentifier LIKE %@", "B*")) { $0.burst == "B1" }
        expect(NSPredicate(format: "playbackStyle == 2")) { $0.playback == 2 }
        expect(NSPredicate(format: "%K == %ld", "playbackStyle", 4)) { $0.playback == 4 }
        expect(NSPredicate(format: "playbackStyle == %li", 3)) { $0.playback == 3 }
        let some = [stored[1].id, stored[5].id]
        expect(NSPredicate(format: "localIdentifier IN %@", some)) { some.contains($0.id) }
        expect(NSPredicate(format: "NOT (localIdentifier IN %@)", some)) { !some.contains($0.id) }
        expect(NSPredicate(format: "localIdentifier == %@", some[0])) { $0.id == some[0] }
        expect(NSPredicate(format: "localIdentifier = %@", some[0])) { $0.id == some[0] }
        expect(NSPredicate(format: "localIdentifier ==[cd] %@", some[0].lowercased())) { $0.id == some[0] }
        expect(NSPredicate(format: "localIdentifier IN %@", some.map { String($0.prefix(36)) })) { some.contains($0.id) }
        let objects = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: some, options: nil).allObjects }
        expect(NSPredicate(format: "SELF IN %@", objects)) { some.contains($0.id) }
        expect(NSPredicate(format: "SELF == %@", objects[0])) { $0.id == some[0] }
        expect(NSCompoundPredicate(andPredicateWithSubpredicates: [])) { _ in true }
        expect(NSCompoundPredicate(orPredicateWithSubpredicates: [])) { _ in false }
    }

    @Test func keysApplesStoreRefusesAreRefused() {
        for format in [
            "filename == 'IMG_0001.JPG'", "location != nil", "sourceType == 1", "hasAdjustments == YES",
            "adjustmentFormatIdentifier == 'x'", "title == 'x'",
        ] {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            #expect(throws: PHPredicateError.self, "\(format)") { try options.validate(for: PHAsset.self) }
        }
        for format in ["assetCollectionSubtype = 2", "mediaType == 1"] {
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: format)
            #expect(throws: PHPredicateError.self, "\(format)") { try options.validate(for: PHAssetCollection.self) }
        }
    }

    @Test func sortKeysClientsUse() throws {
        for key in [
            "creationDate", "modificationDate", "pixelWidth", "pixelHeight", "duration", "mediaType", "mediaSubtypes",
            "isFavorite", "isHidden", "burstIdentifier", "addedDate", "playbackStyle",
        ] {
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: key, ascending: false)]
            #expect(throws: Never.self, "\(key)") { try options.validate(for: PHAsset.self) }
        }
        for key in ["estimatedAssetCount", "localizedTitle", "title", "startDate", "endDate"] {
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
            #expect(throws: Never.self, "\(key)") { try options.validate(for: PHAssetCollection.self) }
        }
        let unsupported = PHFetchOptions()
        unsupported.sortDescriptors = [NSSortDescriptor(key: "sourceType", ascending: true)]
        #expect(throws: PHPredicateError.self) { try unsupported.validate(for: PHAsset.self) }
        let wide = PHFetchOptions()
        wide.sortDescriptors = [NSSortDescriptor(key: "pixelWidth", ascending: false)]
        wide.includeHiddenAssets = true
        #expect(test.fetch { PHAsset.fetchAssets(with: wide) }.firstObject?.localIdentifier == stored[3].id)
    }

    @Test func collectionPredicatesClientsWrite() throws {
        var made: [String] = []
        try test.library.performChangesAndWait {
            let summer = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Summer")
            summer.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [self.stored[0].id, self.stored[1].id], options: nil))
            let empty = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Empty")
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            made = [
                summer.placeholderForCreatedAssetCollection.localIdentifier, empty.placeholderForCreatedAssetCollection.localIdentifier,
                folder.placeholderForCreatedCollectionList.localIdentifier,
            ]
        }
        func albums(_ predicate: NSPredicate) -> [String] {
            let options = PHFetchOptions()
            options.predicate = predicate
            return test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options) }.allObjects.map(\.localIdentifier)
        }
        #expect(albums(NSPredicate(format: "title = %@", "Summer")) == [made[0]])
        #expect(albums(NSPredicate(format: "title == 'Summer'")) == [made[0]])
        #expect(albums(NSPredicate(format: "title in %@", ["Summer", "Empty"])) == [made[0], made[1]])
        #expect(albums(NSPredicate(format: "localizedTitle = %@", "Empty")) == [made[1]])
        #expect(albums(NSPredicate(format: "estimatedAssetCount > 0")) == [made[0]])
        #expect(albums(NSPredicate(format: "(estimatedAssetCount != 0)")) == [made[0]])
        #expect(albums(NSPredicate(format: "estimatedAssetCount = %i", 0)) == [made[1]])
        #expect(albums(NSPredicate(format: "localIdentifier = %@", made[1])) == [made[1]])
        #expect(albums(NSPredicate(format: "startDate = %@", Self.epoch as NSDate)) == [made[0]])
        #expect(albums(NSPredicate(format: "endDate = %@", Self.epoch + Self.day as NSDate)) == [made[0]])
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "localizedTitle == %@", "Trips")
        #expect(test.fetch { PHCollection.fetchTopLevelUserCollections(with: options) }.allObjects.map(\.localIdentifier) == [made[2]])
    }
}
