import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The processes the server benchmarks start: the server, nginx, wrk,
/// committers, and raw event-stream readers.

/// A `photos-bench` child process (this executable), its output collected.
struct ChildProcess {
    let process: Process
    /// What it prints, for the caller to read.
    let output: Pipe
    /// Its standard input, when the caller asked to write to it.
    let input: Pipe?

    static func start(_ arguments: [String], input: Bool = false) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let inputPipe = input ? Pipe() : nil
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        return ChildProcess(process: process, output: output, input: inputPipe)
    }

    /// Waits for the end; returns what it printed.
    func finish() throws -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("a child process failed with \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}

extension FileHandle {
    /// The next line read from the pipe, without its newline; nil at its end.
    /// Reads a byte at a time, so nothing after the line is taken from it.
    func readLine() -> String? {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if first == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }
}

/// A server's `/v1/changes` event stream, opened as an owner: the moment
/// (uptime, in nanoseconds) each change event arrives, in order.
final class ChangeEventArrivals {
    private var arrivals: AsyncStream<UInt64>.Iterator
    private let listening: Task<Void, any Error>

    /// Opens the stream; returns once the server has answered.
    init(port: Int, token: String) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let (events, heard) = AsyncStream.makeStream(of: UInt64.self)
        arrivals = events.makeAsyncIterator()
        listening = Task {
            defer { heard.finish() }
            var pending = ""
            for try await chunk in response.body {
                let now = DispatchTime.now().uptimeNanoseconds
                pending += String(buffer: chunk)
                while let range = pending.range(of: "\n\n") {
                    if pending[..<range.lowerBound].contains("event: change") { heard.yield(now) }
                    pending.removeSubrange(..<range.upperBound)
                }
            }
        }
    }

    deinit {
        listening.cancel()
    }

    /// When the next change event arrived; fails when the stream ends first.
    func next() async throws -> UInt64 {
        guard let arrival = await arrivals.next() else { throw BenchError("the event stream ended") }
        return arrival
    }
}

/// The server in a `serve-child` process on a free port.
final class ServerChild {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(library: URL) throws -> ServerChild {
        let child = try ChildProcess.start(["serve-child", "--library", BenchLibrary.argument(library)])
        let (process, output) = (child.process, child.output)
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("the server did not start") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = text.split(separator: "\n").first?.split(separator: " ").last.flatMap({ Int($0) }) else {
            throw BenchError("the server said \(text)")
        }
        return ServerChild(process: process, port: port)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// VmRSS of the server now, in megabytes.
    var residentMegabytes: Double { Self.status(process.processIdentifier, "VmRSS:") }
    /// VmHWM of the server: its peak since it started.
    var peakMegabytes: Double { Self.status(process.processIdentifier, "VmHWM:") }

    static func status(_ pid: Int32, _ field: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return .nan }
        return kilobytes / 1024
    }
}

/// nginx serving a folder of files on a free port: the static baseline.
final class Nginx {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(root: URL, in directory: URL) throws -> Nginx {
        let port = try freePort()
        let configuration = directory.appendingPathComponent("nginx.conf")
        // Run as root, nginx's workers would become nobody, who may not read a
        // private work directory: they stay this user, as our server does.
        let user = geteuid() == 0 ? "user root;" : ""
        try """
        \(user)
        daemon off;
        worker_processes auto;
        pid \(directory.path)/nginx.pid;
        error_log \(directory.path)/error.log error;
        events { worker_connections 1024; }
        http {
            access_log off;
            sendfile on;
            tcp_nopush on;
            open_file_cache max=10000;
            client_body_temp_path \(directory.path)/body;
            proxy_temp_path \(directory.path)/proxy;
            fastcgi_temp_path \(directory.path)/fastcgi;
            uwsgi_temp_path \(directory.path)/uwsgi;
            scgi_temp_path \(directory.path)/scgi;
            types { image/jpeg jpg; }
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                add_header Cache-Control "private, max-age=31536000, immutable";
                etag on;
            }
        }
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", configuration.path, "-p", directory.path]
        try process.run()
        for _ in 0..<100 where !canConnect(port) { Thread.sleep(forTimeInterval: 0.05) }
        guard canConnect(port) else { throw BenchError("nginx did not start") }
        return Nginx(process: process, port: port)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// wrk at 64 connections on 2 threads, requests cycling through `paths`.
enum Wrk {
    struct Result {
        var requestsPerSecond: Double
        var p99Milliseconds: Double
    }

    static func run(port: Int, paths: [String], token: String?, seconds: Int) throws -> Result {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("wrk-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",")
        try """
        local paths = {\(list)}
        local index = 0
        \(token.map { "wrk.headers[\"Authorization\"] = \"Bearer \($0)\"" } ?? "")
        request = function()
            index = index % #paths + 1
            return wrk.format("GET", paths[index])
        end
        """.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = ["-t2", "-c64", "-d\(seconds)s", "--latency", "-s", script.path, "http://127.0.0.1:\(port)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let rate = line(text, "Requests/sec:").flatMap({ Double($0) }),
            let p99 = line(text, "99%").flatMap(milliseconds)
        else { throw BenchError("wrk said: \(text)") }
        if let errors = line(text, "Non-2xx or 3xx responses:") { throw BenchError("wrk got \(errors) failed responses: \(text)") }
        return Result(requestsPerSecond: rate, p99Milliseconds: p99)
    }

    private static func line(_ text: String, _ label: String) -> String? {
        text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
            .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    /// `850.00us`, `3.21ms`, `1.02s` in milliseconds.
    private static func milliseconds(_ text: String) -> Double? {
        for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}

/// An event stream read by no one: a socket that sent its request and reads nothing more.
final class RawStream {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    static func open(port: Int, token: String) throws -> RawStream {
        let descriptor = try connect(port)
        let request = "GET /v1/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        // The smallest receive buffer, so that a stalled reader stalls soon.
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return RawStream(descriptor: descriptor)
    }

    /// Reads until the response head has arrived; throws unless the server
    /// opened the stream (a refusal would measure nothing).
    func awaitHeaders() throws {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw BenchError("an event stream closed before its head") }
            received += buffer.prefix(count)
        }
        let statusLine = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")[0]
        guard statusLine.hasPrefix("HTTP/1.1 200") else { throw BenchError("an event stream was refused: \(statusLine)") }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// A loopback port no one listens on now.
func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in(
        sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw BenchError("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

func canConnect(_ port: Int) -> Bool {
    guard let descriptor = try? connect(port) else { return false }
    close(descriptor)
    return true
}

private func connect(_ port: Int) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in(
        sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(port).bigEndian),
        sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else {
        close(descriptor)
        throw BenchError("cannot connect to port \(port)")
    }
    return descriptor
}
