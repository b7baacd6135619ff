import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

/// Debian's headless Chromium driven over the W3C WebDriver protocol
/// (chromedriver on a free loopback port), for the gallery benchmarks: a
/// fresh browser per session, pages opened, scripts run in them.
final class ChromeDriver {
    private let process: Process
    private let base: String
    /// The browsers' TMPDIR, removed by ``stop()``: Chromium leaves a folder
    /// for its singleton socket there at every exit.
    private let temporaryDirectory: URL

    private init(process: Process, port: Int, temporaryDirectory: URL) {
        self.process = process
        base = "http://127.0.0.1:\(port)"
        self.temporaryDirectory = temporaryDirectory
    }

    /// Starts chromedriver and waits until it answers.
    static func start() async throws -> ChromeDriver {
        let port = try freePort()
        // Short: Chromium's socket path under it must fit in a sockaddr_un (108 bytes).
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("chromium-XXXXXX").path.utf8CString)
        guard mkdtemp(&template) != nil else { throw BenchError("cannot make a temporary directory for Chromium") }
        let temporaryDirectory = URL(
            fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            isDirectory: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        process.arguments = ["--port=\(port)", "--silent"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporaryDirectory.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: temporaryDirectory)
            throw error
        }
        let driver = ChromeDriver(process: process, port: port, temporaryDirectory: temporaryDirectory)
        for _ in 0..<100 {
            if (try? await driver.call(.GET, "/status")) != nil { return driver }
            try await Task.sleep(for: .milliseconds(100))
        }
        driver.stop()
        throw BenchError("chromedriver did not start")
    }

    /// Ends chromedriver (sessions are closed by ``withSession(width:height:_:)`` first; it
    /// does not always leave on SIGTERM).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: temporaryDirectory)
    }

    /// Runs `body` with a new browser, closed afterwards whatever happens.
    func withSession<Result>(width: Int = 1280, height: Int = 900, _ body: (BrowserSession) async throws -> Result) async throws -> Result {
        let browser = try await session(width: width, height: height)
        do {
            let result = try await body(browser)
            await browser.close()
            return result
        } catch {
            await browser.close()
            throw error
        }
    }

    /// A new browser (a fresh Chromium process) with this window size.
    func session(width: Int = 1280, height: Int = 900) async throws -> BrowserSession {
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=\(width),\(height)",
            "--enable-precise-memory-info", "--js-flags=--expose-gc",
        ]
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome", "goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": arguments],
                ]
            ]
        ]
        let value = try await call(.POST, "/session", capabilities)
        guard let id = (value as? [String: Any])?["sessionId"] as? String else { throw BenchError("no WebDriver session: \(String(describing: value))") }
        return BrowserSession(driver: self, id: id)
    }

    /// One WebDriver command; its `value`.
    @discardableResult
    func call(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 26))
        let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any]
        guard response.status == .ok else {
            throw BenchError("WebDriver \(method) \(path): \(response.status) \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        return object?["value"] ?? nil
    }
}

/// One browser of a ChromeDriver.
struct BrowserSession {
    let driver: ChromeDriver
    let id: String

    func open(_ url: String) async throws {
        try await driver.call(.POST, "/session/\(id)/url", ["url": url])
    }

    /// Sets a cookie for the page's origin (open a page of it first).
    func setCookie(name: String, value: String) async throws {
        try await driver.call(.POST, "/session/\(id)/cookie", ["cookie": ["name": name, "value": value, "path": "/"]])
    }

    /// Runs `script` (a function body) in the page; its return value.
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await driver.call(.POST, "/session/\(id)/execute/sync", ["script": script, "args": arguments])
    }

    /// Runs `script` until it returns something other than null or false, every 20 ms, for at most `timeout`.
    func waitFor(_ script: String, arguments: [Any] = [], timeout: Duration = .seconds(30), _ what: String) async throws -> Any {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = try await run(script, arguments), !(value is NSNull), (value as? Bool) != false { return value }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchError("timed out waiting for \(what)")
    }

    func close() async {
        _ = try? await driver.call(.DELETE, "/session/\(id)")
    }
}
