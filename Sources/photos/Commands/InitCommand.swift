import ArgumentParser
import Foundation
import Photos

/// `photos init [PATH]`: creates a library.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (or check that one is there).",
        discussion: """
            Creates the library at PATH, else at --library, $PHOTOS_LIBRARY or the default
            place. A directory that exists must be empty or already a library.

            With --originals, the new library keeps its originals and edits in S3-compatible
            object storage, and its directory keeps the database, thumbnails and a cache of
            the originals read. The credentials come from the environment, never from the
            command line: PHOTOS_S3_ACCESS_KEY_ID and PHOTOS_S3_SECRET_ACCESS_KEY (or AWS's
            variables), or PHOTOS_S3_CREDENTIALS_FILE naming a file with the key id and the
            secret on two lines. The library remembers where its originals are.

            A library in PostgreSQL (--library postgres://USER@HOST/DB?library=NAME, the
            password from PHOTOS_POSTGRES_PASSWORD or PHOTOS_POSTGRES_PASSWORD_FILE) is shared
            by every machine that reaches the database, so its files must be too: give
            --originals as object storage, or as file:///DIR, a directory every server mounts.

            Examples:
              photos init ~/Pictures/Main.photoslibrary
              PHOTOS_LIBRARY=/tmp/Test.photoslibrary photos init
              photos init /srv/Family.photoslibrary --originals 's3://photos/family?endpoint=http://nas:9000'
              photos init 'postgres://photos@db/photos?library=family' --originals file:///srv/photos/family
            """)

    @Argument(help: "Where to create the library.")
    var path: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the originals in S3-compatible object storage, or (for a PostgreSQL library) in a shared directory.",
            valueName: "s3://bucket/prefix?endpoint=URL&region=NAME | file:///DIR"))
    var originals: String?

    func validate() throws {
        if let originals, !originals.hasPrefix("s3://"), !originals.hasPrefix("file:///") {
            throw ValidationError("--originals takes an object storage location, s3://bucket/prefix?endpoint=URL, or a shared directory, file:///DIR")
        }
    }

    @OptionGroup var options: LibraryOptions

    func run() throws {
        var options = options
        if let path { options.library = path }
        if options.url.isFileURL, let originals, originals.hasPrefix("file:///") {
            throw CLIError.user("a library directory keeps its originals in itself or in object storage; --originals file:///… is for a PostgreSQL library")
        }
        let existed = options.url.isFileURL && FileManager.default.fileExists(atPath: options.url.appendingPathComponent("VERSION").path)
        let library = try options.open(creating: true, originals: originals.flatMap(URL.init(string:)))
        guard options.url.isFileURL else {
            // A database library is created or found in one step, which does not say which.
            if options.json {
                Output.json(["library": library.locationDescription])
            } else {
                options.say("The library at \(library.locationDescription) is ready")
            }
            return
        }
        if options.json {
            Output.json(["library": library.locationDescription, "created": !existed])
        } else {
            options.say(existed ? "A library is already at \(library.locationDescription)" : "Created a library at \(library.locationDescription)")
        }
    }
}
