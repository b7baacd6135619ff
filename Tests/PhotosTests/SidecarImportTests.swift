import Foundation
import PhotosMedia
import PhotosTestSupport
import Testing

@testable import Photos

/// A Google Takeout export and editors' XMP sidecars, imported with
/// `importFiles`: what PhotoKit's API then says of the photos.
@Suite struct SidecarImportTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func write(_ text: String, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func photo(_ path: String, in root: URL, width: Int, configure: (inout ExifFields) -> Void = { _ in }) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: try test.jpeg(width: width, height: 32, configure: configure), to: url)
        return url
    }

    private func takeoutJSON(title: String, taken: Int, place: (Double, Double)? = nil, favorite: Bool = false, archived: Bool = false) -> String {
        let geo = place.map { "{\"latitude\": \($0.0), \"longitude\": \($0.1), \"altitude\": 0.0}" } ?? "{\"latitude\": 0.0, \"longitude\": 0.0}"
        return """
            {"title": "\(title)", "description": "", "imageViews": "3",
             "creationTime": {"timestamp": "1700000000", "formatted": "14 Nov 2023, 22:13:20 UTC"},
             "photoTakenTime": {"timestamp": "\(taken)", "formatted": ""},
             "geoData": \(geo), "geoDataExif": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0},
             "favorited": \(favorite), "archived": \(archived), "url": "https://photos.google.com/photo/x"}
            """
    }

    private func asset(_ identifier: String?) throws -> PHAsset {
        let identifier = try #require(identifier)
        return try #require(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
    }

    @Test func aTakeoutExportKeepsItsDatesPlacesMarksAndAlbums() throws {
        let root = test.files.appendingPathComponent("Takeout/Google Photos")
        var files: [URL] = []
        files.append(try photo("Photos from 2020/IMG_0001.jpg", in: root, width: 48))
        try write(
            takeoutJSON(title: "IMG_0001.jpg", taken: 1_591_576_200, place: (45.76, 4.83), favorite: true),
            "Photos from 2020/IMG_0001.jpg.supplemental-metadata.json", in: root)
        // Dated by the camera, then moved by the person in Google Photos.
        files.append(try photo("Photos from 2020/IMG_0002.jpg", in: root, width: 50) { $0.dateTimeOriginal = "2019:01:01 10:00:00" })
        try write(takeoutJSON(title: "IMG_0002.jpg", taken: 1_551_434_400), "Photos from 2020/IMG_0002.jpg.json", in: root)
        files.append(try photo("Photos from 2020/image.jpg", in: root, width: 52))
        try write(takeoutJSON(title: "image.jpg", taken: 1_591_000_000), "Photos from 2020/image.jpg.json", in: root)
        files.append(try photo("Photos from 2020/image(1).jpg", in: root, width: 54))
        try write(takeoutJSON(title: "image.jpg", taken: 1_591_000_100, archived: true), "Photos from 2020/image.jpg(1).json", in: root)
        // An album folder: its title in metadata.json, a copy of a photo above, and one of its own.
        try write(
            "{\"title\": \"Trip to Lyon\", \"description\": \"\", \"access\": \"protected\", \"date\": {\"timestamp\": \"0\"}}",
            "Trip to Lyon/metadata.json", in: root)
        let copy = root.appendingPathComponent("Trip to Lyon/IMG_0001.jpg")
        try FileManager.default.copyItem(at: files[0], to: copy)
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Photos from 2020/IMG_0001.jpg.supplemental-metadata.json"),
            to: root.appendingPathComponent("Trip to Lyon/IMG_0001.jpg.supplemental-metadata.json"))
        files.append(copy)
        files.append(try photo("Trip to Lyon/IMG_0100.jpg", in: root, width: 56))
        // darktable's and Lightroom's sidecars beside photos without a date.
        let camera = test.files.appendingPathComponent("Camera")
        files.append(try photo("DSC_0005.JPG", in: camera, width: 58))
        try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                exif:DateTimeOriginal="2021-02-03T04:05:06+01:00" exif:GPSLatitude="48,51.0N" exif:GPSLongitude="2,21.0E" xmp:Rating="3"/>
             </rdf:RDF>
            </x:xmpmeta>
            """, "DSC_0005.JPG.xmp", in: camera)
        files.append(try photo("DSC_0006.JPG", in: camera, width: 60))
        try write(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="2022-07-08T09:10:11-04:00"/>
            </rdf:RDF></x:xmpmeta>
            """, "DSC_0006.xmp", in: camera)

        let result = try test.library.importFiles(files)
        #expect(result.failed.isEmpty, "\(result.failed)")
        #expect(result.imported.count == 7 && result.duplicates.count == 1)
        #expect(result.sidecarsRead.count == 7, "\(result.sidecarsRead.map(\.lastPathComponent))")
        let byName = Dictionary(uniqueKeysWithValues: (result.imported + result.duplicates).map { ($0.file.path, $0.localIdentifier) })
        func asset(_ file: URL) throws -> PHAsset { try self.asset(byName[file.path]) }

        let first = try asset(files[0])
        #expect(first.creationDate == Date(timeIntervalSince1970: 1_591_576_200))
        #expect(first.isFavorite && !first.isHidden)
        let place = try #require(first.location)
        #expect(abs(place.coordinate.latitude - 45.76) < 1e-6 && abs(place.coordinate.longitude - 4.83) < 1e-6)
        #expect(try asset(files[1]).creationDate == Date(timeIntervalSince1970: 1_551_434_400), "the person's correction")
        #expect(try !asset(files[2]).isHidden && asset(files[3]).isHidden, "image(1).jpg is described by image.jpg(1).json")
        #expect(try asset(files[3]).creationDate == Date(timeIntervalSince1970: 1_591_000_100))
        let darktable = try asset(files[6])
        #expect(darktable.creationDate == Date(timeIntervalSince1970: 1_612_321_506))
        let darktablePlace = try #require(darktable.location)
        #expect(abs(darktablePlace.coordinate.latitude - 48.85) < 1e-6 && abs(darktablePlace.coordinate.longitude - 2.35) < 1e-6)
        #expect(try asset(files[7]).creationDate == Date(timeIntervalSince1970: 1_657_285_811))

        // One album, holding the copy's asset (the same as the year folder's) and its own photo.
        func lyon() -> [String] {
            test.fetch {
                let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
                guard albums.count == 1, albums[0].localizedTitle == "Trip to Lyon" else { return [] }
                let members = PHAsset.fetchAssets(in: albums[0], options: nil)
                return (0..<members.count).map { members[$0].localIdentifier }.sorted()
            }
        }
        #expect(result.albums.count == 1)
        #expect(lyon() == [first.localIdentifier, try asset(files[5]).localIdentifier].sorted())

        // Again: every file a duplicate, the album found by its title and not made twice.
        let again = try test.library.importFiles(files)
        #expect(again.imported.isEmpty && again.duplicates.count == files.count)
        #expect(again.albums == result.albums && lyon().count == 2)
    }

    /// What editors and Google wrote about photos becomes their rating,
    /// caption and keywords: darktable's XMP sidecar over the file's own
    /// IPTC (its rating and caption win, its keywords join), and Takeout's
    /// description. Text no asset may hold is fitted, not refused.
    @Test func editorsRatingsCaptionsAndKeywordsBecomeTheAssets() throws {
        let camera = test.files.appendingPathComponent("Camera")
        let tagged = try photo("DSC_0100.JPG", in: camera, width: 48)
        try DebianTool.run(
            "exiftool", ["-q", "-overwrite_original", "-IPTC:Keywords=alps", "-IPTC:Caption-Abstract=From the camera", tagged.path])
        try write(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="5">
              <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Sunrise on the ridge</rdf:li></rdf:Alt></dc:description>
              <dc:subject><rdf:Bag><rdf:li>sunrise</rdf:li><rdf:li>alps</rdf:li><rdf:li>\(String(repeating: "x", count: 300))</rdf:li></rdf:Bag></dc:subject>
             </rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """, "DSC_0100.JPG.xmp", in: camera)
        let takeout = test.files.appendingPathComponent("Takeout")
        let cake = try photo("IMG_0200.jpg", in: takeout, width: 50)
        try write(
            takeoutJSON(title: "IMG_0200.jpg", taken: 1_591_576_200).replacingOccurrences(
                of: "\"description\": \"\"", with: "\"description\": \"Birthday cake\""),
            "IMG_0200.jpg.json", in: takeout)
        let result = try test.library.importFiles([tagged, cake])
        #expect(result.failed.isEmpty, "\(result.failed)")
        let byName = Dictionary(uniqueKeysWithValues: result.imported.map { ($0.file.lastPathComponent, $0.localIdentifier) })
        let ridge = try asset(byName["DSC_0100.JPG"])
        #expect(ridge.rating == .five)
        #expect(ridge.extendedMetadata.caption == "Sunrise on the ridge")
        #expect(ridge.extendedMetadata.keywords == ["alps", "sunrise"], "the file's, then the sidecar's; one too long left out")
        let birthday = try asset(byName["IMG_0200.jpg"])
        #expect(birthday.rating == .unset)
        #expect(birthday.extendedMetadata.caption == "Birthday cake")
        #expect(birthday.extendedMetadata.keywords.isEmpty)
    }
}
