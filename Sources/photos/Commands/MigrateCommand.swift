#if PostgreSQL
import ArgumentParser
import Foundation
import Photos

/// `photos migrate --to postgres://…`: copies a library directory into PostgreSQL.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy the library into PostgreSQL, so that several servers can share it.",
        discussion: """
            Copies the library (--library, $PHOTOS_LIBRARY or the default) into the PostgreSQL
            library --to names, which must be new or empty, then compares every row and file
            with its copy and checks the copy. The copy is the same library: identifiers,
            albums, folders, history and change tokens, client grants and access tokens carry
            over. The original is only read; keep it until you have switched over.

            A new PostgreSQL library needs --originals, where its files go: object storage
            (s3://bucket/prefix?endpoint=URL, credentials as for photos init) or file:///DIR,
            a directory every server mounts. The password comes from $PHOTOS_POSTGRES_PASSWORD
            or $PHOTOS_POSTGRES_PASSWORD_FILE, never from the command line. Stop writers to the
            library first: a change made during the copy can make it fail (run it again).
            Exit status 0 when the copy is verified; nothing is kept otherwise.

            Examples:
              photos migrate --to 'postgres://photos@db/photos?library=family' --originals file:///srv/photos/family
              photos migrate --to 'postgres://photos@db/photos?library=family' --originals 's3://photos/family?endpoint=http://nas:9000'
            """)

    @Option(name: .long, help: ArgumentHelp("The PostgreSQL library to copy into.", valueName: "postgres://USER@HOST/DB?library=NAME"))
    var to: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where a new PostgreSQL library keeps its files.",
            valueName: "s3://bucket/prefix?endpoint=URL | file:///DIR"))
    var originals: String?

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        guard PHPhotoLibrary.libraryURL(to).scheme?.lowercased().hasPrefix("postgres") == true else {
            throw ValidationError("--to takes a PostgreSQL library's URL, postgres://USER@HOST/DB?library=NAME")
        }
        if let originals, !originals.hasPrefix("s3://"), !originals.hasPrefix("file:///") {
            throw ValidationError("--originals takes an object storage location, s3://bucket/prefix?endpoint=URL, or a shared directory, file:///DIR")
        }
    }

    func run() throws {
        guard options.url.isFileURL else {
            throw CLIError.user("migrate copies a library directory; \(options.url.absoluteString) is not one")
        }
        let library = try options.open()
        var bar: (phase: PHPhotoLibrary.MigrationPhase, progress: ProgressBar)?
        let report: PHPhotoLibrary.MigrationReport
        do {
            report = try library.migrate(to: PHPhotoLibrary.libraryURL(to), originals: originals.flatMap(URL.init(string:))) { phase, done, total in
                if bar?.phase != phase {
                    bar = (phase, ProgressBar(total: total, label: Self.label(phase), enabled: !options.quiet && !options.json))
                }
                bar?.progress.update(done)
            }
        } catch {
            throw CLIError.library(error)
        }
        if options.json {
            Output.json(
                [
                    "library": report.destination, "assets": report.assetCount, "rows": report.rowCount,
                    "files": report.fileCount, "bytes": report.byteCount, "verified": true,
                ] as [String: Any])
        } else {
            options.say(
                """
                Copied \(report.assetCount) assets (\(report.rowCount) rows, \(report.fileCount) files, \
                \(ByteCountFormatter.string(fromByteCount: report.byteCount, countStyle: .file))) into \(report.destination), and verified the copy
                """)
        }
    }

    /// What a phase's progress counts.
    private static func label(_ phase: PHPhotoLibrary.MigrationPhase) -> String {
        switch phase {
        case .files: "files copied"
        case .rows: "tables copied"
        case .verification: "tables and files verified"
        }
    }
}
#endif
