import Foundation

/// The command-line tools from Debian packages that tests make real media
/// with (`vips`, `ffmpeg`, `exiftool`, `heif-enc`), which `script/bootstrap`
/// installs.
package enum DebianTool {
    /// A tool that exited with an error.
    package struct Failure: Error, CustomStringConvertible {
        package let tool: String
        package let arguments: [String]
        package let status: Int32
        package let errors: String

        package var description: String { "\(tool) \(arguments.joined(separator: " ")) exited \(status): \(errors)" }
    }

    /// Runs `/usr/bin/<tool>` with `arguments`; returns what it printed.
    /// Throws ``Failure`` when it exits other than 0.
    @discardableResult
    package static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Errors read meanwhile, so that a tool saying much never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            errorsRead.signal()
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        errorsRead.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                tool: tool, arguments: arguments, status: process.terminationStatus,
                errors: String(decoding: errorData, as: UTF8.self))
        }
        return printed
    }
}
