import ArgumentParser
import Foundation
import Logging
import Photos
import PhotosIndexing
import PhotosServer

/// `photos serve`: the library over HTTP until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library over HTTP: JSON under /v1, images, change streams.",
        discussion: """
            Every request needs a bearer token (photos token create). Stop with Ctrl-C or
            SIGTERM: requests in flight finish first.

            Example:
              photos serve --port 8080 &
              curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/library
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
    @Option(help: "Failed sign-ins an address may make per minute before it must wait.") var signInAttempts = 10
    @Option(help: ArgumentHelp("The longest one database statement of a request may run, in seconds.", valueName: "seconds"))
    var queryDeadline = 10.0
    @Option(help: ArgumentHelp("The most bytes one token's unfinished uploads may declare, in GiB.", valueName: "GiB"))
    var uploadQuota = 32
    @Flag(help: "Do not keep the search index up to date while serving (`photos index run` does it on demand).")
    var noIndex = false
    @Option(help: "The languages text in photos is read in, Tesseract's names joined by + (eng+deu); each needs its package (tesseract-ocr-deu).")
    var textLanguages = "eng"
    @Option(
        help: ArgumentHelp(
            "A tile server for the gallery's map, as https://tile.example.org/{z}/{x}/{y}.png; none by default, so the gallery loads nothing from elsewhere.",
            valueName: "template"))
    var mapTiles: String?
    @Option(help: ArgumentHelp("The credit --map-tiles' server asks to show on the map.", valueName: "text"))
    var mapAttribution: String?
    @OptionGroup var options: LibraryOptions

    /// `--map-tiles` and `--map-attribution`, checked.
    private func tiles() throws -> MapTiles? {
        guard let mapTiles else {
            if mapAttribution != nil { throw ValidationError("--map-attribution credits --map-tiles' server: give that too") }
            return nil
        }
        do {
            return try MapTiles(template: mapTiles, attribution: mapAttribution)
        } catch {
            throw ValidationError("--map-tiles: \(error)")
        }
    }

    /// `--text-languages`, split at `+`.
    private var languages: [String] { textLanguages.split(separator: "+", omittingEmptySubsequences: false).map(String.init) }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard signInAttempts > 0 else { throw ValidationError("--sign-in-attempts must be at least 1") }
        guard queryDeadline.isFinite, (0.001...3_600).contains(queryDeadline) else {
            throw ValidationError("--query-deadline must be from 0.001 to 3600 seconds")
        }
        guard (1...1 << 20).contains(uploadQuota) else { throw ValidationError("--upload-quota must be from 1 to 1048576 GiB") }
        if let problem = LibraryIndexer.problem(withTextLanguages: languages) { throw ValidationError("--text-languages: \(problem)") }
        _ = try tiles()
    }

    func run() async throws {
        let library = try options.open()
        try options.requireAvailable(library)
        var logger = Logger(label: "photos.serve")
        logger.logLevel = options.quiet ? .warning : .info
        var configuration = PhotoServer.Configuration(
            host: host, port: port, signInFailuresPerMinute: signInAttempts,
            queryDeadline: .milliseconds(Int64((queryDeadline * 1000).rounded())),
            uploadQuota: uploadQuota << 30)
        configuration.indexesInBackground = !noIndex
        configuration.textLanguages = languages
        configuration.mapTiles = try tiles()
        let server = try PhotoServer(library: library, configuration: configuration, logger: logger)
        let (json, quiet, path) = (options.json, options.quiet, library.locationDescription)
        try await server.run { port in
            if json {
                Output.jsonLine(["listening": "http://\(host):\(port)", "library": path])
            } else if !quiet {
                Output.line("Serving \(path) on http://\(host):\(port)")
            }
            // Whoever started the server waits for this line, through a pipe or a file.
            fflush(nil)
        }
    }
}
