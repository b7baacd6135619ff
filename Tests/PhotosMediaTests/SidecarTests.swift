import Foundation
import Testing

@testable import PhotosMedia

/// Finding a file's sidecars by the names their tools give them, and how
/// far each is trusted over the file.
@Suite struct SidecarTests {
    @Test func sidecarsAreFoundByTheNamesTheirToolsWrite() {
        let longName = "Screenshot_2020-06-08-00-30-00-123_com.example.app"
        let names = [
            "IMG_0001.JPG", "IMG_0001.JPG.json",
            "IMG_0002.HEIC", "IMG_0002.HEIC.supplemental-metadata.json",
            "IMG_0003.jpg", "IMG_0003.jpg.supplemen.json",
            "image.jpg", "image(1).jpg", "image.jpg.json", "image.jpg(1).json",
            "IMG_0004-edited.jpg", "IMG_0004.jpg", "IMG_0004.jpg.json",
            longName + ".jpg", String((longName + ".jpg").prefix(46)) + ".json",
            "DSC_0005.NEF", "DSC_0005.NEF.xmp", "DSC_0006.JPG", "DSC_0006.XMP",
            "metadata.json", "Metadaten.json", "IMG_0007.JPG",
            "IMG_0008.HEIC", "IMG_0008.MOV", "IMG_0008.AAE", "IMG_0009.HEIC", "IMG_O0009.aae", "IMG_0010.JPG", "IMG_0010.JPG.xmp", "IMG_0010.AAE",
        ]
        let index = SidecarNames(names: names)
        #expect(index.sidecars(of: "IMG_0001.JPG") == ["IMG_0001.JPG.json"])
        #expect(index.sidecars(of: "IMG_0002.HEIC") == ["IMG_0002.HEIC.supplemental-metadata.json"])
        #expect(index.sidecars(of: "IMG_0003.jpg") == ["IMG_0003.jpg.supplemen.json"])
        #expect(index.sidecars(of: "image.jpg") == ["image.jpg.json"])
        #expect(index.sidecars(of: "image(1).jpg") == ["image.jpg(1).json"], "a copy's number moves to the end")
        #expect(index.sidecars(of: "IMG_0004-edited.jpg") == ["IMG_0004.jpg.json"], "an edit is described by its original's")
        #expect(index.sidecars(of: longName + ".jpg") == [String((longName + ".jpg").prefix(46)) + ".json"], "cut to 51 characters")
        #expect(index.sidecars(of: "DSC_0005.NEF") == ["DSC_0005.NEF.xmp"], "darktable")
        #expect(index.sidecars(of: "DSC_0006.JPG") == ["DSC_0006.XMP"], "Lightroom")
        #expect(index.sidecars(of: "IMG_0007.JPG").isEmpty)
        #expect(index.sidecars(of: "IMG_0008.HEIC") == ["IMG_0008.AAE"], "Apple's Photos")
        #expect(index.sidecars(of: "IMG_0009.HEIC") == ["IMG_O0009.aae"], "an original's adjustments, as later versions name them")
        #expect(index.sidecars(of: "IMG_0010.JPG") == ["IMG_0010.JPG.xmp", "IMG_0010.AAE"])
        #expect(Set(index.folderMetadataNames) == ["metadata.json", "Metadaten.json"])
        // Short names are matched whole: "IMG_1.jpg.json" does not describe "IMG_1.jpg.jpg".
        #expect(SidecarNames(names: ["IMG_1.jpg.json"]).sidecars(of: "IMG_1.jpg.jpg").isEmpty)
    }

    private func file(capturedAt date: Date?, offset: Int?, byName: Bool = false, location: MediaLocation? = nil) -> MediaMetadata {
        var metadata = MediaMetadata(
            kind: .image, pixelWidth: 1, pixelHeight: 1, captureDate: date, captureTimeZoneOffset: offset,
            location: location, uniformTypeIdentifier: "public.jpeg")
        metadata.isDatedByName = byName
        return metadata
    }

