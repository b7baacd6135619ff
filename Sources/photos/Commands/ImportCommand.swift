import ArgumentParser
import Foundation
import Photos

/// `photos import PATH...`: files and folders, in atomic batches.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos and videos from files and folders (recursively).",
        discussion: """
            Every file is accounted for: imported, left out as a duplicate of what the
            library holds, or refused with the reason. Files go in in change blocks of
            --batch files, each stored whole or not at all; Ctrl-C stops after the block
            in progress, keeping what was committed. A photo and a video with the same
            content identifier become one Live Photo.

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
        let files = try Self.files(in: paths)
        let library = try options.open()
        let interruption = Interruption()
        let progress = ProgressBar(total: files.count, label: "files", enabled: !options.quiet)
        var result = PHPhotoLibrary.ImportResult()
        var done = 0
        progress.update(0)
        let importOptions = PHPhotoLibrary.ImportOptions(duplicates: duplicates == .skip ? .skip : .keep, batchSize: batch)
        for start in stride(from: 0, to: files.count, by: batch) where !interruption.requested {
            let part = Array(files[start..<min(start + batch, files.count)])
            let partResult = try library.importFiles(part, options: importOptions)
            result.imported += partResult.imported
            result.duplicates += partResult.duplicates
            result.failed += partResult.failed
            done += part.count
            progress.update(done)
        }
        let interrupted = interruption.requested && done < files.count
        if options.json {
            Output.json([
                "imported": result.imported.map { ["file": $0.file.path, "localIdentifier": $0.localIdentifier] },
                "duplicates": result.duplicates.map { ["file": $0.file.path, "localIdentifier": $0.localIdentifier] },
                "failed": result.failed.map { ["file": $0.file.path, "error": $0.error.localizedDescription, "code": $0.error.code.rawValue] },
                "interrupted": interrupted,
                "notAttempted": files.count - done,
            ] as [String: Any])
        } else {
            for failure in result.failed {
                var reason = failure.error.localizedDescription
                if reason.hasPrefix(failure.file.path + ": ") { reason.removeFirst(failure.file.path.count + 2) }
                Output.errorLine("skipped \(failure.file.path): \(reason)")
            }
            options.say("Imported \(result.imported.count) files; \(result.duplicates.count) duplicates "
                        + "\(duplicates == .skip ? "skipped" : "kept"); \(result.failed.count) could not be read"
                        + (interrupted ? "; interrupted, \(files.count - done) files not attempted" : ""))
        }
        if interrupted { throw ExitCode(130) }
    }

    /// The files named, folders expanded recursively (hidden files left
    /// out), in order; a missing path is the user's error.
    static func files(in paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError.user("no such file or folder: \(path)")
            }
            let url = URL(fileURLWithPath: path)
            guard isDirectory.boolValue else {
                files.append(url)
                continue
            }
            let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey],
                                                            options: [.skipsHiddenFiles])
            var found: [URL] = []
            while let file = enumerator?.nextObject() as? URL {
                if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(file) }
            }
            files += found.sorted { $0.path < $1.path }
        }
        return files
    }
}

/// Ctrl-C during a long command: noted, so that the command stops between
/// two change blocks instead of being killed inside one.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private let source: DispatchSourceSignal

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
