import Foundation

/// A program from a Debian package that PhotosMedia runs: ffprobe and
/// ffmpeg for video, exiftool for what libvips cannot read.
struct ExternalTool: Sendable {
    let name: String
    /// The Debian package that provides it, for the error message.
    let package: String
    /// Where the program is, found on PATH; nil when it is not installed.
    let executable: URL?

    init(name: String, package: String) {
        self.name = name
        self.package = package
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        executable = directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    var isInstalled: Bool { executable != nil }

    /// Runs the tool and returns its standard output; standard error is
    /// dropped. Throws when it is missing or cannot start, and when
    /// `requiresSuccess` and it exits with a failure; otherwise callers
    /// judge the output. A `niceness` above 0 runs it at that lower priority
    /// (nice(1)), for work nobody waits on.
    func run(_ arguments: [String], about file: String, niceness: Int = 0, requiresSuccess: Bool = false) throws(MediaError) -> Data {
        guard let executable else {
            throw MediaError(file: file, reason: "\(name) (Debian package \(package)) is not installed")
        }
        let (path, fullArguments) =
            niceness > 0
            ? ("/usr/bin/nice", ["-n", String(niceness), executable.path] + arguments)
            : (executable.path, arguments)
        let ran: (termination: ChildProcess.Termination, output: Data)
        do {
            ran = try ChildProcess.run(path, fullArguments)
        } catch {
            throw MediaError(file: file, reason: "\(name) cannot run: \(error.localizedDescription)")
        }
        if requiresSuccess, ran.termination != .exited(0) {
            let status =
                switch ran.termination {
                case .exited(let code): "exit status \(code)"
                case .signalled(let signal): "killed by signal \(signal)"
                }
            throw MediaError(file: file, reason: "\(name) failed (\(status))")
        }
        return ran.output
    }
}
