import Foundation
import Synchronization

/// One exiftool process kept running (`-stay_open`) and asked about file
/// after file: Perl and exiftool's modules start once per process, not once
/// per file (about 150 ms each time), so that reading a file's XMP, IPTC or
/// raw metadata costs a few milliseconds.
///
/// Requests are answered one at a time, in order; a caller waits its turn.
/// A request that takes longer than ``deadline`` kills the process, and the
/// next request starts a new one, as does one after the process died.
package final class ExifToolSession: Sendable {
    /// The session every reader in this process shares.
    package static let shared = ExifToolSession()

    /// The longest a request may take before exiftool is judged stuck.
    package static let deadline: Duration = .seconds(30)

    private static let tool = ExternalTool(name: "exiftool", package: "libimage-exiftool-perl")
    /// What exiftool prints after each request's output.
    private static let readyMarker = Array("{ready}\n".utf8)

    private struct Running {
        let process: Process
        let input: FileHandle
        let output: Int32
    }

    private let running = Mutex<Running?>(nil)
    /// The thread every session is started from.
    private static let starter = PermanentThread(name: "exiftool starter")

    private init() {}

    /// Whether exiftool is installed.
    package var isAvailable: Bool { Self.tool.isInstalled }

    /// exiftool's JSON for one file (`-j`), as tag name to value, with the
    /// arguments given. Names that a line-by-line argument list cannot carry
    /// (a newline in the path) are read by a process of their own.
    /// Cost: one round trip to the running process, plus exiftool's read of the file.
    package func fields(ofFileAt path: String, arguments: [String]) throws(MediaError) -> [String: Any] {
        let output: Data
        if (arguments + [path]).contains(where: { $0.contains("\n") || $0.contains("\r") }) {
            output = try Self.tool.run(["-j", "-q", "-q"] + arguments + ["--", path], about: path)
        } else {
            // In a running session "--" would end the options for good, and
            // "-q" silences the "{ready}" that ends each answer; a path read
            // as a path must then not start with "-".
            let file = path.hasPrefix("-") ? "./" + path : path
            output = try ask(["-j"] + arguments + [file], about: path)
        }
        guard let list = try? JSONSerialization.jsonObject(with: output) as? [[String: Any]], let fields = list.first else {
            throw MediaError(file: path, reason: "exiftool cannot read the file")
        }
        return fields
    }

    private func ask(_ arguments: [String], about path: String) throws(MediaError) -> Data {
        let reply = running.withLock { running -> Result<Data, MediaError> in
            let session: Running
            if let current = running, current.process.isRunning {
                session = current
            } else {
                do throws(MediaError) {
                    session = try start(about: path)
                } catch {
                    return .failure(error)
                }
                running = session
            }
            do throws(MediaError) {
                let request = arguments.joined(separator: "\n") + "\n-execute\n"
                do {
                    try session.input.write(contentsOf: Data(request.utf8))
                } catch {
                    throw MediaError(file: path, reason: "exiftool stopped: \(error.localizedDescription)")
                }
                return .success(try readReply(from: session.output, about: path))
            } catch {
                // A session that failed once is not trusted again.
                stop(session)
                running = nil
                return .failure(error)
            }
        }
        return try reply.get()
    }

    private func start(about path: String) throws(MediaError) -> Running {
        guard let executable = Self.tool.executable else {
            throw MediaError(file: path, reason: "exiftool (Debian package libimage-exiftool-perl) is not installed")
        }
        // A write to a process that just died must fail, not kill this one.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        // exiftool polls a closed argument file for ever rather than exit, so
        // it is told to die with this process (setpriv's parent-death signal,
        // SIGKILL: the signals this process blocks, its children inherit
        // blocked). That signal comes when the thread that started it ends,
        // hence the one thread that starts sessions and never ends.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", executable.path, "-stay_open", "True", "-@", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = Self.starter.perform { () -> (any Error)? in
            do {
                try process.run()
                return nil
            } catch {
                return error
            }
        }
        if let started {
            throw MediaError(file: path, reason: "exiftool cannot run: \(started.localizedDescription)")
        }
        return Running(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading.fileDescriptor)
    }

    private func stop(_ session: Running) {
        if session.process.isRunning { kill(session.process.processIdentifier, SIGKILL) }
        try? session.input.close()
    }

    /// Reads until exiftool says it is ready for the next request, within the deadline.
    private func readReply(from descriptor: Int32, about path: String) throws(MediaError) -> Data {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: Self.deadline)
        var reply = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !reply.ends(with: Self.readyMarker) {
            let remaining = clock.now.duration(to: end)
            guard remaining > .zero else {
                throw MediaError(file: path, reason: "exiftool took longer than \(Self.deadline) to read the file")
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw MediaError(file: path, reason: "exiftool stopped while reading the file") }
            reply += chunk[0..<count]
        }
        return Data(reply.dropLast(Self.readyMarker.count))
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// A thread that runs what it is given, one job at a time, and never ends:
/// a child started from it outlives no thread but the process.
private final class PermanentThread: @unchecked Sendable {
    private let turn = NSLock()
    private let condition = NSCondition()
    private var job: (() -> Void)?

    init(name: String) {
        let thread = Thread { [unowned self] in
            while true {
                condition.lock()
                while job == nil { condition.wait() }
                let next = job!
                job = nil
                condition.unlock()
                next()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and returns its result; callers take turns.
    func perform<T>(_ body: @escaping () -> T) -> T {
        turn.lock()
        defer { turn.unlock() }
        let done = DispatchSemaphore(value: 0)
        var result: T?
        condition.lock()
        job = {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }
}
