import CBenchVips
import Foundation
import Photos
import PhotosSQLite
import PhotosStore

/// Thumbnails against the same work written plainly with libvips, against
/// `vips_thumbnail` alone and against libjpeg's decode at scale, with their
/// quality compared; and imports
/// against the same work done plainly (``ImportBaseline``), on generated
/// camera-like JPEGs of 12 and 24 megapixels, and on real camera photos when
/// `PHOTOS_BENCH_CAMERA_DIR` names a folder of them; and the import of a
/// mixed corpus of real photos and videos (``MixedCorpus``) against the same
/// work done plainly (``MixedImportBaseline``).
struct MediaBenchmarks {
    let workdir: URL
    /// Small photos and few of them: checks that every benchmark runs (for
    /// CI), without saying anything about speed.
    var quick = false

    func run() throws {
        print("photos-bench media: \(ProcessInfo.processInfo.activeProcessorCount) cores")
        guard bench_vips_init() == 0 else { throw BenchError("libvips failed to initialise") }
        let twelve = quick ? try fixtures(width: 1600, height: 1200, count: 2) : try fixtures(width: 4000, height: 3000, count: 10)
        let twentyFour = quick ? try fixtures(width: 1600, height: 1200, count: 10) : try fixtures(width: 6000, height: 4000, count: 200)
        try thumbnailsFromOriginals(twelve, label: quick ? "2 MP (quick)" : "12 MP")
        try thumbnailsFromOriginals(Array(twentyFour.prefix(10)), label: quick ? "2 MP (quick)" : "24 MP")
        let progressive =
            quick
            ? try fixtures(width: 1600, height: 1200, count: 2, progressive: true)
            : try fixtures(width: 4000, height: 3000, count: 10, progressive: true)
        try thumbnailsFromOriginals(progressive, label: quick ? "2 MP progressive (quick)" : "12 MP progressive")
        let cameraFolder = ProcessInfo.processInfo.environment["PHOTOS_BENCH_CAMERA_DIR"] ?? Self.debianCameraPhotos
        let cameraPhotos = Self.cameraPhotos(in: URL(fileURLWithPath: cameraFolder))
        if cameraPhotos.isEmpty {
            print(
                "(no real camera photos in \(cameraFolder): script/bootstrap installs Debian's forensics-samples-files, "
                    + "or set PHOTOS_BENCH_CAMERA_DIR to a folder of JPEGs)")
        } else {
            try thumbnailsFromOriginals(
                cameraPhotos,
                label: cameraFolder == Self.debianCameraPhotos
                    ? "camera photos (Debian's forensics-samples-files)" : "camera photos from \(cameraFolder)")
        }
        context(twelve[0])
        try derivativeRequests()
        try importing(twentyFour)
        try importingMixed()
        BenchLibrary.removeScratch(in: workdir)
    }

    // MARK: - Thumbnails from originals

    /// Real photos with their cameras' EXIF, from a Debian package's test
    /// data (CC BY-SA 4.0): four 12 MP photos from a Xiaomi Mi A3 phone, one
    /// of them turned 180° by its orientation tag; a progressive 1280 × 960
    /// one from a Canon PowerShot SX530 HS with an ICC profile; a progressive
    /// 1024 × 768 one as WhatsApp sends it. Both our libjpeg path and its
    /// fallback to libvips are taken.
    static let debianCameraPhotos = "/usr/share/forensics-samples/original-files"

    /// The JPEGs under `folder`, by path, at most 10; of the Debian samples,
    /// the photos (named IMG… by the phone, the camera and WhatsApp), not
    /// the logos beside them.
    private static func cameraPhotos(in folder: URL) -> [URL] {
        let found =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { ["jpg", "jpeg"].contains($0.pathExtension.lowercased()) }
            .filter { folder.path != debianCameraPhotos || $0.lastPathComponent.hasPrefix("IMG") } ?? []
        return Array(found.sorted { $0.path < $1.path }.prefix(10))
    }

