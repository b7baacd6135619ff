import Foundation
import PhotosMedia
import PhotosTestSupport

/// The built `photos` binary, run as a process against a temporary library.
struct CommandLineTool {
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos")

    /// What a run printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String

        /// Standard output parsed as JSON.
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed]) }
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// The tool's directory, removed with the tool.
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }
    let library: URL

    init() throws {
        scratch = try ScratchDirectory("photos-cli")
        library = scratch.url.appendingPathComponent("Test.photoslibrary")
    }

    /// Starts `photos arguments...` with PHOTOS_LIBRARY set to the test
    /// library; under `launcher` (a command and its arguments, such as
    /// strace or setpriv) when given.
    func start(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(launcher.dropFirst()) + [Self.executable.path] + arguments
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["PHOTOS_LIBRARY"] = library.path
        env.removeValue(forKey: "PHOTOS_CLIENT_ID")
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, errors)
    }

    /// Runs `photos arguments...` to the end.
    @discardableResult
    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Run {
        try run(arguments, environment: environment)
    }

    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws -> Run {
        let (process, output, errors) = try start(arguments, environment: environment, launcher: launcher)
        // Read both pipes while the process runs, so that neither fills up.
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            errorsRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// A JPEG with a capture date and place, in `folder` under the test directory.
    @discardableResult
    func photo(
        _ name: String, in folder: String = "card", width: Int = 64, height: Int = 48, taken: Date? = nil, shade: Double = 0,
        latitude: Double? = nil, longitude: Double? = nil
    ) throws -> URL {
        var exif = ExifFields()
        exif.latitude = latitude
        exif.longitude = longitude
        if let taken {
            let (dateTime, offset) = ExifFields.exifDateTime(taken, utcOffset: 0)
            exif.dateTimeOriginal = dateTime
            exif.offsetTimeOriginal = offset
        }
        let data = try SampleImage.jpeg(width: width, height: height, from: (shade, 40, 60), to: (220, 180 - shade, 90), exif: exif)
        let url = directory.appendingPathComponent(folder).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }
}
