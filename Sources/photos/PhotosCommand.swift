import ArgumentParser

@main
struct PhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Manage an OpenPhotoKit photo library from the terminal.",
        discussion: """
            Commands work on the library named by $PHOTOS_LIBRARY, else
            $XDG_DATA_HOME/photos/Photos Library.photoslibrary (~/.local/share by default).

            Examples:
              photos demo                      build a sample library and tour it
              photos demo --keep --assets 500  keep the sample library afterwards
            """,
        subcommands: [DemoCommand.self])
}
