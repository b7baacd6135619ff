import Foundation
import Testing

@testable import PhotosMedia

/// Programs run as a photo server runs ffprobe and ffmpeg: their output
/// collected, how they ended told apart, and nothing of the server's
/// descriptors or signal settings handed down.
@Suite struct ChildProcessTests {
    @Test func outputAndExitStatusAreThoseOfTheChild() throws {
        let said = try ChildProcess.run("/bin/sh", ["-c", "printf 'hello'; echo ignored >&2; exit 3"])
        #expect(said.termination == .exited(3))
        #expect(String(decoding: said.output, as: UTF8.self) == "hello")
        // More than a pipe holds: the reader must drain it while the child writes.
        let large = try ChildProcess.run("/bin/sh", ["-c", "head -c 1000000 /dev/zero"])
        #expect(large.termination == .exited(0) && large.output.count == 1_000_000)
    }

    @Test func aChildKilledByASignalSaysWhich() throws {
        let said = try ChildProcess.run("/bin/sh", ["-c", "kill -KILL $$"])
        #expect(said.termination == .signalled(SIGKILL))
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: POSIXError.self) { try ChildProcess.run("/nonexistent/program", []) }
    }

    /// A server blocks SIGTERM (it waits for it on a signal source) and
    /// keeps files open; its children start with neither.
    @Test func theChildInheritsNoBlockedSignalsAndNoDescriptors() throws {
        // Opened without O_CLOEXEC, so that only closing it in the child keeps it there.
        let descriptor = open("/etc/hostname", O_RDONLY)
        try #require(descriptor > 3)
        defer { close(descriptor) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let said = try ChildProcess.run("/bin/sh", ["-c", "grep SigBlk /proc/self/status; ls /proc/self/fd"])
        let lines = String(decoding: said.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "SigBlk:\t0000000000000000")
        // Standard input, output and error, and the descriptor ls reads the folder with.
        #expect(lines.dropFirst().compactMap { Int($0) }.allSatisfy { $0 <= 3 })
    }
}
