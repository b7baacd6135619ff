import Foundation
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import PhotosVision
import Testing

@testable import Photos
@testable import PhotosIndexing

/// Text read in photos: found by search through the public fetch API, its
/// accuracy on a labelled set with a floor, and what happens without models.
@Suite struct TextInPhotosTests {
    static func search(_ query: String, in library: PHPhotoLibrary) throws -> [String] {
        try library.withCurrentLibrary {
            let result = try PHAsset.fetchAssets(matchingSearch: query, options: nil)
            return result.objects(at: IndexSet(integersIn: 0..<result.count)).map(\.localIdentifier)
        }
    }

    @Test func textInAPhotoIsFoundBySearch() throws {
        let test = try TestLibrary()
        let samples = try TextSamples.make(count: 2, in: test.files)
        let ids = try test.importImages(samples.map(\.url) + [try test.jpeg("blank.jpg", width: 320, height: 240)])
        let run = try LibraryIndexer(library: test.library).catchUp()
        #expect(run.indexed == 3 * IndexKind.allCases.count, "three assets, each by every kind")
        #expect(run.unavailable.isEmpty)
        for (sample, id) in zip(samples, ids) {
            let word = sample.words.first { !$0.allSatisfy(\.isNumber) }!
            #expect(try Self.search(word, in: test.library).contains(id), "\(word) in \(sample.font)")
            // Text joins the other words: the file name and what the photo says, together.
            #expect(try Self.search("\(sample.url.deletingPathExtension().lastPathComponent) \(word)", in: test.library) == [id])
        }
        // A word only one of them shows finds that one alone; the blank photo is found by no word.
        let onlyFirst = try #require(samples[0].words.first { !samples[1].words.contains($0) && !$0.allSatisfy(\.isNumber) })
        #expect(try Self.search(onlyFirst, in: test.library) == [ids[0]])
        #expect(try Self.search("blank", in: test.library) == [ids[2]])
        let status = try LibraryIndexer(library: test.library).status()
        #expect(status.kinds.map(\.name) == IndexKind.allCases.map(\.rawValue))
        #expect(status.kinds.allSatisfy { $0.phase == .following && $0.indexed == 3 })
    }