    /// A 256 × 256 aspect-fill thumbnail of each photo through
    /// `requestImage`, with no derivative made yet (the request makes one
    /// and keeps it), against three baselines on the same files: the same
    /// work written plainly with libvips (``bench_thumbnail_same_work``),
    /// `vips_thumbnail` alone (the practical lower bound: no derivative is
    /// kept), and libjpeg's decode at scale alone (the `djpeg -scale` floor).
    /// Then the quality: each side's render against `vips_thumbnail` of the
    /// original, by SSIM; the run fails when ours is clearly worse.
    private func thumbnailsFromOriginals(_ photos: [URL], label: String) throws {
        guard !photos.isEmpty else { return }
        let library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir), clientIdentifier: nil)
        let assets = try importAll(photos, into: library)
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        let target = CGSize(width: 256, height: 256)
        let derivatives = workdir.appendingPathComponent("scratch/same-work-derivatives")
        try FileManager.default.createDirectory(at: derivatives, withIntermediateDirectories: true)
        var failures = 0
        var manager = PHImageManager()
        var oursImages: [UIImage?] = []
        let prepare = {
            try removeDerivatives(of: library)
            manager = PHImageManager()
        }
        let ours = {
            oursImages = assets.map { asset in
                var delivered: UIImage?
                manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFill, options: options) { image, _ in delivered = image }
                if delivered?.size != target { failures += 1 }
                return delivered
            }
        }
        var sameWorkImages: [(pixels: [UInt8], width: Int, height: Int)?] = []
        let baselines: [(name: String, target: Double, run: () -> Void)] = [
            (
                "the same work done plainly with libvips (derivative made, kept, rendered)", 1.0,
                {
                    sameWorkImages = photos.enumerated().map { index, photo in
                        let image = Self.pixels {
                            bench_thumbnail_same_work(photo.path, 360, 82, derivatives.appendingPathComponent("\(index).jpg").path, 256, &$0, &$1, &$2)
                        }
                        if image == nil { failures += 1 }
                        return image
                    }
                }
            ),
            (
                "vips_thumbnail alone", 1.15,
                {
                    for photo in photos where bench_thumbnail(photo.path, 256, 1) != 0 { failures += 1 }
                }
            ),
            (
                "the libjpeg decode at scale alone (the djpeg -scale floor)", 1.5,
                {
                    for photo in photos where bench_decode_floor(photo.path, 256) != 0 { failures += 1 }
                }
            ),
        ]
        for baseline in baselines {
            let (oursTime, baselineTime) = try Measure.alternating(prepare: prepare, ours: ours, baseline: baseline.run)
            Measure.report(
                "256-px aspectFill thumbnail from the original, \(label) (\(photos.count) photos, per photo), against \(baseline.name)",
                ours: oursTime / Double(photos.count), baseline: baselineTime / Double(photos.count), target: baseline.target)
        }
        guard failures == 0 else { throw BenchError("\(failures) thumbnails failed") }

        // Quality: both renders against vips_thumbnail straight from the original.
        var oursSSIM: [Double] = []
        var sameWorkSSIM: [Double] = []
        for (index, photo) in photos.enumerated() {
            guard let reference = Self.pixels({ bench_thumbnail_rgba(photo.path, 256, &$0, &$1, &$2) }),
                let mine = oursImages[index], let plain = sameWorkImages[index],
                let oursValue = ImageQuality.ssim(mine.rgbaPixels, reference.pixels, width: reference.width, height: reference.height),
                let plainValue = ImageQuality.ssim(plain.pixels, reference.pixels, width: reference.width, height: reference.height)
            else {
                throw BenchError("the thumbnails of \(photo.lastPathComponent) could not be compared")
            }
            oursSSIM.append(oursValue)
            sameWorkSSIM.append(plainValue)
        }
        let (oursQuality, plainQuality) = (Measure.median(oursSSIM), Measure.median(sameWorkSSIM))
        print(
            String(
                format: "  (quality, median SSIM against vips_thumbnail of the original: ours %.4f, the same-work baseline %.4f)",
                oursQuality, plainQuality))
        guard oursQuality >= plainQuality - 0.02 else {
            throw BenchError(String(format: "our thumbnails are worse than the same-work baseline's: SSIM %.4f against %.4f", oursQuality, plainQuality))
        }
    }

    /// The RGBA pixels a C function hands back, copied, and the C buffer freed.
    private static func pixels(_ make: (inout UnsafeMutablePointer<UInt8>?, inout Int32, inout Int32) -> Int32) -> (pixels: [UInt8], width: Int, height: Int)? {
        var buffer: UnsafeMutablePointer<UInt8>?
        var (width, height): (Int32, Int32) = (0, 0)
        guard make(&buffer, &width, &height) == 0, let buffer else { return nil }
        defer { bench_free(buffer) }
        return (Array(UnsafeBufferPointer(start: buffer, count: Int(width) * Int(height) * 4)), Int(width), Int(height))
    }

    /// The command-line tools' times for context: they include starting a process.
    private func context(_ photo: URL) {
        for (tool, arguments) in [
            (
                "vipsthumbnail",
                [
                    photo.path, "--size", "256x256", "--smartcrop", "centre",
                    "-o", workdir.appendingPathComponent("context.jpg").path,
                ]
            ),
            ("djpeg", ["-scale", "1/8", "-outfile", "/dev/null", photo.path]),
        ] {
            guard let path = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + tool }).first(where: FileManager.default.isExecutableFile)
            else {
                print("(context: \(tool) is not installed)")
                continue
            }
            let time = Measure.best {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = arguments
                try? process.run()
                process.waitUntilExit()
            }
            print(String(format: "  context: %@ on one 12 MP photo, process start included: %.1f ms", tool, time))
        }
    }

    // MARK: - Derivatives

    /// Requests served from thumbnails already on disk: the latency of one
    /// synchronous request, and the throughput of asynchronous ones over
    /// 1,000 assets on every core.
    private func derivativeRequests() throws {
        let library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir), clientIdentifier: nil)
        let source = try fixtures(width: 1600, height: 1200, count: 1)[0]
        let blocks = quick ? 1 : 10
        for _ in 0..<blocks {
            try library.performChangesAndWait {
                for _ in 0..<100 { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: source) }
            }
        }
        let assets = library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).objects(at: IndexSet(integersIn: 0..<blocks * 100)) }
        let target = CGSize(width: 256, height: 256)
        let synchronous = PHImageRequestOptions()
        synchronous.isSynchronous = true
        // Each asset once, so that no request is served from the memory cache.
        var latencies: [Double] = []
        let manager = PHImageManager()
        for asset in assets.prefix(quick ? 50 : 300) {
            let start = DispatchTime.now().uptimeNanoseconds
            manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFill, options: synchronous) { _, _ in }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        latencies.sort()
        print(
            String(
                format: "requestImage 256-px from a thumbnail on disk: median %.2f ms, p90 %.2f ms (target under 2 ms)",
                latencies[latencies.count / 2], latencies[latencies.count * 9 / 10]))

        let throughput = Measure.best {
            let manager = PHImageManager()
            let done = DispatchGroup()
            for asset in assets {
                done.enter()
                let options = PHImageRequestOptions()
                options.deliveryMode = .highQualityFormat
                manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFill, options: options) { _, _ in done.leave() }
            }
            done.wait()
        }
        print(
            String(
                format: "  %d asynchronous requests from thumbnails on disk: %.0f per second on %d cores",
                assets.count, Double(assets.count) / throughput * 1000, ProcessInfo.processInfo.activeProcessorCount))
    }

    // MARK: - Import

    /// 200 photos created in one change block (metadata, hash, copy and
    /// thumbnail each), against ``ImportBaseline`` doing the same work on as
    /// many threads; each side's peak memory is measured in a child process,
    /// and both sides again on one core.
    private func importing(_ photos: [URL]) throws {
        var library: PHPhotoLibrary?
        var baseline: ImportBaseline?
        let (ours, plain) = try Measure.alternating(
            runs: 2,
            prepare: {
                library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir), clientIdentifier: nil)
                baseline = try Self.importBaseline(at: BenchLibrary.scratch(in: workdir))
            },
            ours: {
                try library!.performChangesAndWait {
                    for photo in photos { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
                }
            },
            baseline: {
                try baseline!.importPhotos(photos)
            })
        let label = quick ? "2 MP (quick)" : "24 MP"
        Measure.report(
            "import of \(photos.count) \(label) photos in one change block, against the same work done plainly",
            ours: ours, baseline: plain, target: 1.1)
        print(
            String(
                format: "  %.1f photos per second (the baseline: %.1f per second)",
                Double(photos.count) / ours * 1000, Double(photos.count) / plain * 1000))
        let (oursChild, baselineChild) = (try childImport(photos, baseline: false), try childImport(photos, baseline: true))
        print(
            String(
                format: "  peak memory above idle while importing them: ours %.0f MB, the baseline %.0f MB (target under 150 MB, each in a child process)",
                oursChild.megabytes, baselineChild.megabytes))

        // One thread's worth: each side in a child process that taskset
        // keeps on one core, taking turns in random order.
        let few = Array(photos.prefix(quick ? 10 : 50))
        var oneCore = (ours: Double.infinity, baseline: Double.infinity)
        for _ in 0..<2 {
            for baseline in [false, true].shuffled() {
                let elapsed = try childImport(few, baseline: baseline, core: 0).milliseconds
                if baseline { oneCore.baseline = min(oneCore.baseline, elapsed) } else { oneCore.ours = min(oneCore.ours, elapsed) }
            }
        }
        Measure.report(
            "import of \(few.count) \(label) photos in one change block on one core, against the same work done plainly",
            ours: oneCore.ours, baseline: oneCore.baseline, target: 1.1)
    }

    /// The ``MixedCorpus`` imported through `importFiles` (which pairs, reads
    /// metadata and sidecars, and makes each thumbnail) into a new library,
    /// against ``MixedImportBaseline`` doing the same work plainly.
    private func importingMixed() throws {
        let files = try MixedCorpus.files(in: workdir, quick: quick)
        var library: PHPhotoLibrary?
        var baseline: MixedImportBaseline?
        var (assets, baselineAssets) = (0, 0)
        let (ours, plain) = try Measure.alternating(
            runs: 2,
            prepare: {
                library = try PHPhotoLibrary(url: BenchLibrary.scratch(in: workdir), clientIdentifier: nil)
                baseline = MixedImportBaseline(storage: try Self.importBaseline(at: BenchLibrary.scratch(in: workdir)))
            },
            ours: {
                let result = try library!.importFiles(files)
                guard result.failed.isEmpty, result.notAttempted.isEmpty else {
                    throw BenchError("the mixed import failed: \(result.failed.map { "\($0.file.lastPathComponent): \($0.error)" })")
                }
                assets = Set(result.imported.map(\.localIdentifier)).count
            },
            baseline: {
                baselineAssets = try baseline!.importFiles(files)
            })
        guard assets == baselineAssets else {
            throw BenchError("the mixed import made \(assets) assets and its baseline \(baselineAssets)")
        }
        let label = quick ? "mixed real corpus (quick)" : "mixed real corpus"
        let kinds = Set(files.map { $0.pathExtension.lowercased() }).count
        Measure.report(
            "import of a \(label): \(files.count) photos and videos of \(kinds) kinds, through importFiles, "
                + "against the same work done plainly", ours: ours, baseline: plain, target: 1.1)
    }

    /// An ``ImportBaseline`` into a new library at `url`.
    static func importBaseline(at url: URL) throws -> ImportBaseline {
        _ = try SQLitePhotoStore(url: url)
        return try ImportBaseline(files: url.appendingPathComponent("baseline-files"), pool: BenchLibrary.durablePool(url))
    }

    /// Imports `photos` into a new library in a child process, through a
    /// change block or (`baseline`) through ``ImportBaseline``, on every
    /// core or on `core` alone; returns how long the import took there and
    /// its peak memory above the child's idle.
    private func childImport(_ photos: [URL], baseline: Bool, core: Int? = nil) throws -> (milliseconds: Double, megabytes: Double) {
        let list = workdir.appendingPathComponent("import-list.txt")
        try photos.map(\.path).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let process = Process()
        let arguments = ["import-child", "--library", BenchLibrary.scratch(in: workdir).path, "--list", list.path] + (baseline ? ["--baseline"] : [])
        if let core {
            // Pinned from exec on, so every thread either side starts inherits it.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["--cpu-list", String(core), CommandLine.arguments[0]] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard process.terminationStatus == 0, fields.count == 2 else {
            throw BenchError("the import child printed \(text)")
        }
        return (fields[0], fields[1])
    }

    /// Runs in a child process: imports the listed files, through a change
    /// block or (`baseline`) through ``ImportBaseline``, and prints how long
    /// that took in ms and the peak resident memory above what the process
    /// used before, in MB.
    static func importInChild(library url: URL, list: URL, baseline: Bool) throws {
        let photos = try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
        _ = bench_vips_init()
        let importing: () throws -> Void
        if baseline {
            let importer = try importBaseline(at: url)
            importing = { try importer.importPhotos(photos) }
        } else {
            let library = try PHPhotoLibrary(url: url, clientIdentifier: nil)
            importing = {
                try library.performChangesAndWait {
                    for photo in photos { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
                }
            }
        }
        let idle = Measure.currentResidentMegabytes
        let elapsed = try Measure.best(runs: 1, importing)
        print(String(format: "%.3f %.1f", elapsed, Measure.peakResidentMegabytes - idle))
    }

    // MARK: - Fixtures

    private func fixtures(width: Int, height: Int, count: Int, progressive: Bool = false) throws -> [URL] {
        try Self.fixtures(width: width, height: height, count: count, progressive: progressive, in: workdir)
    }

    /// `count` camera-like JPEGs of one size in `workdir`, baseline or
    /// progressive, made once and reused.
    static func fixtures(width: Int, height: Int, count: Int, progressive: Bool = false, in workdir: URL) throws -> [URL] {
        let folder = workdir.appendingPathComponent("photos-\(width)x\(height)\(progressive ? "-progressive" : "")", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let urls = (0..<count).map { folder.appendingPathComponent(String(format: "IMG_%04d.JPG", $0)) }
        let missing = urls.enumerated().filter { !FileManager.default.fileExists(atPath: $0.element.path) }
        if !missing.isEmpty {
            print("making \(missing.count) \(width)x\(height) photos in \(folder.path) (once; later runs reuse them)...")
            let failures = ConcurrentCounter()
            DispatchQueue.concurrentPerform(iterations: missing.count) { index in
                let (seed, url) = missing[index]
                if bench_write_photo(url.path + ".partial", Int32(width), Int32(height), Int32(seed), progressive ? 1 : 0) != 0
                    || rename(url.path + ".partial", url.path) != 0
                {
                    failures.increment()
                }
            }
            guard failures.value == 0 else { throw BenchError("could not make the sample photos in \(folder.path)") }
        }
        return urls
    }

    private func importAll(_ photos: [URL], into library: PHPhotoLibrary) throws -> [PHAsset] {
        var identifiers: [String] = []
        try library.performChangesAndWait {
            for photo in photos {
                identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let assets = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) }
        return assets.objects(at: IndexSet(integersIn: 0..<assets.count))
    }

    private func removeDerivatives(of library: PHPhotoLibrary) throws {
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("derivatives"))
    }
}

/// A counter that concurrent workers bump.
final class ConcurrentCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
