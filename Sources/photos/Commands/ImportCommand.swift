import ArgumentParser
import Foundation
import Photos
import PhotosMedia

/// `photos import PATH...`: files and folders, in atomic batches.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos and videos from files and folders (recursively).",
        discussion: """
            Every path named or found is accounted for: imported, left out as a duplicate
            of what the library holds, refused with the reason, or left out as no file to
            import (a hidden file, a pipe or device, a link to nothing), said so. Sidecars
            are read and left beside their photos: Google Takeout's JSON gives the time
            and place where the person changed them or the file has none, favorites, and
            archived photos as hidden; XMP sidecars (darktable's IMG_1.JPG.xmp, Lightroom's
            IMG_1.xmp) the time and place where the file has none; Apple's Photos' .AAE
            (IMG_1.AAE, IMG_O1.AAE) a Live Photo's effect (Loop, Bounce, Long Exposure);
            a Takeout album folder
            becomes an album (found by title if the library has it), copies elsewhere
            included. Zip archives (Google Takeout's) are extracted beside the library,
            all into one folder so that albums split across archives come together, and
            removed after. Other sidecars (.thm, .AAE without an effect) are counted and left;
            NAS thumbnail folders (@eaDir), recycle bins, system files (Thumbs.db,
            desktop.ini) and documents (PDF, SVG...) are left out, each said so. Symbolic
            links are followed, to files and to folders. Files go in in change blocks of
            --batch files, each stored whole or not at all; Ctrl-C stops after the block
            in progress, keeping what was committed. A photo and a video with the same
            content identifier become one Live Photo, wherever they fall in the batches;
            a Google Motion Photo becomes a Live Photo of its still and its video; a
            camera's RAW and the JPEG beside it with the same name become one photo, the
            RAW kept as its alternate. Dates come from the file's EXIF, XMP or IPTC, else
            from its name as phones write it (IMG_20200608_003000.jpg).

            Examples:
              photos import ~/DCIM
              photos import IMG_0001.JPG IMG_0002.HEIC --duplicates keep
              photos import /media/card --json > report.json
            """)

    enum Duplicates: String, ExpressibleByArgument, CaseIterable {
        case skip, keep
    }

    @Argument(help: "Files and folders to import.")
    var paths: [String]

    @Option(help: "What to do with a file whose content the library already holds: skip or keep.")
    var duplicates: Duplicates = .skip

    @Option(help: "Files per change block.")
    var batch = 50

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
        guard !paths.isEmpty else { throw ValidationError("give at least one file or folder to import") }
    }

    func run() throws {
        let library = try options.open()
        let archives = ZipArchives(
            besideLibraryAt: library.url.isFileURL ? library.url : FileManager.default.temporaryDirectory.appendingPathComponent("library"))
        defer { archives.remove() }
        var roots: [(path: String, shown: String)] = []
        var archiveNames: [String] = []
        for path in paths {
            if MediaProbe.isRegularFile(URL(fileURLWithPath: path)), ZipArchives.isArchive(path) {
                try archives.extract(path)
                archiveNames.append(URL(fileURLWithPath: path).lastPathComponent)
            } else {
                roots.append((path, path))
            }
        }
        if !archiveNames.isEmpty {
            let names = archiveNames.count == 1 ? archiveNames[0] : "\(archiveNames[0]) and \(archiveNames.count - 1) more"
            roots.append((archives.folder.path, "[\(names)]"))
        }
        let walk = FolderWalk()
        defer { walk.removeLinks() }
        let found = try walk.files(in: roots)
        let files = found.files
        let interruption = Interruption()
        let progress = ImportProgress(total: files.count, enabled: !options.quiet)
        // One import of every file: Live Photos are paired before the files
        // are cut into change blocks, so that no pair is split between two.
        let importOptions = PHPhotoLibrary.ImportOptions(duplicates: duplicates == .skip ? .skip : .keep, batchSize: batch) { read, accountedFor in
            progress.update(read: read, accountedFor: accountedFor)
            return !interruption.requested
        }
        let result = try library.importFiles(files, options: importOptions)
        let done = files.count - result.notAttempted.count
        progress.update(read: files.count, accountedFor: done)
        let interrupted = !result.notAttempted.isEmpty
        if options.json {
            Output.json(
                [
                    "imported": result.imported.map { ["file": found.shown($0.file), "localIdentifier": $0.localIdentifier] },
                    "duplicates": result.duplicates.map { ["file": found.shown($0.file), "localIdentifier": $0.localIdentifier] },
                    "failed": result.failed.map {
                        [
                            "file": found.shown($0.file), "error": found.shown($0.error.localizedDescription, about: $0.file),
                            "code": $0.error.code.rawValue,
                        ]
                    },
                    "skipped": found.skipped.map { ["file": $0.path.path, "reason": $0.reason, "kind": $0.kind.rawValue] },
                    "sidecarsRead": result.sidecarsRead.map(\.path),
                    "albums": result.albums,
                    "interrupted": interrupted,
                    "notAttempted": files.count - done,
                ] as [String: Any])
        } else {
            for failure in result.failed {
                let path = found.shown(failure.file)
                var reason = found.shown(failure.error.localizedDescription, about: failure.file)
                if reason.hasPrefix(path + ": ") { reason.removeFirst(path.count + 2) }
                Output.errorLine("skipped \(path): \(reason)")
            }
            for skipped in found.skipped where skipped.kind == .unusable || skipped.kind == .notMedia {
                Output.errorLine("skipped \(skipped.path.path): \(skipped.reason)")
            }
            func count(_ kind: Skipped.Kind) -> Int { found.skipped.count { $0.kind == kind } }
            let (unusable, notMedia, hidden) = (count(.unusable), count(.notMedia), count(.hidden))
            let sidecars = count(.sidecar) - result.sidecarsRead.count
            options.say(
                "Imported \(result.imported.count) files; \(result.duplicates.count) duplicates "
                    + "\(duplicates == .skip ? "skipped" : "kept"); \(result.failed.count) could not be read"
                    + (unusable > 0 ? "; \(unusable) not regular files" : "")
                    + (notMedia > 0 ? "; \(notMedia) not photos or videos left out" : "")
                    + (result.sidecarsRead.isEmpty ? "" : "; \(result.sidecarsRead.count) sidecars read")
                    + (result.albums.isEmpty ? "" : "; \(result.albums.count) albums filled")
                    + (sidecars > 0 ? "; \(sidecars) other sidecar files left beside their photos" : "")
                    + (hidden > 0 ? "; \(hidden) hidden files and folders left out" : "")
                    + (interrupted ? "; interrupted, \(files.count - done) files not attempted" : ""))
        }
        if interrupted { throw ExitCode(130) }
    }

    /// A path found that is not imported, and why.
    struct Skipped {
        /// What kind of thing was left out: each is counted apart, and only
        /// `unusable` entries are listed one by one.
        enum Kind: String {
            /// A hidden file or folder, left out as a rule.
            case hidden
            /// A sidecar (`.xmp`, `.aae`, `.json`, `.thm`), describing the photo or video beside it.
            case sidecar
            /// Not a photo or video: a NAS's thumbnail folder, a system file, a document.
            case notMedia
            /// A pipe, device, socket, link to nothing or unreadable folder.
            case unusable
        }

        var path: URL
        var reason: String
        var kind: Kind = .unusable
    }

    /// What the paths given name: the files to import, in order, and what
    /// is left out, with why.
    struct Found {
        var files: [URL] = []
        var skipped: [Skipped] = []
        /// How the person names the files reached through a link (``FolderWalk``).
        var shownPaths: [URL: String] = [:]

        /// The path of a file as the person names it.
        func shown(_ file: URL) -> String {
            shownPaths[file] ?? file.path
        }

        /// A message about `file`, naming it as the person does.
        func shown(_ message: String, about file: URL) -> String {
            shownPaths[file].map { message.replacingOccurrences(of: file.path, with: $0) } ?? message
        }
    }
}

/// Ctrl-C during a long command: noted, so that the command stops between
/// two change blocks instead of being killed inside one.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private let source: any DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            self?.lock.withLock { self?.flag = true }
            FileHandle.standardError.write(Data("\n".utf8))
            Output.errorLine("photos: stopping after the change block in progress...")
        }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    var requested: Bool { lock.withLock { flag } }
}

/// An import's progress on standard error: the files read, then the files
/// imported (or left out as duplicates or failures). Told from the
/// import's threads at once, so drawn under a lock.
private final class ImportProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let reading: ProgressBar
    private let importing: ProgressBar
    private var readingDrawn = false

    init(total: Int, enabled: Bool) {
        reading = ProgressBar(total: total, label: "files read", enabled: enabled)
        importing = ProgressBar(total: total, label: "files", enabled: enabled)
        reading.update(0)
    }

    func update(read: Int, accountedFor: Int) {
        lock.withLock {
            guard read >= reading.total else { return reading.update(read) }
            if !readingDrawn {
                readingDrawn = true
                reading.update(read)
            }
            importing.update(accountedFor)
        }
    }
}
