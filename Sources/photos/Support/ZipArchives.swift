import Foundation

/// Zip archives given to `photos import`, as Google Takeout delivers a
/// library (`takeout-…-001.zip`, `-002.zip`…): extracted with Debian's
/// unzip into one folder, so that a Takeout album split across archives
/// comes together with its `metadata.json` and its photos' JSON, then
/// walked like any folder and removed when the import ends.
///
/// An archive is data: paths climbing out of the folder are cut by unzip,
/// symbolic links it holds are removed before the walk (they could lead
/// anywhere on this machine), an encrypted one is refused without asking
/// for a password, and archives whose content would not fit the disk with
/// a margin are refused before anything is written.
final class ZipArchives {
    /// Where the archives are extracted: beside the library, on its disk.
    let folder: URL
    private var extracted = false

    /// Space left free on the disk after extracting: 1 GiB.
    private static let freeMargin: Int64 = 1 << 30

    init(besideLibraryAt library: URL) {
        folder = library.deletingLastPathComponent()
            .appendingPathComponent(".photos-import-archives-\(UUID().uuidString)", isDirectory: true)
    }

    /// Whether the file at `path` is a zip archive: by its first bytes, whatever its name.
    static func isArchive(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// Extracts the archive at `path` into ``folder``, merged with those
    /// extracted before (a file already there is kept). Throws, naming the
    /// archive and why, when it cannot be.
    /// Cost: the archive's content written to disk once.
    func extract(_ path: String) throws {
        let size = try Self.uncompressedSize(of: path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        extracted = true
        var disk = statvfs()
        if statvfs(folder.path, &disk) == 0 {
            let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
            guard size + Self.freeMargin <= free else {
                throw CLIError.user(
                    "\(path) holds \(size >> 20) MiB, more than the \(max(0, free - Self.freeMargin) >> 20) MiB "
                        + "free beside the library: extract it where there is room, then import the folder")
            }
        }
        let status = try Self.unzip(["-qq", "-n", path, "-d", folder.path]).status
        // 1: warnings only (a name changed); 11: nothing matched (an empty archive).
        guard [0, 1, 11].contains(status) else {
            throw CLIError.user("\(path) cannot be extracted (unzip exit status \(status)): damaged, encrypted or not a zip archive")
        }
        removeSymbolicLinks()
    }

    /// Removes what was extracted.
    func remove() {
        if extracted { try? FileManager.default.removeItem(at: folder) }
    }

    private func removeSymbolicLinks() {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isSymbolicLinkKey]) else { return }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// The archive's content size, from its central directory (`zipinfo -t`).
    private static func uncompressedSize(of path: String) throws -> Int64 {
        let (status, output) = try unzip(["-Z", "-t", path])
        // "3 files, 123456 bytes uncompressed, 120000 bytes compressed:  2.8%"
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0, let bytes = text.split(separator: ",").dropFirst().first?.split(separator: " ").first.flatMap({ Int64($0) }) else {
            throw CLIError.user("\(path) is not a zip archive that can be read")
        }
        return bytes
    }

    /// Runs unzip without a terminal (an encrypted archive fails instead of asking).
    private static func unzip(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else {
            throw CLIError.user("importing zip archives needs unzip (Debian package unzip)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would block unzip.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