    @Test func aSidecarWinsWhereThePersonChangedThingsOrTheFileSaysNothing() {
        let taken = Date(timeIntervalSince1970: 1_591_576_200)
        let url = URL(fileURLWithPath: "/x.json")
        let google = Sidecar(
            kind: .googleTakeout, file: url, captureTime: CaptureTime(date: taken, utcOffset: nil),
            location: MediaLocation(latitude: 45.76, longitude: 4.83), locationWasCorrected: true)
        #expect(google.captureDate(over: file(capturedAt: nil, offset: nil)) == taken)
        #expect(google.captureDate(over: file(capturedAt: taken - 86_400 * 3, offset: nil, byName: true)) == taken)
        #expect(google.captureDate(over: file(capturedAt: taken + 7200, offset: nil)) == nil, "a zone apart: the same moment")
        #expect(google.captureDate(over: file(capturedAt: taken + 20, offset: 7200)) == nil)
        #expect(google.captureDate(over: file(capturedAt: taken + 3600, offset: 7200)) == taken, "moved by the person")
        #expect(google.captureDate(over: file(capturedAt: taken - 86_400 * 400, offset: nil)) == taken, "moved by the person")
        #expect(google.location(over: file(capturedAt: nil, offset: nil, location: MediaLocation(latitude: 1, longitude: 1))) != nil)

        let xmp = Sidecar(kind: .xmp, file: url, captureTime: CaptureTime(date: taken, utcOffset: nil), location: MediaLocation(latitude: 1, longitude: 2))
        #expect(xmp.captureDate(over: file(capturedAt: taken - 86_400 * 400, offset: nil)) == nil, "the file's own time wins")
        #expect(xmp.captureDate(over: file(capturedAt: nil, offset: nil)) == taken)
        #expect(xmp.location(over: file(capturedAt: nil, offset: nil, location: MediaLocation(latitude: 5, longitude: 5))) == nil)
        #expect(xmp.location(over: file(capturedAt: nil, offset: nil)) == MediaLocation(latitude: 1, longitude: 2))
    }

    /// What an XMP sidecar this writes says, as exiftool reads it back
    /// (``Sidecar/read(_:)``): rating, caption and keywords with markup and
    /// characters XML cannot hold, the capture time in its own zone, and a
    /// place in every hemisphere.
    @Test func writtenXMPSidecarsReadBackWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let taken = Date(timeIntervalSince1970: 1_612_321_506)
        let cases: [(XMPSidecar, DescriptiveMetadata, Int?)] = [
            (
                XMPSidecar(
                    rating: 5, caption: "Fish & chips <at> \"Joe's\"\nsecond line\u{1B}", keywords: ["sea", "Zürich", "a&b"],
                    captureDate: taken, utcOffset: 3600, location: MediaLocation(latitude: 48.85, longitude: 2.35, altitude: 35.5)),
                DescriptiveMetadata(rating: 5, caption: "Fish & chips <at> \"Joe's\"\nsecond line", keywords: ["sea", "Zürich", "a&b"]), 3600
            ),
            (
                XMPSidecar(captureDate: taken, utcOffset: -34_200, location: MediaLocation(latitude: -33.8568, longitude: -70.65, altitude: -10)),
                DescriptiveMetadata(), -34_200
            ),
            (XMPSidecar(rating: 0, keywords: ["only"]), DescriptiveMetadata(keywords: ["only"]), nil),
        ]
        for (index, (written, described, offset)) in cases.enumerated() {
            let url = folder.appendingPathComponent("IMG_\(index).JPG.xmp")
            try Data(written.document.utf8).write(to: url)
            let read = try #require(Sidecar.read(url), "case \(index)")
            #expect(read.descriptive == described, "case \(index)")
            if let captureDate = written.captureDate {
                #expect(read.captureTime?.date == captureDate && read.captureTime?.utcOffset == offset, "case \(index)")
            }
            if let place = written.location {
                let readPlace = try #require(read.location, "case \(index)")
                #expect(abs(readPlace.latitude - place.latitude) < 1e-6 && abs(readPlace.longitude - place.longitude) < 1e-6, "case \(index)")
                #expect(abs((readPlace.altitude ?? 0) - (place.altitude ?? 0)) < 0.01, "case \(index)")
            }
        }
        #expect(XMPSidecar.name(besideFileNamed: "IMG_1.JPG") == "IMG_1.JPG.xmp")
    }
}
