import CPhotosMedia
import Foundation

/// A program run to its end with `posix_spawn` and `waitpid`, its standard
/// output collected. Foundation's `Process` notices a child's end by polling
/// a run loop every 50 ms, which doubled the cost of a video's ffprobe and
/// ffmpeg runs; this waits for the child itself.
///
/// The child gets nothing of this process but its environment
/// (``pm_spawn``): standard input and error are /dev/null, every other
/// descriptor is closed, no signal is blocked and each has its default
/// action (a server blocks SIGTERM and ignores SIGPIPE, which a child must
/// not inherit).
enum ChildProcess {
    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Runs `executable` with `arguments`; returns how it ended and what it
    /// wrote to its standard output. Throws the `errno` of a failure to
    /// start it, as `POSIXError`.
    /// Cost: the child's own time, and one `posix_spawn`.
    static func run(_ executable: String, _ arguments: [String]) throws -> (termination: Termination, output: Data) {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var (pid, readEnd): (Int32, Int32) = (0, -1)
        let started = pm_spawn(executable, argv, &pid, &readEnd)
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        let output = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
        var (status, signal): (Int32, Int32) = (0, 0)
        let waited = pm_wait(pid, &status, &signal)
        guard waited == 0 else { throw POSIXError(POSIXErrorCode(rawValue: waited) ?? .EIO) }
        return (signal == 0 ? .exited(status) : .signalled(signal), output)
    }
}