    @Test func anEditChangesWhatIsReadAndAVideoHasNoText() throws {
        let test = try TestLibrary()
        let sample = try TextSamples.make(count: 1, in: test.files, seed: 7)[0]
        let id = try test.importImages([sample.url])[0]
        let indexer = LibraryIndexer(library: test.library, kinds: [.text])
        try indexer.catchUp()
        let word = sample.words.first { !$0.allSatisfy(\.isNumber) }!
        #expect(try Self.search(word, in: test.library) == [id])
        // An edit whose image shows other words: the index follows the current version.
        let otherDirectory = test.files.appendingPathComponent("other", isDirectory: true)
        try FileManager.default.createDirectory(at: otherDirectory, withIntermediateDirectories: true)
        let other = try TextSamples.make(count: 1, in: otherDirectory, seed: 8)[0]
        let newWord = try #require(other.words.first { !sample.words.contains($0) && !$0.allSatisfy(\.isNumber) })
        let asset = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] }
        let input = try ContentEditingTests.input(for: asset)
        let output = PHContentEditingOutput(contentEditingInput: input)
        try ImageCodec.encode(try ImageCodec.decode(fileAt: other.url), as: .jpeg(quality: 90)).write(to: output.renderedContentURL)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.words", formatVersion: "1", data: Data("other".utf8))
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        #expect(try indexer.catchUp().indexed == 1)
        #expect(try Self.search(newWord, in: test.library) == [id])
        #expect(try Self.search(word, in: test.library).isEmpty || other.words.contains(word))
        // A video's frames are not read (ffmpeg's test pattern shows digits): it is indexed, with no text.
        let video = test.files.appendingPathComponent("clip.mp4")
        try DebianTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p", video.path])
        try test.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: video) }
        #expect(try indexer.catchUp().indexed == 1)
        #expect(try Self.search("0", in: test.library).isEmpty)
    }

    @Test func aLanguageWithoutItsModelIsReportedAndTheRestIndexes() throws {
        let test = try TestLibrary()
        _ = try test.importImages([try test.jpeg("lyon.jpg", latitude: 45.7640, longitude: 4.8357)])
        let indexer = LibraryIndexer(library: test.library, textLanguages: ["eng", "zzz"])
        let run = try indexer.catchUp()
        #expect(run.indexed == IndexKind.allCases.count - 1, "every kind but text still indexed")
        #expect(run.unavailable[.text]?.contains("tesseract-ocr-zzz") == true, "\(run.unavailable)")
        let status = try indexer.status()
        #expect(status.kinds[1].phase == .unavailable && status.kinds[1].unavailableReason?.contains("zzz") == true)
        #expect(try Self.search("lyon", in: test.library).count == 1)
        // A name that is not a language's never reaches Tesseract's file names.
        for hostile in ["../../etc/passwd", "eng+deu", "", "ENG", String(repeating: "a", count: 40)] {
            let run = try LibraryIndexer(library: test.library, kinds: [.text], textLanguages: [hostile]).catchUp()
            #expect(run.unavailable[.text]?.contains("is not a list of Tesseract language names") == true, "\(hostile): \(run.unavailable)")
        }
        #expect(throws: VisionError.invalidLanguage("../x")) { try TextRecognizer(languages: ["../x"]) }
    }

    @Test func aLargeChangeBlockIsIndexedInBatchesAndResumesInsideIt() throws {
        let test = try TestLibrary()
        let indexer = { (holder: String) in LibraryIndexer(library: test.library, holder: holder, kinds: [.metadata], now: Date.init, batchLimit: 4) }
        // The whole pass over an empty library ends at once; then one change block brings 18 photos.
        #expect(try indexer("first").catchUp().indexed == 0)
        let ids = try test.importImages(try (0..<18).map { try test.jpeg("block-\($0).jpg", latitude: 35.0116, longitude: 135.7681) })
        var steps = 0
        let stopped = try indexer("first").catchUp {
            steps += 1
            return steps > 2
        }
        #expect(stopped.indexed == 8, "two batches of four, inside the one block")
        let state = try #require(try test.library.store?.indexerState("metadata"))
        guard case .following(_, let after?) = state.position else {
            Issue.record("the position is not inside the block: \(state.position)")
            return
        }
        #expect(after == ids.map(LocalIdentifier.uuid).sorted()[7])
        // Another process resumes inside the block: nothing twice, nothing left.
        #expect(try indexer("second").catchUp().indexed == 10)
        let status = try indexer("second").status()
        #expect(status.kinds[0].indexed == 18 && status.kinds[0].pendingChanges == 0)
        #expect(try Self.search("kyoto block", in: test.library).count == 18)
    }
}

/// How well text is read, on a labelled set rendered in eight fonts, clean
/// and photographed-like: each kind's word recall has a floor.
@Suite(.tags(.slow)) struct TextReadingAccuracyTests {
    @Test func wordRecallStaysAboveItsFloor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("text-accuracy-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try TextSamples.make(count: 32, in: directory)
        let recognizer = try TextRecognizer()
        var recall: [Bool: [Double]] = [:]
        for sample in samples {
            let pixels = try ImageCodec.decode(fileAt: sample.url)
            let words = pixels.bytes.withUnsafeBytes {
                recognizer.words(inRGBA: $0, width: pixels.width, height: pixels.height, bytesPerRow: pixels.width * 4)
            }
            let read = words.flatMap { SearchWords.words($0.text) }
            recall[sample.photographed, default: []].append(TextSamples.recall(expected: sample.words, read: read))
        }
        let page = TextSamples.photographedPage
        let pagePixels = try ImageCodec.decode(fileAt: page.url)
        let pageWords = pagePixels.bytes.withUnsafeBytes {
            recognizer.words(inRGBA: $0, width: pagePixels.width, height: pagePixels.height, bytesPerRow: pagePixels.width * 4)
        }
        let pageRecall = TextSamples.recall(expected: SearchWords.words(page.text), read: pageWords.flatMap { SearchWords.words($0.text) })
        let clean = recall[false, default: []].reduce(0, +) / Double(recall[false, default: []].count)
        let photographed = recall[true, default: []].reduce(0, +) / Double(recall[true, default: []].count)
        print("text word recall: clean \(clean), photographed-like \(photographed), a real photographed page \(pageRecall)")
        // Measured: 1.0 and 0.98 (Tesseract 5.3, Debian's English model).
        #expect(clean >= 0.98)
        #expect(photographed >= 0.93)
        #expect(pageRecall >= 0.8)
    }
}
