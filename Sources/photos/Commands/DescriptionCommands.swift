import ArgumentParser
import Foundation
import Photos

/// `photos rate 4 ID…`: how many stars assets have.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate", abstract: "Give assets a rating of 1 to 5 stars, or 0 for none.",
        discussion: """
            Examples:
              photos rate 5 ID1 ID2
              photos rate 0 ID1                  clear the rating
              photos ls --where 'rating >= 4'    the best
            """)

    @Argument(help: "Stars, 1 to 5; 0 clears the rating.")
    var stars: Int

    @OptionGroup var assets: AssetArguments

    func validate() throws {
        guard PHAsset.Rating(rawValue: stars) != nil else { throw ValidationError("a rating is 0 (none) to 5 stars, not \(stars)") }
    }

    func run() throws {
        let rating = PHAsset.Rating(rawValue: stars)!
        try assets.change(rating == .unset ? "Cleared the rating of" : "Rated") {
            $0.forEach { PHAssetChangeRequest(for: $0).rating = rating }
        }
    }
}

/// `photos caption "text" ID…`: what assets show.
struct CaptionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caption", abstract: "Give assets a caption, or clear it with an empty one.",
        discussion: """
            Examples:
              photos caption "Sunrise over the ridge" ID1
              photos caption "" ID1                        clear it
              photos ls --where "caption CONTAINS[c] 'sunrise'"
            """)

    @Argument(help: "The caption; an empty one clears it.")
    var text: String

    @OptionGroup var assets: AssetArguments

    func run() throws {
        try assets.change(text.isEmpty ? "Cleared the caption of" : "Captioned") {
            $0.forEach { PHAssetChangeRequest(for: $0).caption = text }
        }
    }
}

/// `photos keyword add|rm WORD ID…`: assets' keywords.
struct KeywordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyword", abstract: "Add keywords to assets or take them away.",
        discussion: """
            Examples:
              photos keyword add beach ID1 ID2
              photos keyword rm beach ID1
              photos ls --where "ANY keywords == 'beach'"
            """,
        subcommands: [Add.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Give assets a keyword (one they have already is left as it is).")
        @Argument(help: "The keyword.") var keyword: String
        @OptionGroup var assets: AssetArguments
        func run() throws {
            try assets.change("Tagged \"\(keyword)\" on") { $0.forEach { PHAssetChangeRequest(for: $0).addKeyword(keyword) } }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Take a keyword away from assets (those without it are left as they are).")
        @Argument(help: "The keyword.") var keyword: String
        @OptionGroup var assets: AssetArguments
        func run() throws {
            try assets.change("Removed \"\(keyword)\" from") { $0.forEach { PHAssetChangeRequest(for: $0).removeKeyword(keyword) } }
        }
    }
}
