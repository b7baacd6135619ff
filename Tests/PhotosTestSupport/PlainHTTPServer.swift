import Foundation

/// A plain HTTP server, Python's `http.server`, as an upload job's
/// destination that is not ours: it keeps each request's body in its
/// folder (named by the body's SHA-256) and logs each request. `/fail…`
/// answers 500; `/slow…` holds its first request's answer until the server
/// is stopped (a destination that hangs), and answers later ones at once;
/// anything else answers 201 with `X-Stored: <sha256>`.
package final class PlainHTTPServer: @unchecked Sendable {
    package let folder: URL
    package let port: Int
    private let process: Process

    /// One request the server received whole.
    package struct Received: Sendable, Equatable {
        package var method: String
        package var path: String
        package var sha256: String
        package var length: Int
        package var headers: [String: String]
    }

    package init(in folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            import hashlib, http.server, json, os, sys, threading
            folder = sys.argv[1]
            slow_seen = set()
            lock = threading.Lock()
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *args): pass
                def receive(self):
                    length = int(self.headers.get("Content-Length", "0"))
                    body = b""
                    while len(body) < length:
                        chunk = self.rfile.read(min(65536, length - len(body)))
                        if not chunk: break
                        body += chunk
                    digest = hashlib.sha256(body).hexdigest()
                    with open(os.path.join(folder, digest), "wb") as f: f.write(body)
                    with lock:
                        with open(os.path.join(folder, "requests.jsonl"), "a") as log:
                            log.write(json.dumps({"method": self.command, "path": self.path, "sha256": digest,
                                "length": len(body), "headers": {k.lower(): v for k, v in self.headers.items()}}) + "\\n")
                    return digest
                def answer(self, status, digest):
                    self.send_response(status)
                    self.send_header("X-Stored", digest)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                def do_POST(self):
                    digest = self.receive()
                    if self.path.startswith("/fail"): return self.answer(500, digest)
                    if self.path.startswith("/slow"):
                        with lock:
                            first = self.path not in slow_seen
                            slow_seen.add(self.path)
                        if first: threading.Event().wait()
                    self.answer(201, digest)
                do_PUT = do_POST
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", script, folder.path]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            kill(server.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the plain HTTP server did not start: \(line)"])
        }
        self.port = port
        process = server
    }

    /// `path` on the server.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Every request received whole so far, in order.
    package var received: [Received] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("requests.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Received(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "", sha256: object["sha256"] as? String ?? "",
                length: object["length"] as? Int ?? 0, headers: object["headers"] as? [String: String] ?? [:])
        }
    }

    /// Killed outright: a test runner may ignore SIGTERM, and its children with it.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
