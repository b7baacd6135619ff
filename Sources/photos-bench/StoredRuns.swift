import Foundation

/// What every run of one suite printed, kept as JSON beside the report
/// (`benchmark-results/SUITE.json`), with where and when they ran: the
/// report is written from these, so suites run at different sittings make
/// one report, and a report can be written again without running anything.
struct StoredRuns: Codable {
    /// The folder beside the report that holds them.
    static let folder = "benchmark-results"

    let suite: String
    /// The commit the runs were made at, as `git rev-parse --short` names it.
    let commit: String
    let date: Date
    /// Cores, memory, processor and system.
    let machine: String
    /// Whether the suite ran in its quick form.
    let quick: Bool
    /// Each run's printed lines.
    let outputs: [[String]]

    /// Writes these runs in `folder`, replacing the suite's earlier ones.
    func save(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(self).write(to: Self.file(suite: suite, in: folder), options: .atomic)
    }

    /// The runs kept for `suite` in `folder`, or nil when there are none.
    static func load(suite: String, from folder: URL) throws -> StoredRuns? {
        let file = file(suite: suite, in: folder)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(StoredRuns.self, from: Data(contentsOf: file))
        } catch {
            throw BenchError("\(file.path) holds no runs photos-bench can read: \(error)")
        }
    }

    private static func file(suite: String, in folder: URL) -> URL {
        let name = suite.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.joined(separator: "-")
        return folder.appendingPathComponent(name + ".json")
    }
}
