import ArgumentParser
import Foundation

@main
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Manage an OpenPhotoKit photo library from the terminal.",
        discussion: """
            Commands work on the library given with --library, else the one named by
            $PHOTOS_LIBRARY, else $XDG_DATA_HOME/photos/Photos Library.photoslibrary
            (~/.local/share by default). Listing commands print JSON with --json.
            Exit codes: 0 success, 1 bad input or unknown identifier, 2 library error.

            Examples:
              photos init ~/Pictures/Main.photoslibrary
              photos import ~/DCIM --duplicates keep
              photos ls --where 'favorite == YES' --sort creationDate:desc --limit 20
              photos album create Summer && photos album add Summer 3F2A...
              photos changes --since "$(cat token.txt)"
              photos check                     verify the database and every file
              photos demo                      build a sample library and tour it
            """,
        subcommands: [
            InitCommand.self, InfoCommand.self, ImportCommand.self, ListCommand.self, ShowCommand.self,
            AlbumCommand.self, FolderCommand.self,
            FavoriteCommand.self, UnfavoriteCommand.self, HideCommand.self, UnhideCommand.self,
            RateCommand.self, CaptionCommand.self, KeywordCommand.self,
            DeleteCommand.self, RestoreCommand.self, TrashCommand.self,
            ChangesCommand.self, WatchCommand.self, ThumbCommand.self, ExportCommand.self,
            SearchCommand.self, SimilarCommand.self, PeopleCommand.self, IndexCommand.self, AccessCommand.self, TokenCommand.self, ServeCommand.self,
            UploadsCommand.self,
            UploadJobsCommand.self,
            BackupCommand.self, CheckCommand.self,
        ] + linkedBackendCommands + [DemoCommand.self])

    /// The commands only a backend a trait links can run.
    private static var linkedBackendCommands: [any ParsableCommand.Type] {
        #if PostgreSQL
        [MigrateCommand.self]
        #else
        []
        #endif
    }

    /// Parses and runs, with the exit codes the tool documents: a command's
    /// failure prints one line on standard error; usage errors exit 1.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitWithUsageError(error)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch let error as CLIError {
            fail(error)
        } catch let error as ValidationError {
            fail(.user(error.message))
        } catch  where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            exitWithUsageError(error)  // --help and the like, raised by the parser's own commands
        } catch {
            fail(.library(error))
        }
    }

    private static func fail(_ error: CLIError) -> Never {
        Output.errorLine("photos: \(error.description)")
        Foundation.exit(error.exitCode)
    }

    private static func exitWithUsageError(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            print(message)
            Foundation.exit(0)
        }
        for line in message.split(separator: "\n", omittingEmptySubsequences: false).dropLast(message.hasSuffix("\n") ? 1 : 0) {
            Output.errorLine(String(line))
        }
        Foundation.exit(1)
    }
}
