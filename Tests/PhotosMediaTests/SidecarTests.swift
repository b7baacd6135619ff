import Foundation
import Testing

@testable import PhotosMedia

/// Finding a file's sidecars by the names their tools give them, and how
/// far each is trusted over the file.
@Suite struct SidecarTests {
    @Test func takeoutAndXMPSidecarsAreFoundByTheNamesTheirToolsWrite() {
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
}
