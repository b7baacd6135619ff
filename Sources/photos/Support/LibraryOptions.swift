import ArgumentParser
import Foundation
import Photos

/// The options every command that works on a library takes.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library to use.",
            discussion:
                "A directory, or a PostgreSQL library's URL (postgres://USER@HOST/DB?library=NAME; the password comes from $PHOTOS_POSTGRES_PASSWORD or $PHOTOS_POSTGRES_PASSWORD_FILE). Default: $PHOTOS_LIBRARY, else $XDG_DATA_HOME/photos/Photos Library.photoslibrary.",
            valueName: "location"))
    var library: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print nothing but errors (and what --json asks for).")
    var quiet = false

    func validate() throws {
        if let library, library.isEmpty { throw ValidationError("--library needs a path; leave it out to use the default library") }
    }

    /// The library's directory or URL.
    var url: URL {
        library.map(PHPhotoLibrary.libraryURL) ?? PHPhotoLibrary.defaultURL()
    }

    /// Opens the library; `creating` allows making a new one, which keeps
    /// its originals at `originals` when given.
    func open(creating: Bool = false, originals: URL? = nil) throws -> PHPhotoLibrary {
        if !creating && url.isFileURL && !FileManager.default.fileExists(atPath: url.appendingPathComponent("VERSION").path) {
            throw CLIError.user("no library at \(url.path) (create one with: photos init \(shellQuoted(url.path)))")
        }
        do {
            var options: PHPhotoLibrary.OpenOptions = creating ? [] : [.mustExist]
            if ProcessInfo.processInfo.environment["PHOTOS_ALLOW_UNSAFE_LOCATION"] == "1" {
                options.insert(.allowUnsafeLocation)
            }
            return try PHPhotoLibrary(url: url, originals: originals, options: options)
        } catch {
            throw CLIError.library(error)
        }
    }

    /// Fails when the library turned out unusable while it was read (damage
    /// met in its database, its files removed): what was printed may be
    /// incomplete. Read commands call it last.
    func requireAvailable(_ library: PHPhotoLibrary) throws {
        if let reason = library.unavailabilityReason { throw CLIError.library(reason) }
    }

    /// Prints a line of text unless `--quiet` or `--json`.
    func say(_ line: String) {
        if !quiet && !json { Output.line(line) }
    }
}

/// Quotes a path for a shell command line when it needs quoting.
func shellQuoted(_ text: String) -> String {
    text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
