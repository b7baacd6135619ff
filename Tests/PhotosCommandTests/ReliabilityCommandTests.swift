import Foundation
import PhotosSQLite
import PhotosStore
import PhotosTestSupport
import Testing

/// The `photos` command when the library's disk, permissions or database
/// are not what they should be: nothing lost, nothing written into damage,
/// and every problem said.
@Suite(.tags(.slow)) struct ReliabilityCommandTests {
    let tool: CommandLineTool

    init() throws {
        tool = try CommandLineTool()
    }

    /// Imports `count` photos; returns their identifiers, oldest first.
    private func libraryWithPhotos(_ count: Int) throws -> [String] {
        try tool.run("init")
        for index in 0..<count {
            try tool.photo("IMG_\(index).JPG", taken: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 3_600), shade: Double(index * 30))
        }
        let imported = try tool.run("import", "card")
        #expect(imported.status == 0, "\(imported.errors)")
        return (try tool.run("ls", "--json").json as? [[String: Any]] ?? []).compactMap { $0["localIdentifier"] as? String }
    }

    @Test func checkFindsMissingChangedAndOrphanFiles() throws {
        _ = try libraryWithPhotos(3)
        let whole = try tool.run("check")
        #expect(whole.status == 0 && whole.output.contains("The library is whole: 3 assets, 3 files"), "\(whole.output)\(whole.errors)")
        let originals = tool.library.appendingPathComponent("originals")
        let files = try FileManager.default.subpathsOfDirectory(atPath: originals.path).filter { $0.hasSuffix(".jpg") }.sorted()
        try FileManager.default.removeItem(at: originals.appendingPathComponent(files[0]))
        var bytes = try Data(contentsOf: originals.appendingPathComponent(files[1]))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: originals.appendingPathComponent(files[1]))
        try Data("stray".utf8).write(to: originals.appendingPathComponent("Z/stray.jpg").creatingFolder())
        let run = try tool.run("check", "--content", "--json")
        #expect(run.status == 2)
        let report = try #require(run.json as? [String: Any])
        let kinds = ((report["problems"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }.sorted()
        #expect(kinds == ["content-mismatch", "missing-file", "orphan-file"], "\(run.output)")
        #expect(report["whole"] as? Bool == false)
    }

    @Test func aDamagedDatabaseFailsListingsAndRefusesChanges() throws {
        try tool.run("init")
        let store = try SQLitePhotoStore(url: tool.library)
        var changes = ChangeSet()
        changes.newAssets = (0..<3_000).map { index in
            NewAsset(
                record: AssetRecord(
                    uuid: UUID().uuidString, mediaType: .image, creationDate: Date(timeIntervalSince1970: Double(index)),
                    modificationDate: Date(), addedDate: Date(), playbackStyle: .image), resources: [])
        }
        _ = try store.beginCommit().commit(changes)
        let leaves = try DatabaseSurgery.pages(of: "asset", in: tool.library).filter { $0.type == "leaf" }
        try DatabaseSurgery.overwrite(page: leaves[leaves.count / 2].number, with: [UInt8](repeating: 0, count: 4096), in: tool.library)
        let id = changes.newAssets[0].record.uuid

        let listing = try tool.run("ls", "--json")
        #expect(listing.status == 2 && listing.errors.contains("damaged") && listing.errors.contains(tool.library.path), "\(listing.errors)")
        let favorite = try tool.run("favorite", id)
        #expect(favorite.status == 2 && favorite.errors.contains("damaged"), "\(favorite.errors)")
        let check = try tool.run("check")
        #expect(check.status == 2 && check.output.contains("damaged-database"), "\(check.output)")
    }

    /// SQLite's tables are not STRICT, so another program can store text in
    /// a number column. Reading that row is an error that names the column,
    /// never a crash; `photos check` finds every such value, and finds the
    /// library whole again once the value is put right.
    @Test func aValueOfTheWrongTypeIsReportedNotACrash() throws {
        let identifiers = try libraryWithPhotos(2)
        let uuid = try #require(identifiers.first?.split(separator: "/").first.map(String.init))
        try DatabaseSurgery.execute("UPDATE asset SET pixel_width = 'abc' WHERE uuid = ?", arguments: [uuid], in: tool.library)

        let listing = try tool.run("ls")
        #expect(
            listing.status == 2 && listing.errors.contains("damaged") && listing.errors.contains("pixel_width holds \"abc\""),
            "\(listing.status) \(listing.errors)")
        let favorite = try tool.run("favorite", identifiers[0])
        #expect(favorite.status == 2 && favorite.errors.contains("pixel_width"), "\(favorite.status) \(favorite.errors)")
        let check = try tool.run("check")
        #expect(check.status == 2 && check.output.contains("asset.pixel_width holds 1 value that is not INTEGER"), "\(check.output)")

        try DatabaseSurgery.execute("UPDATE asset SET pixel_width = 64 WHERE uuid = ?", arguments: [uuid], in: tool.library)
        let repaired = try tool.run("check")
        #expect(repaired.status == 0 && repaired.output.contains("The library is whole"), "\(repaired.output)")
        let relisted = try tool.run("ls", "--json")
        #expect(relisted.status == 0 && (relisted.json as? [[String: Any]])?.count == 2, "\(relisted.errors)")
    }

    @Test func aReadOnlyLibraryIsReadableAndRefusesChanges() throws {
        let ids = try libraryWithPhotos(2)
        let out = tool.directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(
            at: out, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o777])
        let before = try snapshot(tool.library)
        let reader = ReadOnlyUser(library: tool.library)
        defer { reader.restore() }
        let info = try tool.run(["info", "--json"], launcher: reader.launcher)
        #expect(info.status == 0 && ((info.json as? [String: Any])?["assets"] as? [String: Int])?["images"] == 2, "\(info.errors)")
        let listed = try tool.run(["ls", "--json"], launcher: reader.launcher)
        #expect(listed.status == 0 && (listed.json as? [Any])?.count == 2, "\(listed.errors)")
        #expect(try tool.run(["show", ids[0]], launcher: reader.launcher).status == 0)
        let thumb = try tool.run(
            ["thumb", ids[0], "--size", "640x640", "--mode", "fit", "-o", out.appendingPathComponent("t.jpg").path],
            launcher: reader.launcher)
        #expect(thumb.status == 0, "\(thumb.errors)")
        let export = try tool.run(["export", ids[1], "--to", out.appendingPathComponent("export").path], launcher: reader.launcher)
        #expect(
            export.status == 0 && FileManager.default.fileExists(atPath: out.appendingPathComponent("export/IMG_1.JPG").path),
            "\(export.errors)")
        let favorite = try tool.run(["favorite", ids[0]], launcher: reader.launcher)
        #expect(
            favorite.status == 2 && favorite.errors.contains("read-only") && favorite.errors.split(separator: "\n").count == 1,
            "\(favorite.errors)")
        reader.restore()
        #expect(try snapshot(tool.library) == before, "nothing in the library was written")
    }

    @Test func twoImportsOfOneFolderAtOnceStoreEachPhotoOnce() throws {
        try tool.run("init")
        for index in 0..<24 { try tool.photo("IMG_\(index).JPG", shade: Double(index * 9)) }
        let runs = try (0..<2).map { _ in try tool.start(["import", "card", "--batch", "6", "--json"]) }
        var imported = 0
        var duplicates = 0
        for (process, output, _) in runs {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let report = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            imported += (report?["imported"] as? [Any])?.count ?? 0
            duplicates += (report?["duplicates"] as? [Any])?.count ?? 0
        }
        #expect(imported == 24 && duplicates == 24, "imported \(imported), duplicates \(duplicates)")
        #expect((try tool.run("ls", "--json").json as? [Any])?.count == 24)
    }

    @Test func anAddOnlyClientImportsWithTheDefaults() throws {
        _ = try libraryWithPhotos(2)
        try tool.photo("new.jpg", in: "more", shade: 200)
        try FileManager.default.copyItem(
            at: tool.directory.appendingPathComponent("card/IMG_0.JPG"),
            to: tool.directory.appendingPathComponent("more/again.jpg"))
        #expect(try tool.run("access", "grant", "org.example.camera", "--add-only").status == 0)
        let run = try tool.run(["import", "more", "--json"], environment: ["PHOTOS_CLIENT_ID": "org.example.camera"])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        #expect((report["imported"] as? [Any])?.count == 2 && (report["duplicates"] as? [Any])?.isEmpty == true)
        #expect((try tool.run("ls", "--json").json as? [Any])?.count == 3, "the duplicate is stored once")
    }

    @Test(.timeLimit(.minutes(1))) func watchStopsWhenItsLibraryIsRemoved() throws {
        _ = try libraryWithPhotos(1)
        let (process, _, errors) = try tool.start(["watch"])
        var said = ""
        while !said.contains("watching") {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        try FileManager.default.removeItem(at: tool.library)
        process.waitUntilExit()
        said += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2 && said.contains("removed"), "\(said)")
    }

    @Test(.enabled(if: Tracing.isAvailable, "strace cannot trace processes here (not installed, or ptrace is not allowed)"))
    func aChangeBlockSyncsItsFilesAndFoldersThenItsCommit() throws {
        try tool.run("init")
        try tool.photo("IMG_0001.JPG")
        let trace = tool.directory.appendingPathComponent("trace.txt")
        let run = try tool.run(
            ["import", "card/IMG_0001.JPG"],
            launcher: [
                Tracing.strace, "-f", "-y", "-qq", "-o", trace.path,
                "-e", "trace=rename,renameat,renameat2,fsync,fdatasync",
            ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let originals = tool.library.appendingPathComponent("originals").path
        let placed = try #require(lines.firstIndex { $0.contains("rename") && $0.contains("\"\(originals)/") }, "\(lines)")
        let shard = lines[placed].components(separatedBy: "\"\(originals)/")[1].prefix(1)
        func synced(_ path: String, after start: Int) -> Int? {
            lines[start...].firstIndex { ($0.contains("fsync(") || $0.contains("fdatasync(")) && $0.contains("<\(path)>") }
        }
        // The journal is synced under its temporary name, then renamed into place.
        let journal = lines.firstIndex { $0.contains("fsync(") && $0.contains("journal") }
        #expect(journal.map { $0 < placed } == true, "the journal is on disk before files move")
        #expect(synced(originals, after: 0).map { $0 < placed } == true, "originals/ synced for the new shard folder")
        let folder = try #require(synced(originals + "/" + shard, after: placed), "the folder the file entered is synced")
        let commit = try #require(
            synced(tool.library.path + "/database/Photos.sqlite-wal", after: folder),
            "the commit syncs the write-ahead log, after the files")
        #expect(commit > folder)
    }

    /// Every file under `root` with its size and modification time.
    private func snapshot(_ root: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            files[path] = "\(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
        return files
    }
}

/// Runs `photos` as a user who may read a library but not write it: as
/// `nobody` through setpriv when the tests run as root (whom permissions
/// do not stop), else as this user with the library's write bits removed.
struct ReadOnlyUser {
    let library: URL

    var launcher: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
    }

    init(library: URL) {
        self.library = library
        if getuid() != 0 { Self.setWritable(false, under: library) }
    }

    func restore() {
        if getuid() != 0 { Self.setWritable(true, under: library) }
    }

    private static func setWritable(_ writable: Bool, under root: URL) {
        let paths = [root.path] + ((try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []).map { root.appendingPathComponent($0).path }
        for path in paths {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            chmod(path, isDirectory.boolValue ? (writable ? 0o755 : 0o555) : (writable ? 0o644 : 0o444))
        }
    }
}

/// strace, when it is installed and may trace here.
enum Tracing {
    static let strace = "/usr/bin/strace"

    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: strace) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-o", "/dev/null", "/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}

extension URL {
    /// This URL, after creating the folder that holds it.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
