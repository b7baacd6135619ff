import CTesseract
import Foundation
import Photos
import PhotosIndexing
import PhotosMedia
import PhotosStore
import PhotosTestSupport
import PhotosVision

/// Text in photos: the indexer reading every photo of a library, against
/// Tesseract run directly on the same files with the same settings; and
/// how many words it misses on the labelled set (rendered pages, clean and
/// photographed-like, and a real photographed page).
struct TextBenchmarks {
    let workdir: URL
    let quick: Bool

    /// Real camera photos (forensics-samples-files): most photos hold no
    /// text, and cost Tesseract its layout analysis all the same.
    static let cameraPhotos = [
        "pic1/IMG_20200827_231612.jpg", "pic2/IMG_20191224_234846.jpg", "pic2/IMG_20200124_231153.jpg", "pic2/IMG_20200608_111614.jpg",
        "pic1/IMG_1054.JPG", "pic1/IMG-20191006-WA0002.jpg",
    ].map { URL(fileURLWithPath: "/usr/share/forensics-samples/original-files/" + $0) }

    func run() throws {
        let scratch = workdir.appendingPathComponent("text-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let samples = try TextSamples.make(count: quick ? 16 : 32, in: scratch)
        try accuracy(samples)
        // Every camera photo and every page once, then again under other names, to the count.
        let sources = Self.cameraPhotos + samples.map(\.url)
        let files = try IndexerPass.copies(of: sources, count: quick ? sources.count : sources.count * 3, in: scratch)
        print("photos-bench text: \(files.count) photos (\(Self.cameraPhotos.count) camera photos and \(samples.count) pages, repeated)")
        let sized = try IndexerPass.sizes(of: files, longestSide: TextInPhotos.longestSide)
        var read = 0
        // Places and words first, so that the text pass alone is measured; Tesseract alone on the other side.
        try IndexerPass.measure("reading text", files: files, kind: .text, before: [.metadata], runs: quick ? 1 : 3, in: scratch) {
            read = try Self.readDirectly(sized)
        }
        guard read == files.count else { throw BenchError("Tesseract read \(read) photos of \(files.count)") }
    }

    // MARK: - Throughput

    /// Tesseract on each file as its C interface is used plainly, with the
    /// recognizer's settings, each decoded by libvips at its size; returns the photos read.
    static func readDirectly(_ files: [(url: URL, width: Int, height: Int)]) throws -> Int {
        guard let handle = TessBaseAPICreate() else { throw BenchError("Tesseract did not start") }
        defer {
            TessBaseAPIEnd(handle)
            TessBaseAPIDelete(handle)
        }
        // The recognizer's own settings, so that the two sides differ only in what surrounds the model.
        TextRecognizer.prepare(handle)
        guard TessBaseAPIInit2(handle, nil, "eng", TextRecognizer.engineMode) == 0 else { throw BenchError("Tesseract's English model is missing") }
        TextRecognizer.configure(handle)
        for file in files {
            let image = try ImageRenderer.render(fileAt: file.url, RenderSpec(targetWidth: file.width, targetHeight: file.height, mode: .fit, exact: true))
            image.bytes.withUnsafeBufferPointer { bytes in
                TessBaseAPISetImage(handle, bytes.baseAddress, Int32(image.width), Int32(image.height), 4, Int32(image.width * 4))
            }
            guard let text = TessBaseAPIGetUTF8Text(handle) else { throw BenchError("Tesseract read nothing of \(file.url.lastPathComponent)") }
            TessDeleteText(text)
            TessBaseAPIClear(handle)
        }
        return files.count
    }

    /// Writes the labelled set to `directory` with `samples.json`, which
    /// names each image and its words, for `script/compare-text-engines`,
    /// which measures other engines on the very same images.
    static func writeSamples(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let samples = try TextSamples.make(count: 32, in: directory)
        let page = TextSamples.photographedPage
        let list: [String: Any] = [
            "pages": samples.map { ["path": $0.url.path, "words": $0.words, "font": $0.font, "photographed": $0.photographed] as [String: Any] },
            "photographedPage": ["path": page.url.path, "words": SearchWords.words(page.text)],
            "cameraPhotos": cameraPhotos.map(\.path),
        ]
        try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys]).write(to: directory.appendingPathComponent("samples.json"))
        print("photos-bench text-samples: \(samples.count) pages in \(directory.path), listed in samples.json")
    }

    // MARK: - Accuracy

    /// The share of words the recognizer misses on the labelled set, by kind of page.
    private func accuracy(_ samples: [TextSamples.Sample]) throws {
        let recognizer = try TextRecognizer()
        func read(_ url: URL) throws -> [String] {
            let pixels = try ImageCodec.decode(fileAt: url)
            return pixels.bytes.withUnsafeBytes {
                recognizer.words(inRGBA: $0, width: pixels.width, height: pixels.height, bytesPerRow: pixels.width * 4)
            }.flatMap { SearchWords.words($0.text) }
        }
        for photographed in [false, true] {
            let kind = samples.filter { $0.photographed == photographed }
            let recall = try kind.map { TextSamples.recall(expected: $0.words, read: try read($0.url)) }.reduce(0, +) / Double(kind.count)
            _ = Measure.reportAbsolute(
                "text words missed, \(kind.count) rendered pages in \(Set(kind.map(\.font)).count) fonts, \(photographed ? "photographed-like" : "clean")",
                ours: 1 - recall, target: photographed ? 0.07 : 0.02, unit: "of words")
        }
        let page = TextSamples.photographedPage
        let recall = TextSamples.recall(expected: SearchWords.words(page.text), read: try read(page.url))
        _ = Measure.reportAbsolute("text words missed, a real photographed page (scikit-image's page.png)", ours: 1 - recall, target: 0.2, unit: "of words")
    }
}
