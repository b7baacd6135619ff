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
        let files = try IndexerPass.copies(of: sources, count: quick ? sources.count : sources.count * 2, in: scratch)
        print("photos-bench faces: \(files.count) photos (\(samples.count) of known people and \(TextBenchmarks.cameraPhotos.count) camera photos, repeated)")
        // The faces indexer finds, groups and stores; dlib's detector, landmarks and descriptor alone on the other side.
        let sized = try IndexerPass.sizes(of: files, longestSide: FacesInPhotos.longestSide)
        var found = 0
        try IndexerPass.measure("finding faces and grouping them", files: files, kind: .faces, runs: quick ? 1 : 3, in: scratch) {
            found = try Self.findDirectly(sized)
        }
        guard found > 0 else { throw BenchError("dlib found no face in \(files.count) photos") }
    }

    // MARK: - Throughput

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
