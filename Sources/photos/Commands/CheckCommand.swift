import ArgumentParser
import Foundation
import Photos

/// `photos check`: verifies the database and every file against it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the library: every page of its database, and every file against it.",
        discussion: """
            Reports a damaged database, files missing or of the wrong size, and files no
            asset names; with --content, also originals whose bytes changed since import.
            Changes nothing, except that a library found whole accepts change blocks again
            after damage was reported. Exit status 0 when the library is whole, 2 otherwise.

            Examples:
              photos check
              photos check --content --json
            """)

    @Flag(help: "Also read every original and compare it with the content hash recorded at import.")
    var content = false

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open()
        let report: PHPhotoLibrary.IntegrityReport
        do {
            report = try library.checkIntegrity(verifyingContent: content)
        } catch {
            throw CLIError.library(error)
        }
        if options.json {
            Output.json(
                [
                    "whole": report.isWhole, "assets": report.assetCount, "files": report.fileCount,
                    "problems": report.problems.map { problem -> [String: Any] in
                        var json: [String: Any] = ["kind": Self.name(problem.kind), "description": problem.description]
                        json["localIdentifier"] = problem.localIdentifier
                        json["file"] = problem.fileURL?.path
                        return json
                    },
                ] as [String: Any])
        } else {
            for problem in report.problems {
                Output.line(
                    "\(Self.name(problem.kind)): \(problem.description)"
                        + (problem.localIdentifier.map { " (asset \($0))" } ?? ""))
            }
            options.say(
                report.isWhole
                    ? "The library is whole: \(report.assetCount) assets, \(report.fileCount) files checked"
                    : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") in \(report.assetCount) assets and \(report.fileCount) files")
        }
        if !report.isWhole { throw ExitCode(2) }
    }

    /// The kind of a problem, as the output names it.
    static func name(_ kind: PHPhotoLibrary.IntegrityProblem.Kind) -> String {
        switch kind {
        case .damagedDatabase: "damaged-database"
        case .missingFile: "missing-file"
        case .fileSizeMismatch: "file-size-mismatch"
        case .contentMismatch: "content-mismatch"
        case .orphanFile: "orphan-file"
        case .orphanDerivative: "orphan-derivative"
        case .unsafePath: "unsafe-path"
        }
    }
}
