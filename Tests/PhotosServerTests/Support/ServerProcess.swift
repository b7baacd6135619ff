import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import PhotosMedia

/// `photos serve` run as a process on a free loopback port, and the
/// `photos` command beside it, against one library.
final class ServerProcess: @unchecked Sendable {
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos")

    /// The library: a directory's path or a database library's URL.
    let location: String
    /// Variables set for every process, over the test's own.
    let variables: [String: String]
    /// More arguments of `photos serve` (`--query-deadline 0.5`).
    let arguments: [String]
    private(set) var process: Process?
    private(set) var port = 0

    /// A library directory.
    convenience init(library: URL) {
        self.init(location: library.path)
    }

    init(location: String, variables: [String: String] = [:], arguments: [String] = []) {
        self.location = location
        self.variables = variables
        self.arguments = arguments
    }

    /// The library directory.
    var library: URL { URL(fileURLWithPath: location) }

    /// A new library made by the `photos` command in a new folder of the
    /// temporary directory, with `photos` generated photos imported; its
    /// server (not started), the photos' local identifiers in the order
    /// `photos ls` lists them, and the folder to remove at the end.
    static func newLibrary(
        photos: Int, named name: String = "Test", arguments: [String] = []
    ) throws
        -> (server: ServerProcess, assets: [String], directory: URL)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name.lowercased())-\(UUID().uuidString)")
        let card = directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        for index in 0..<photos {
            try SampleImage.jpeg(width: 64, height: 48, from: (Double(index * 30 % 255), 40, 60), to: (220, 180, 90))
                .write(to: card.appendingPathComponent("IMG_\(index).jpg"))
        }
        let server = ServerProcess(location: directory.appendingPathComponent("\(name).photoslibrary").path, arguments: arguments)
        try server.photos("init", server.library.path)
        try server.photos("import", card.path)
        let listing = try server.photos("ls", "--json")
        let assets = ((try JSONSerialization.jsonObject(with: Data(listing.utf8))) as? [[String: Any]] ?? [])
            .compactMap { $0["localIdentifier"] as? String }
        guard assets.count == photos else { throw CocoaError(.fileReadCorruptFile) }
        return (server, assets, directory)
    }

    /// Runs `photos arguments...` to the end; returns its standard output.
    @discardableResult
    func photos(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "photos \(arguments.joined(separator: " ")) exited \(process.terminationStatus)"])
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the server and waits until it listens.
    func start() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--port", "0", "--json"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The first line says where it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.executableLoad) }
            line += chunk
        }
        let object = try JSONSerialization.jsonObject(with: line.prefix { $0 != UInt8(ascii: "\n") }) as? [String: String]
        guard let url = object?["listening"], let port = Int(url.split(separator: ":").last ?? "") else { throw CocoaError(.executableLoad) }
        self.port = port
    }

    /// Sends `signal` and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        guard let process else { return 0 }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// One request to a server with a bearer token; the status, headers and whole body.
    static func request(
        _ method: HTTPMethod, _ url: String, token: String, headers: [(String, String)] = [],
        body: Data? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> (status: Int, headers: [(String, String)], body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 24))
        return (Int(response.status.code), response.headers.map { ($0.name, $0.value) }, data)
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PHOTOS_LIBRARY"] = location
        environment.removeValue(forKey: "PHOTOS_CLIENT_ID")
        return environment.merging(variables) { $1 }
    }

    deinit {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
