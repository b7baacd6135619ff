import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Files, tokens, identifiers and file systems that try to hurt the library:
/// each gets a clear error, nothing is half-stored, and the library still opens.
@Suite(.tags(.slow)) struct HostileInputTests {
    let test: TestLibrary

    init() throws {
        test = try TestLibrary()
    }

    private func importOne(_ url: URL) throws {
        try test.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url) }
    }

    private func expectNothingStored(_ comment: Comment) {
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 0, comment)
        #expect(test.originalFiles.isEmpty && test.files(under: "derivatives").isEmpty, comment)
        #expect(test.files(under: "staging").isEmpty, comment)
    }

    @Test func randomBytesUnderEveryExtension() throws {
        var random = PredicateFuzzTests.SplitMix(state: 7)
        var files: [URL] = []
        for (index, ext) in ["jpg", "png", "heic", "webp", "gif", "tif", "dng", "cr2", "mov", "mp4", "bin", ""].enumerated() {
            let bytes = (0..<Int.random(in: 1...20_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let file = try test.file("random-\(index)" + (ext.isEmpty ? "" : ".\(ext)"), Data(bytes))
            files.append(file)
            expectPhotosError(.invalidResource, "\(ext)") { try importOne(file) }
        }
        // Truncated to every length of a real JPEG's first kilobytes.
        let jpeg = try Data(contentsOf: try test.jpeg(width: 64, height: 48))
        for length in stride(from: 0, to: min(jpeg.count - 1, 1_500), by: 97) {
            let file = try test.file("cut-\(length).jpg", jpeg.prefix(length))
            files.append(file)
            expectPhotosError(.invalidResource, "\(length) bytes") { try importOne(file) }
        }
        expectNothingStored("random and truncated files")
        // importFiles reports each of them instead.
        let report = try test.library.importFiles(files)
        #expect(report.imported.isEmpty && report.failed.count == files.count)
        expectNothingStored("importFiles")
    }

    @Test func aDecompressionBombIsRefusedFromItsHeader() throws {
        // A 64 × 48 JPEG whose frame header claims 60,000 × 60,000 pixels.
        var bytes = [UInt8](try Data(contentsOf: try test.jpeg(width: 64, height: 48)))
        let frame = try #require((0..<bytes.count - 9).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(frame + 5..<frame + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        let bomb = try test.file("bomb.jpg", Data(bytes))
        let before = ProcessInfo.processInfo.physicalMemory > 0 ? Self.residentMegabytes : 0
        let error = expectPhotosError(.invalidResource) { try importOne(bomb) }
        #expect(error?.localizedDescription.contains("megapixel limit") == true, "\(String(describing: error))")
        #expect(Self.residentMegabytes - before < 100, "nothing was decoded")
        expectNothingStored("the bomb")
    }

    @Test func anImageThatMustBeDecodedWholeIsRefusedBeyondTheMemoryBudget() throws {
        // A PNG whose header claims 16-bit RGBA, interlaced, 12,000 × 12,000: libvips would
        // hold all 1.15 GB of it to decode. Its few bytes of data never get that far.
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            let length = UInt32(body.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        let side: [UInt8] = [0, 0, 0x2E, 0xE0]  // 12,000
        let header = chunk("IHDR", side + side + [16, 6, 0, 0, 1])
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header + chunk("IDAT", [0x78, 0x9C, 0x03, 0, 0, 0, 0, 1]) + chunk("IEND", [])
        let file = try test.file("huge-interlaced.png", Data(png))
        let before = Self.residentMegabytes
        let error = expectPhotosError(.invalidResource) { try importOne(file) }
        #expect(error?.localizedDescription.contains("MB of memory") == true, "\(String(describing: error))")
        #expect(Self.residentMegabytes - before < 100, "nothing was decoded")
        expectNothingStored("the interlaced giant")
    }

    @Test func wrongExtensionsGoByContent() throws {
        let png = try ImageCodec.encode(try ImageCodec.decode(data: try Data(contentsOf: try test.jpeg(width: 30, height: 20))), as: .png)
        let asset = try test.importAsset(try test.file("really-a-png.jpg", png))
        #expect(asset.pixelWidth == 30 && PHAssetResource.assetResources(for: asset).first?.uniformTypeIdentifier == "public.png")
        let jpegAsMovie = try test.file("photo.mov", try Data(contentsOf: try test.jpeg()))
        expectPhotosError(.invalidResource, "a photo is not a video") {
            try test.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: jpegAsMovie) }
        }
    }

    @Test(.timeLimit(.minutes(1))) func filesThatCannotBeReadLikePhotos() throws {
        expectPhotosError(.invalidResource, "a web URL") { try importOne(URL(string: "https://example.com/a.jpg")!) }
        expectPhotosError(.invalidResource, "a directory") { try importOne(test.files) }
        expectPhotosError(.invalidResource, "missing") { try importOne(test.files.appendingPathComponent("nope.jpg")) }
        let fifo = test.files.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        expectPhotosError(.invalidResource, "a named pipe must not block the import") { try importOne(fifo) }
        #expect(try test.library.importFiles([fifo, URL(fileURLWithPath: "/dev/zero")]).failed.count == 2)
        expectNothingStored("unreadable files")
    }

    @Test func identifiersOfTheWrongShape() throws {
        _ = try test.importImages([try test.jpeg()])
        let odd = [
            "", "x", "/", "../../etc/passwd", "00000000-0000-0000-0000-000000000000/L0/001", String(repeating: "A", count: 100_000),
            "'; DROP TABLE asset; --", "\u{0}", "👍/L0/001", "%@", "*",
        ]
        test.library.withCurrentLibrary {
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: odd, options: nil).count == 0)
            #expect(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: odd, options: nil).count == 0)
            #expect(PHCollectionList.fetchCollectionLists(withLocalIdentifiers: odd, options: nil).count == 0)
            #expect(PHAsset.fetchAssets(with: nil).count == 1, "the table is still there")
        }
    }

    @Test func garbledTokensDecodeToErrors() throws {
        let token = test.library.currentChangeToken
        let archived = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        for length in stride(from: 0, to: archived.count, by: 7) {
            let cut = try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived.prefix(length))
            if let cut { _ = try? test.library.fetchPersistentChanges(since: cut) }
        }
        let json = try JSONEncoder().encode(token)
        var text = String(decoding: json, as: UTF8.self)
        text = text.replacingOccurrences(of: "1", with: "2")
        if let altered = try? JSONDecoder().decode(PHPersistentChangeToken.self, from: Data(text.utf8)) {
            expectPhotosError(.identifierNotFound, "an altered token") { try test.library.fetchPersistentChanges(since: altered) }
        }
        // An empty token decodes as a damaged one, which names no state of any library.
        let empty = try JSONDecoder().decode(PHPersistentChangeToken.self, from: Data("{}".utf8))
        expectPhotosError(.identifierNotFound, "an empty token") { try test.library.fetchPersistentChanges(since: empty) }
    }

    @Test(.enabled(if: TestBackend.selected.keepsOriginalsInItsDirectory, "reads or breaks the library directory's own original files"))
    func aWriteFailureMidBlockLeavesNothingHalfWritten() throws {
        _ = try test.importImages([try test.jpeg()])
        // Every folder of originals/ taken by a file: placing any new original fails.
        let originals = test.library.url.appendingPathComponent("originals")
        let existing = Set(test.originalFiles)
        for character in "0123456789ABCDEF" {
            let folder = originals.appendingPathComponent(String(character))
            if !FileManager.default.fileExists(atPath: folder.path) { try Data().write(to: folder) }
        }
        let photos = try (0..<5).map { _ in try test.jpeg(width: 80, height: 60) }
        #expect(throws: PHPhotosError.self) { _ = try test.importImages(photos) }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil) }.count == 1)
        #expect(Set(test.originalFiles.filter { $0.contains("/") }) == existing, "no new original left behind")
        #expect(test.files(under: "staging").isEmpty)
        for character in "0123456789ABCDEF" {
            let folder = originals.appendingPathComponent(String(character))
            if (try? FileManager.default.attributesOfItem(atPath: folder.path)[.type] as? FileAttributeType) == .typeRegular {
                try FileManager.default.removeItem(at: folder)
            }
        }
        _ = try PHPhotoLibrary(url: test.library.url, clientIdentifier: nil)
        #expect(try test.importImages(photos).count == 5, "the library works again once the disk does")
    }

    /// A full disk, on a 3 MB tmpfs. Mounting needs root (or CAP_SYS_ADMIN):
    /// without it the test is skipped, saying so, and the simulated write
    /// failure above covers the path. Once the libraries are released and
    /// the maintenance they started in the background has ended, nothing of
    /// theirs is open there, so the disk can be unmounted.
    @Test(.enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root or CAP_SYS_ADMIN, which this process lacks"))
    func aFullDiskMidBlock() throws {
        let mountPoint = test.files.appendingPathComponent("small-disk")
        try SmallDisk.mount(at: mountPoint, size: "3m")
        defer { SmallDisk.unmount(mountPoint) }
        try fillUp(libraryAt: mountPoint.appendingPathComponent("Small.photoslibrary"))
        #expect(
            eventuallyBlocking(every: .milliseconds(50)) { SmallDisk.openFiles(under: mountPoint).isEmpty },
            "files the released libraries still hold open after 10 s: \(SmallDisk.openFiles(under: mountPoint))")
    }

    /// Imports photos into a new library at `url` until the disk is full,
    /// then checks that only whole blocks were stored.
    private func fillUp(libraryAt url: URL) throws {
        let library = try PHPhotoLibrary(url: url, clientIdentifier: nil)
        var stored = 0
        var failure: PHPhotosError?
        for round in 0..<40 where failure == nil {
            let photos = try (0..<4).map { _ in try test.jpeg(width: 900, height: 700 + round) }
            do {
                try library.performChangesAndWait {
                    for photo in photos { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
                }
                stored += photos.count
            } catch let error as PHPhotosError {
                failure = error
            }
        }
        #expect(failure != nil, "the disk filled up")
        #expect(failure?.code == .notEnoughSpace, "\(String(describing: failure)): \(failure?.localizedDescription ?? "")")
        let reopened = try PHPhotoLibrary(url: library.url, clientIdentifier: nil)
        #expect(try reopened.store!.integrityCheck() == "ok")
        #expect(reopened.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count } == stored, "whole blocks only")
        #expect(try reopened.store!.allResourcePaths().count == stored)
    }

    static var residentMegabytes: Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
