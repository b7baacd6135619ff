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

            Examples:
              photos init ~/Pictures/Main.photoslibrary
              PHOTOS_LIBRARY=/tmp/Test.photoslibrary photos init
            """)

    @Argument(help: "Where to create the library.")
    var path: String?

    @OptionGroup var options: LibraryOptions

    func run() throws {
        var options = options
        if let path { options.library = path }
        let existed = FileManager.default.fileExists(atPath: options.url.appendingPathComponent("VERSION").path)
        let library = try options.open(creating: true)
        if options.json {
            Output.json(["library": library.url.path, "created": !existed])
        } else {
            options.say(existed ? "A library is already at \(library.url.path)" : "Created a library at \(library.url.path)")
        }
    }
}
