import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for what HTTP clients will
/// not do: pipelining, a head sent byte by byte, watching for the close.
final class RawConnection: @unchecked Sendable {
    /// One response as read off the wire.
    struct Response {
        let statusLine: String
        let headers: [String: String]
        let body: Data
    }

    private let descriptor: Int32
    private var received = Data()

    init(port: Int, readTimeout: Duration = .seconds(5)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: Int(readTimeout.components.seconds), tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        let bytes = Array(data)
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw POSIXError(.EPIPE)
        }
    }

    /// The next whole response (by Content-Length); nil when the server
    /// closed the connection first. Waits on a thread of its own, so that
    /// the server's tasks keep the cooperative pool.
    func response() async throws -> Response? {
        try await offThePool { try self.readResponse() }
    }

    /// Whether the server closes the connection within the read timeout.
    func closesSoon() async throws -> Bool {
        do {
            return try await offThePool {
                while try self.readMore() {}
                return true
            }
        } catch let error as POSIXError where error.code == .EAGAIN || error.code == .EWOULDBLOCK {
            return false
        }
    }

    /// Everything that arrives until nothing more comes within the read
    /// timeout, the server closes, or `longest` has passed, as text: an
    /// event stream's bytes, comments included.
    func drain(longest: Duration = .seconds(3)) async throws -> String {
        try await offThePool {
            let deadline = ContinuousClock.now + longest
            do {
                while try self.readMore(), ContinuousClock.now < deadline {}
            } catch let error as POSIXError where error.code == .EAGAIN || error.code == .EWOULDBLOCK {}
            defer { self.received.removeAll() }
            return String(decoding: self.received, as: UTF8.self)
        }
    }

    /// What arrives until it holds `marker` (then at once), the server
    /// closes, or `longest` passes, as text.
    func text(until marker: String, longest: Duration = .seconds(20)) async throws -> String {
        try await offThePool {
            let deadline = ContinuousClock.now + longest
            var text = ""
            while !text.contains(marker), ContinuousClock.now < deadline {
                do {
                    guard try self.readMore() else { break }
                } catch let error as POSIXError where error.code == .EAGAIN || error.code == .EWOULDBLOCK {
                    continue
                }
                text = String(decoding: self.received, as: UTF8.self)
            }
            defer { self.received.removeAll() }
            return String(decoding: self.received, as: UTF8.self)
        }
    }

    private func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    private func readResponse() throws -> Response? {
        while true {
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if received.count - end.upperBound >= length {
                    let body = received.subdata(in: end.upperBound..<(end.upperBound + length))
                    received.removeSubrange(..<(end.upperBound + length))
                    return Response(statusLine: head[0], headers: headers, body: body)
                }
            }
            guard try readMore() else { return nil }
        }
    }

    /// Reads what arrived; false at the end of the stream. Throws when nothing came within the read timeout.
    private func readMore() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        received.append(contentsOf: buffer[..<count])
        return count > 0
    }
}
