import CTesseract
import Foundation

/// Reads printed text in images on the CPU, offline, with Tesseract's LSTM
/// engine and the language models Debian ships (`tesseract-ocr-eng`, one
/// package a language). Chosen over PaddleOCR's models through ONNX Runtime
/// by the measurement in BENCHMARKS.md ("text in photos").
///
/// One recognizer holds one engine, whose models load once (about 100 ms
/// and 30 MB for English); calls on it take turns. Cost: from about 50 ms
/// for a screenshot's few lines to a second or more for a photo full of
/// texture at 2,048 pixels, which Tesseract's layout analysis reads for text.
package final class TextRecognizer: @unchecked Sendable {
    /// A word read, where it is (pixels, origin top left), and how sure the
    /// engine is of it, from 0 to 100.
    package struct Word: Sendable, Hashable {
        package var text: String
        package var confidence: Float
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
    }

    /// The languages read, as Tesseract names them (`eng`, `deu`, …).
    package let languages: [String]
    /// Words read with less confidence than this are left out: on photos
    /// without text, Tesseract's guesses at texture fall below it.
    package static let minimumConfidence: Float = 60
    /// Images smaller than this on either side hold no readable word.
    static let minimumSide = 16

    /// Debian's Tesseract runs its LSTM layers on four OpenMP threads that
    /// spin while they wait: on two cores, a photo took 4.9 s instead of
    /// 0.95 s, and starved the server. Each recognizer runs on its caller's
    /// thread alone; the indexer chooses how many run. OpenMP reads its
    /// thread limit only from the environment at load, so this turns
    /// nested and parallel regions off instead, for the process: no other
    /// part of it uses OpenMP. Leptonica's complaints about images ("invalid box") go nowhere either.
    private static let singleThreadedAndQuiet: Void = {
        omp_set_max_active_levels(0)
        _ = setMsgSeverity(leptonicaSilence)
    }()
    /// Leptonica's L_SEVERITY_NONE: no message printed.
    private static let leptonicaSilence: Int32 = 6
    /// The engine: Tesseract's LSTM recognizer alone.
    package static let engineMode = OEM_LSTM_ONLY

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// A recognizer of `languages`, from the models in `dataDirectory`
    /// (nil: Tesseract's own, `/usr/share/tesseract-ocr/5/tessdata`).
    /// Throws ``VisionError/modelMissing(_:)`` when a language's model is
    /// not installed. Cost: loading the models.
    package init(languages: [String] = ["eng"], dataDirectory: URL? = nil) throws(VisionError) {
        guard !languages.isEmpty, languages.allSatisfy(Self.isLanguageName) else {
            throw .invalidLanguage(languages.joined(separator: "+"))
        }
        guard let handle = TessBaseAPICreate() else { throw .engineFailed("Tesseract could not start") }
        Self.prepare(handle)
        let status = TessBaseAPIInit2(handle, dataDirectory?.path, languages.joined(separator: "+"), Self.engineMode)
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw .modelMissing(languages)
        }
        Self.configure(handle)
        self.handle = handle
        self.languages = languages
    }

    /// Readies the process and a new engine before its models load: one
    /// thread, no messages on standard error. The benchmark's direct use of
    /// Tesseract calls it too, so both sides run alike.
    package static func prepare(_ handle: OpaquePointer) {
        _ = singleThreadedAndQuiet
        // Tesseract's notes ("Estimating resolution as …") are not ours to print.
        TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
    }

    /// The reading settings of an engine whose models have loaded.
    package static func configure(_ handle: OpaquePointer) {
        // Tesseract's automatic layout: on the labelled set it read 98% of the
        // words of photographed pages where sparse-text mode read 88%, and
        // on a photo without text it gives up three times sooner.
        TessBaseAPISetPageSegMode(handle, PSM_AUTO)
        // Sauvola's local thresholds rather than one Otsu threshold for the
        // page: a phone photo of a page is lit unevenly. On a real one
        // (scikit-image's page.png) recall rose from 0.64 to 0.89; on photos
        // without text it costs up to three times as long.
        TessBaseAPISetVariable(handle, "thresholding_method", "2")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// The words read in an image of `width × height` RGBA pixels
    /// (`bytesPerRow` bytes a row), in reading order, those below
    /// ``minimumConfidence`` and those with no letter or digit left out.
    package func words(inRGBA pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> [Word] {
        guard width >= Self.minimumSide, height >= Self.minimumSide, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * height,
            let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return [] }
        return lock.withLock {
            TessBaseAPISetImage(handle, base, Int32(width), Int32(height), 4, Int32(bytesPerRow))
            defer { TessBaseAPIClear(handle) }
            guard TessBaseAPIRecognize(handle, nil) == 0, let iterator = TessBaseAPIGetIterator(handle) else { return [] }
            defer { TessResultIteratorDelete(iterator) }
            var words: [Word] = []
            repeat {
                guard let raw = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
                let text = String(cString: raw)
                TessDeleteText(raw)
                let confidence = TessResultIteratorConfidence(iterator, RIL_WORD)
                guard confidence >= Self.minimumConfidence, text.unicodeScalars.contains(where: CharacterSet.alphanumerics.contains) else { continue }
                var (left, top, right, bottom): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
                TessPageIteratorBoundingBox(TessResultIteratorGetPageIteratorConst(iterator), RIL_WORD, &left, &top, &right, &bottom)
                words.append(
                    Word(
                        text: text, confidence: confidence, x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top)))
            } while TessResultIteratorNext(iterator, RIL_WORD) != 0
            return words
        }
    }

    /// Where Tesseract finds its models: `TESSDATA_PREFIX` when set, else
    /// where Debian's packages put them.
    package static var modelDirectory: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] ?? "/usr/share/tesseract-ocr/5/tessdata", isDirectory: true)
    }

    /// Why a recognizer of `languages` cannot start: a name that is not a
    /// language's, or models not installed; nil when it can.
    /// Cost: a `stat` a language.
    package static func problem(with languages: [String]) -> VisionError? {
        guard !languages.isEmpty, languages.allSatisfy(isLanguageName) else { return .invalidLanguage(languages.joined(separator: "+")) }
        let missing = languages.filter {
            !FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent("\($0).traineddata").path)
        }
        return missing.isEmpty ? nil : .modelMissing(missing)
    }

    /// Tesseract's names are letters, digits and underscores (`chi_sim`);
    /// anything else would reach its file names.
    private static func isLanguageName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32 && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
