import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The `photos` command with careless paths and hostile names: nothing
/// outside what the user asked for is written, every path given or found
/// is accounted for, and no name reaches the terminal as a command.
@Suite(.tags(.slow)) struct CarefulPathTests {
    let tool: CommandLineTool

    init() throws {
        tool = try CommandLineTool()
    }

    private func onePhoto() throws -> String {
        try tool.run("init")
        try tool.photo("IMG_1.JPG")
        #expect(try tool.run("import", "card").status == 0)
        return try #require((try tool.run("ls", "--json").json as? [[String: Any]])?.first?["localIdentifier"] as? String)
    }

    @Test func thumbWritesOnlyWhereItMay() throws {
        let id = try onePhoto()
        let out = tool.directory
        let fifo = out.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let target = out.appendingPathComponent("target.jpg")
        try Data("keep me".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("link.jpg"), withDestinationURL: target)
        let readOnly = out.appendingPathComponent("read-only.jpg")
        try Data("keep me".utf8).write(to: readOnly)
        chmod(readOnly.path, 0o444)
        let original = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: tool.library.appendingPathComponent("originals").path)
                .first { $0.hasSuffix(".jpg") })
        let refused: [(String, String)] = [
            ("/dev/null", "not a regular file"), (fifo.path, "not a regular file"), (out.appendingPathComponent("link.jpg").path, "symbolic link"),
            (readOnly.path, "read-only"), (target.path, "--force"), (out.path, "folder"), ("", "empty"),
            (tool.library.appendingPathComponent("originals/\(original)").path, "inside the library"),
            (tool.library.appendingPathComponent("new.jpg").path, "inside the library"),
            (out.appendingPathComponent("nowhere/x.jpg").path, "no folder"),
        ]
        for (path, reason) in refused {
            for force in [false, true] where !(force && reason == "--force") {
                let run = try tool.run(["thumb", id, "--size", "64x64", "-o", path] + (force ? ["--force"] : []))
                #expect(run.status == 1 && run.errors.contains(reason), "\(path) \(force): \(run.errors)")
            }
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        #expect(try String(contentsOf: readOnly, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: out.appendingPathComponent("link.jpg").path) == target.path)
        #expect(try tool.run("check").status == 0, "the originals are untouched")
        #expect(try tool.run("thumb", id, "--size", "64x64", "-o", target.path, "--force").status == 0)
        #expect(try Data(contentsOf: target).starts(with: [0xFF, 0xD8]))
    }

    @Test func exportWritesNoWhereElseAndNamesAreData() throws {
        try tool.run("init")
        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let hostile = ["../../../escaped.jpg", "sub/dir/../../up.jpg", "\u{1B}[2J\u{1B}[31mred\nline.jpg", "..", "C:\\Users\\me\\win.jpg"]
        var ids: [String] = []
        try library.performChangesAndWait {
            for name in hostile {
                let request = PHAssetCreationRequest.forAsset()
                let options = PHAssetResourceCreationOptions()
                options.originalFilename = name
                request.addResource(with: .photo, fileURL: try! tool.photo("\(UUID().uuidString).jpg", in: "sources"), options: options)
                ids.append(request.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let names = library.withCurrentLibrary {
            let assets = PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)
            return assets.objects(at: IndexSet(integersIn: 0..<assets.count)).map { PHAssetResource.assetResources(for: $0)[0].originalFilename }
        }
        #expect(names == ["escaped.jpg", "up.jpg", "redline.jpg", names[3], "win.jpg"], "\(names)")
        #expect(names[3].hasSuffix(".jpg") && names[3].count == 40, "nothing recognisable: the file keeps its own name")

        let folder = tool.directory.appendingPathComponent("exports/here")
        let run = try tool.run(["export"] + ids + ["--to", folder.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == names.sorted())
        #expect(!FileManager.default.fileExists(atPath: tool.directory.appendingPathComponent("escaped.jpg").path))
        #expect(!run.output.contains("\u{1B}") && !run.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        // A name already taken in the folder gets a number; a dangling link there is not written through.
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("escaped 2.jpg"),
            withDestinationURL: tool.directory.appendingPathComponent("elsewhere.jpg"))
        #expect(try tool.run("export", ids[0], "--to", folder.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped 3.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: tool.directory.appendingPathComponent("elsewhere.jpg").path))

        for (to, reason) in [
            ("", "empty"), (tool.library.appendingPathComponent("originals").path, "inside the library"),
            (tool.library.path, "inside the library"),
        ] {
            let refused = try tool.run("export", ids[0], "--to", to)
            #expect(refused.status == 1 && refused.errors.contains(reason), "\(to): \(refused.errors)")
        }
    }

    @Test func titlesAndNamesReachTheTerminalEscaped() throws {
        let id = try onePhoto()
        let title = "Trip \u{1B}]0;owned\u{07}\u{1B}[2J\u{202E}gpj.exe"
        // The library takes no title with control characters now; one stored
        // before (or by another tool) still reaches the terminal escaped.
        let refused = try tool.run("album", "create", title)
        #expect(refused.status != 0 && refused.errors.contains("control character") && !refused.errors.contains("\u{1B}"), "\(refused.errors)")
        #expect(try tool.run("album", "create", "Trip").status == 0)
        try DatabaseSurgery.execute("UPDATE collection SET title = ? WHERE title = 'Trip'", arguments: [title], in: tool.library)
        #expect(try tool.run("album", "add", "Trip", id).status == 1, "the title is not a prefix match")
        let listing = try tool.run("album", "ls")
        #expect(!listing.output.contains("\u{1B}") && !listing.output.contains("\u{202E}"))
        #expect(listing.output.contains("Trip \\e]0;owned\\x07\\e[2J\\u{202E}gpj.exe"), "\(listing.output)")
        let json = try tool.run("album", "ls", "--json")
        #expect((json.json as? [[String: Any]])?.first?["title"] as? String == title, "JSON keeps the title as it is")
        #expect(!json.output.contains("\u{202E}") && !json.output.contains("\u{1B}"), "and escapes what a terminal would act on")
        let folderRun = try tool.run("folder", "ls")
        #expect(!folderRun.output.contains("\u{1B}"))
        let missing = try tool.run("show", "\u{1B}[31mnope")
        #expect(missing.status == 1 && !missing.errors.contains("\u{1B}") && missing.errors.contains("\\e[31mnope"))
    }

    @Test func importAccountsForLinksPipesAndHiddenFiles() throws {
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        try tool.photo("A.JPG")
        try tool.photo("B.JPG", in: "elsewhere", shade: 80)
        try tool.photo("C.JPG", in: "elsewhere/deeper", shade: 160)
        try tool.photo("._A.JPG", shade: 40)
        let links: [(String, URL)] = [
            ("to-file.jpg", tool.directory.appendingPathComponent("elsewhere/B.JPG")),
            ("to-folder", tool.directory.appendingPathComponent("elsewhere/deeper")),
            ("dangling.jpg", tool.directory.appendingPathComponent("nothing.jpg")),
            ("loop", card),
        ]
        for (name, destination) in links {
            try FileManager.default.createSymbolicLink(at: card.appendingPathComponent(name), withDestinationURL: destination)
        }
        #expect(mkfifo(card.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
        let run = try tool.run("import", "card", "--json")
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        #expect((report["imported"] as? [Any])?.count == 3, "A, B through its link, C through the linked folder")
        let skipped = Dictionary(
            uniqueKeysWithValues: ((report["skipped"] as? [[String: String]]) ?? []).map {
                (URL(fileURLWithPath: $0["file"]!).lastPathComponent, $0["reason"]!)
            })
        #expect(skipped["dangling.jpg"]?.contains("link to nothing") == true)
        #expect(skipped["pipe.jpg"]?.contains("named pipe") == true)
        #expect(skipped["loop"]?.contains("already imported") == true)
        #expect(skipped["._A.JPG"] == "hidden")

        // A folder given through a link is walked like the folder itself.
        try FileManager.default.createSymbolicLink(at: tool.directory.appendingPathComponent("card-link"), withDestinationURL: card)
        let again = try #require(try tool.run("import", "card-link", "--json", "--duplicates", "keep").json as? [String: Any])
        #expect((again["imported"] as? [Any])?.count == 3)
        let text = try tool.run("import", "card")
        #expect(
            text.errors.contains("pipe.jpg: a named pipe, not a file to import") && text.output.contains("1 hidden files and folders left out"),
            "\(text.output)\(text.errors)")
    }

    /// A folder as a NAS, a phone's export and a desktop leave it: sidecars
    /// are recognised as such, thumbnail folders, system files and
    /// documents are left out saying what they are, and none of them counts
    /// as a file that could not be read. A PDF named like a photo is
    /// refused for what it is; a Motion-JPEG AVI from a compact camera is a video.
    @Test func whatIsNotAPhotoIsLeftOutAndSaidSo() throws {
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        let photo = try tool.photo("IMG_0001.JPG")
        try tool.photo("SYNOPHOTO_THUMB_XL.jpg", in: "card/@eaDir/IMG_0001.JPG", shade: 90)
        for (name, text) in [
            ("IMG_0001.JPG.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>"), ("IMG_0001.AAE", "<plist/>"),
            ("IMG_0001.JPG.json", "{\"title\": \"IMG_0001.JPG\"}"), ("Thumbs.db", "\0\0"), ("desktop.ini", "[.ShellClassInfo]"),
        ] {
            try Data(text.utf8).write(to: card.appendingPathComponent(name))
        }
        let pdf = URL(fileURLWithPath: "/usr/share/forensics-samples/original-files/text1/a-text.pdf")
        try FileManager.default.copyItem(at: pdf, to: card.appendingPathComponent("letter.pdf"))
        try FileManager.default.copyItem(at: pdf, to: card.appendingPathComponent("scan.jpg"))
        try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-c:v", "mjpeg",
                card.appendingPathComponent("MVI_0002.AVI").path,
            ])
        #expect(FileManager.default.fileExists(atPath: photo.path))

        let run = try tool.run("import", "card", "--json")
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        #expect((report["imported"] as? [Any])?.count == 2, "the photo and the AVI")
        let failed = (report["failed"] as? [[String: Any]]) ?? []
        #expect(
            failed.count == 1 && (failed.first?["file"] as? String)?.hasSuffix("scan.jpg") == true
                && (failed.first?["error"] as? String)?.contains("a PDF document, not a photo or video") == true, "\(failed)")
        let skipped = ((report["skipped"] as? [[String: String]]) ?? []).map { (URL(fileURLWithPath: $0["file"]!).lastPathComponent, $0["kind"]!) }
        #expect(Set(skipped.filter { $0.1 == "sidecar" }.map(\.0)) == ["IMG_0001.JPG.xmp", "IMG_0001.AAE", "IMG_0001.JPG.json"])
        #expect(Set(skipped.filter { $0.1 == "notMedia" }.map(\.0)) == ["@eaDir", "Thumbs.db", "desktop.ini", "letter.pdf"])
        let listing = try #require(try tool.run("ls", "--json").json as? [[String: Any]])
        #expect(listing.contains { ($0["originalFilename"] as? String) == "MVI_0002.AVI" && ($0["mediaType"] as? String) == "video" }, "\(listing)")

        let text = try tool.run("import", "card", "--duplicates", "keep")
        #expect(
            text.output.contains("1 could not be read") && text.output.contains("4 not photos or videos left out")
                && text.output.contains("3 other sidecar files left beside their photos"), "\(text.output)")
        #expect(text.errors.contains("@eaDir: a Synology thumbnail folder") && !text.errors.contains("IMG_0001.AAE"), "\(text.errors)")
    }

    /// Names the file system allows are imported whatever their bytes: a
    /// Latin-1 name from an old Windows zip ("Café.jpg" as E9, not UTF-8)
    /// and a file below a folder path longer than PATH_MAX (4,096 bytes),
    /// each reported, and kept, under the name a person reads.
    @Test func namesThatAreNotUTF8AndPathsPastPathMaxAreImported() throws {
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: try tool.photo("source.jpg", in: "sources"))
        // "Caf\xE9.jpg": Latin-1, written by its bytes.
        let latin1 = Array(card.path.utf8) + Array("/Caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let descriptor = latin1.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) } }
        #expect(descriptor >= 0)
        _ = jpeg.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // 24 folders of 200 bytes each, made one below the other with mkdirat: 4,800 bytes of path.
        var folder = open(card.path, O_RDONLY | O_DIRECTORY)
        let segment = String(repeating: "d", count: 200)
        for _ in 0..<24 {
            #expect(mkdirat(folder, segment, 0o755) == 0)
            let next = openat(folder, segment, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
        }
        let deep = openat(folder, "IMG_0002.JPG", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        let other = try Data(contentsOf: try tool.photo("other.jpg", in: "sources", shade: 90))
        _ = other.withUnsafeBytes { write(deep, $0.baseAddress, $0.count) }
        close(deep)
        close(folder)

        let temporary = tool.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try tool.run(["import", "card", "--json"], environment: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        let imported = ((report["imported"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
        #expect((report["failed"] as? [Any])?.isEmpty == true && (report["skipped"] as? [Any])?.isEmpty == true, "\(report)")
        #expect(imported.count == 2)
        #expect(imported.contains(card.path + "/Café.jpg"), "\(imported)")
        #expect(imported.contains { $0.hasSuffix("/" + segment + "/IMG_0002.JPG") && $0.utf8.count > 4_800 }, "\(imported)")
        let names = try #require(try tool.run("ls", "--json").json as? [[String: Any]]).compactMap { $0["originalFilename"] as? String }
        #expect(Set(names) == ["Café.jpg", "IMG_0002.JPG"])
        // Nothing of the walk's links is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("photos-import-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func badInputIsRefusedWithAReason() throws {
        let id = try onePhoto()
        let refused: [[String]] = [
            ["ls", "--limit", "0"], ["ls", "--sort", "creationDate:wrong"], ["ls", "--sort", ":desc"], ["watch", "--sort", "creationDate:up"],
            ["export", id, "--to", ""], ["ls", "--library", ""], ["album", "create", ""], ["folder", "create", "  "],
            ["album", "rename", "x", ""], ["thumb", id, "--size", "64x64", "-o", ""],
        ]
        for arguments in refused {
            let run = try tool.run(arguments)
            #expect(run.status == 1 && !run.errors.isEmpty, "\(arguments): \(run.status) \(run.errors)")
        }
        #expect(try tool.run("ls", "--sort", "creationDate:DESC").status == 0)
    }

    @Test func thumbSaysWhenTheOriginalIsMissing() throws {
        let id = try onePhoto()
        let originals = tool.library.appendingPathComponent("originals")
        let original = try #require(try FileManager.default.subpathsOfDirectory(atPath: originals.path).first { $0.hasSuffix(".jpg") })
        try FileManager.default.removeItem(at: originals.appendingPathComponent(original))
        let run = try tool.run("thumb", id, "--size", "32x32", "-o", tool.directory.appendingPathComponent("t.jpg").path)
        #expect(
            run.status == 0 && run.errors.contains("warning:") && run.errors.contains("IMG_1.JPG") && run.errors.contains("missing"),
            "\(run.errors)")
        let json = try tool.run("thumb", id, "--size", "32x32", "-o", tool.directory.appendingPathComponent("u.jpg").path, "--json")
        #expect(((json.json as? [String: Any])?["warning"] as? String)?.contains("missing") == true)
    }
}
