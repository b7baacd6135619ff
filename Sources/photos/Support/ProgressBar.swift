import Foundation

/// Progress of a long command on standard error: a bar redrawn in place on
/// a terminal (count, rate, time left), plain lines every few seconds
/// otherwise, nothing with --quiet.
final class ProgressBar {
    let total: Int
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast

    init(total: Int, label: String, enabled: Bool) {
        self.total = total
        self.label = label
        self.enabled = enabled && total > 0
    }

    /// Reports `done` of the total; draws at most ten times a second on a
    /// terminal and every two seconds otherwise (and always at the end).
    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done >= total || now.timeIntervalSince(lastDrawn) >= (isTerminal ? 0.1 : 2) else { return }
        lastDrawn = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let status = String(format: "%d/%d %@, %.1f/s, %@ left", done, total, label, rate, Self.duration(left))
        if isTerminal {
            let width = 30
            let filled = total > 0 ? width * done / total : 0
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(status)\u{1B}[K".utf8))
            if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            FileHandle.standardError.write(Data("progress: \(status)\n".utf8))
        }
    }

    private static func duration(_ seconds: Double) -> String {
        let seconds = Int(seconds.rounded())
        return seconds >= 60 ? "\(seconds / 60)m\(String(format: "%02d", seconds % 60))s" : "\(seconds)s"
    }
}
