import CFaces
import Foundation
import Photos
import PhotosIndexing
import PhotosMedia
import PhotosTestSupport
import PhotosVision

/// People: the indexer finding the faces in every photo of a library and
/// grouping them, against dlib called directly on the same files with the
/// same models and settings; and how well it groups the labelled set
/// (dlib's johns and face_recognition's whole photos).
struct FaceBenchmarks {
    let workdir: URL
    let quick: Bool

    func run() throws {
        let scratch = workdir.appendingPathComponent("faces-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let samples = try FaceSamples.johns(in: scratch) + FaceSamples.whole
        try accuracy(samples, in: scratch)
        // Photos of faces, and camera photos with none, as a library mixes them; once each in quick form.
        let sources = samples.map(\.url) + TextBenchmarks.cameraPhotos
        let count = quick ? sources.count : sources.count * 2
        let files = try (0..<count).map { index in
            let source = sources[index % sources.count]
            let copy = scratch.appendingPathComponent("photo-\(index).\(source.pathExtension)")
            try FileManager.default.copyItem(at: source, to: copy)
            return copy
        }
        print("photos-bench faces: \(files.count) photos (\(samples.count) of known people and \(TextBenchmarks.cameraPhotos.count) camera photos, repeated)")
        try throughput(files, in: scratch)
    }

    // MARK: - Throughput

    /// A whole pass of the faces indexer over a fresh copy of a library of
    /// `files` (faces found, grouped into people, written), against dlib's
    /// detector, landmarks and descriptor called directly on the files,
    /// each decoded by libvips to the size ours reads, on one thread.
    private func throughput(_ files: [URL], in scratch: URL) throws {
        let library = scratch.appendingPathComponent("faces.photoslibrary")
        let photos = try PHPhotoLibrary(url: library, clientIdentifier: nil)
        try photos.performChangesAndWait {
            for file in files { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file) }
        }
        let sized = try files.map { file in
            let pixels = try ImageCodec.decode(fileAt: file)
            let scale = min(1, Double(FacesInPhotos.longestSide) / Double(max(pixels.width, pixels.height)))
            return (file, Int((Double(pixels.width) * scale).rounded()), Int((Double(pixels.height) * scale).rounded()))
        }
        var copy = library
        var counts = (ours: 0, baseline: 0)
        let (ours, baseline) = try Measure.alternating(
            runs: quick ? 1 : 3,
            beforeEachSide: { copy = try BenchLibrary.workingCopy(of: library, in: scratch) },
            ours: {
                counts.ours = try LibraryIndexer(library: try PHPhotoLibrary(url: copy, clientIdentifier: nil), kinds: [.faces]).catchUp().indexed
            },
            baseline: { counts.baseline = try Self.findDirectly(sized) })
        guard counts.ours == files.count, counts.baseline > 0 else {
            throw BenchError("the indexer read \(counts.ours) photos of \(files.count), and dlib found \(counts.baseline) faces")
        }
        let rate = { (milliseconds: Double) in String(format: "%.1f", Double(files.count) / (milliseconds / 1000)) }
        _ = Measure.report(
            "finding faces and grouping them, whole pass, \(files.count) photos, one core (ours \(rate(ours)) photos/s, baseline \(rate(baseline)) photos/s)",
            ours: ours, baseline: baseline, target: 1.2)
    }

    /// dlib on each file through its C interface, with the indexer's models
    /// and settings, each decoded by libvips at its size; returns the faces found.
    static func findDirectly(_ files: [(url: URL, width: Int, height: Int)]) throws -> Int {
        let models = FaceRecognizer.defaultModelDirectory
        var error = [CChar](repeating: 0, count: 512)
        guard
            let engine = opk_face_engine_open(
                models.appendingPathComponent(FaceRecognizer.landmarksFile).path, models.appendingPathComponent(FaceRecognizer.descriptorFile).path,
                &error, error.count)
        else { throw BenchError("dlib's face models did not load from \(models.path)") }
        defer { opk_face_engine_close(engine) }
        var faces = [opk_face](repeating: opk_face(), count: FaceRecognizer.maximumFaces)
        var found = 0
        for file in files {
            let image = try ImageRenderer.render(fileAt: file.url, RenderSpec(targetWidth: file.width, targetHeight: file.height, mode: .fit, exact: true))
            let upsample: Int32 = max(image.width, image.height) < FacesInPhotos.upsampledBelow ? 1 : 0
            let count = image.bytes.withUnsafeBufferPointer { bytes in
                opk_face_engine_find(
                    engine, bytes.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4), upsample, &faces, Int32(faces.count),
                    &error, error.count)
            }
            guard count >= 0 else { throw BenchError("dlib failed on \(file.url.lastPathComponent)") }
            found += Int(count)
        }
        return found
    }

    // MARK: - Accuracy

    /// The grouping's pairwise F1 on the labelled set, through a library and its indexer.
    private func accuracy(_ samples: [FaceSamples.Sample], in scratch: URL) throws {
        let library = try PHPhotoLibrary(url: scratch.appendingPathComponent("labelled.photoslibrary"), clientIdentifier: nil)
        var ids: [String] = []
        try library.performChangesAndWait {
            for sample in samples {
                ids.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: sample.url)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        try LibraryIndexer(library: library, kinds: [.faces]).catchUp()
        let clusters = try library.withCurrentLibrary {
            try ids.map { id in try library.faces(in: PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0]).first?.personLocalIdentifier }
        }
        let scores = FaceSamples.pairwiseScores(clusters: clusters, people: samples.map(\.person))
        _ = Measure.reportAbsolute(
            "people grouped wrongly, 1 - pairwise F1, \(samples.count) photos of \(Set(samples.map(\.person)).count) people (precision \(String(format: "%.2f", scores.precision)), recall \(String(format: "%.2f", scores.recall)))",
            ours: 1 - scores.f1, target: 0.1, unit: "of pairs")
    }
}
