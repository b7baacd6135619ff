import Foundation
import Photos
import PhotosIndexing
import PhotosMedia

/// What the benchmarks of an indexer kind that reads pixels share: a
/// library's files, the size each is read at, and a whole pass of the kind
/// against its model called directly, alternating.
enum IndexerPass {
    /// `count` files: `sources` in turn, copied under new names into `scratch`.
    static func copies(of sources: [URL], count: Int, in scratch: URL) throws -> [URL] {
        try (0..<count).map { index in
            let source = sources[index % sources.count]
            let copy = scratch.appendingPathComponent("photo-\(index).\(source.pathExtension)")
            try FileManager.default.copyItem(at: source, to: copy)
            return copy
        }
    }

    /// Each file with the size an analyzer reads it at: fitted in
    /// `longestSide`, never enlarged (found before any clock starts).
    static func sizes(of files: [URL], longestSide: Int) throws -> [(url: URL, width: Int, height: Int)] {
        try files.map { file in
            let pixels = try ImageCodec.decode(fileAt: file)
            let scale = min(1, Double(longestSide) / Double(max(pixels.width, pixels.height)))
            return (file, Int((Double(pixels.width) * scale).rounded()), Int((Double(pixels.height) * scale).rounded()))
        }
    }

    /// A whole pass of `kind` over a fresh copy of a library of `files`
    /// (indexed by `before` first, so that `kind` alone is timed), against
    /// `baseline`, alternating for `runs` runs; reported as `name` with
    /// each side's rate. Throws when the pass did not read every file.
    static func measure(
        _ name: String, files: [URL], kind: IndexKind, before: [IndexKind] = [], runs: Int, in scratch: URL, baseline: @escaping () throws -> Void
    ) throws {
        let library = scratch.appendingPathComponent("\(kind.rawValue).photoslibrary")
        let photos = try PHPhotoLibrary(url: library, clientIdentifier: nil)
        try photos.performChangesAndWait {
            for file in files { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file) }
        }
        if !before.isEmpty { try LibraryIndexer(library: photos, kinds: before).catchUp() }
        var copy = library
        var indexed = 0
        let (ours, theirs) = try Measure.alternating(
            runs: runs,
            beforeEachSide: { copy = try BenchLibrary.workingCopy(of: library, in: scratch) },
            ours: { indexed = try LibraryIndexer(library: try PHPhotoLibrary(url: copy, clientIdentifier: nil), kinds: [kind]).catchUp().indexed },
            baseline: baseline)
        guard indexed == files.count else { throw BenchError("the \(kind.rawValue) indexer read \(indexed) photos of \(files.count)") }
        let rate = { (milliseconds: Double) in String(format: "%.1f", Double(files.count) / (milliseconds / 1000)) }
        _ = Measure.report(
            "\(name), whole pass, \(files.count) photos, one core (ours \(rate(ours)) photos/s, baseline \(rate(theirs)) photos/s)",
            ours: ours, baseline: theirs, target: 1.2)
    }
}
