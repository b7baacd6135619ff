import Foundation
import Photos
import PhotosMedia
import PhotosTestSupport
import Testing

/// The `photos` command end to end: the built binary, run as a process
/// against a temporary library, with its output parsed back.
@Suite(.tags(.slow)) struct PhotosCommandTests {
    let tool: CommandLineTool

    init() throws {
        tool = try CommandLineTool()
    }

    private func identifiers(_ run: CommandLineTool.Run) -> [String] {
        (run.json as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String } ?? []
    }

    /// A library with three photos: a.jpg oldest, c.jpg newest.
    private func libraryWithThreePhotos() throws -> [String] {
        try tool.run("init")
        for (index, name) in ["a.jpg", "b.jpg", "c.jpg"].enumerated() {
            try tool.photo(name, taken: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 86_400), shade: Double(index) * 50)
        }
        let imported = try tool.run("import", "card", "--json")
        #expect(imported.status == 0, "\(imported.errors)")
        return identifiers(try tool.run("ls", "--json"))
    }

    @Test func initAndInfo() throws {
        let missing = try tool.run("info")
        #expect(missing.status == 1 && missing.errors.contains("no library at") && missing.errors.contains("photos init"))
        #expect(try tool.run("init").output.contains("Created a library"))
        #expect(try tool.run("init").output.contains("already"))
        try tool.photo("a.jpg")
        try tool.run("import", "card")
        let info = try #require(try tool.run("info", "--json").json as? [String: Any])
        #expect((info["assets"] as? [String: Int])?["images"] == 1)
        #expect((info["history"] as? [String: Any])?["changeCount"] as? Int == 1)
        #expect((info["bytesOnDisk"] as? Int ?? 0) > 0)
        let text = try tool.run("info").output
        #expect(text.contains("1 images") && text.contains("History:  1 change blocks") && text.contains("Token:"))
    }

    @Test func aDamagedLibraryIsALibraryError() throws {
        try tool.run("init")
        let database = tool.library.appendingPathComponent("database/Photos.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: database)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        let run = try tool.run("ls")
        #expect(run.status == 2 && run.errors.hasPrefix("photos: ") && run.errors.split(separator: "\n").count == 1)
    }

    @Test func importAccountsForEveryFile() throws {
        try tool.run("init")
        try tool.photo("IMG_1.JPG")
        try tool.photo("IMG_2.JPG", in: "card/sub", shade: 90)
        try FileManager.default.copyItem(
            at: tool.directory.appendingPathComponent("card/IMG_1.JPG"),
            to: tool.directory.appendingPathComponent("card/sub/copy.jpg"))
        try Data("notes".utf8).write(to: tool.directory.appendingPathComponent("card/notes.dat"))
        try Data("notes".utf8).write(to: tool.directory.appendingPathComponent("card/notes.txt"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: tool.directory.appendingPathComponent("card/broken.jpg"))

        let run = try tool.run("import", "card")
        #expect(run.status == 0)
        #expect(run.output.contains("Imported 2 files; 1 duplicates skipped; 2 could not be read; 1 not photos or videos left out"), "\(run.output)")
        #expect(run.errors.contains("skipped \(tool.directory.path)/card/notes.dat: "))
        #expect(run.errors.contains("skipped \(tool.directory.path)/card/notes.txt: a text file, not a photo or video"))
        #expect(run.errors.contains("/card/broken.jpg: "))
        // Not a terminal: plain progress lines, the last one complete.
        #expect(run.errors.split(separator: "\n").contains { $0.hasPrefix("progress: 5/5 files") })

        let again = try #require(try tool.run("import", "card", "--json", "--duplicates", "keep").json as? [String: Any])
        #expect((again["imported"] as? [[String: Any]])?.count == 3)
        #expect((again["failed"] as? [[String: Any]])?.compactMap { $0["code"] as? Int } == [3302, 3302])
        #expect(again["interrupted"] as? Bool == false)
        let quiet = try tool.run("import", "card", "--quiet")
        #expect(quiet.output.isEmpty && !quiet.errors.contains("progress"))

        #expect(try tool.run("import", "nowhere").status == 1)
        #expect(try tool.run("import", "card", "--batch", "0").status == 1)
        #expect(try tool.run("import", "card", "--duplicates", "sometimes").status == 1)
        #expect(try tool.run("import").status == 1)
    }

    @Test func listFiltersSortsAndLimits() throws {
        let all = try libraryWithThreePhotos()
        #expect(all.count == 3)
        let newestFirst = identifiers(try tool.run("ls", "--sort", "creationDate:desc", "--json"))
        #expect(newestFirst == all.reversed())
        #expect(identifiers(try tool.run("ls", "--limit", "2", "--json")) == Array(all.prefix(2)))

        try tool.run("favorite", all[1])
        #expect(identifiers(try tool.run("ls", "--where", "favorite == YES", "--json")) == [all[1]])
        try tool.run("hide", all[2])
        #expect(identifiers(try tool.run("ls", "--json")) == Array(all.prefix(2)))
        #expect(identifiers(try tool.run("ls", "--hidden", "--json")) == all)

        let table = try tool.run("ls", "--hidden")
        #expect(table.lines.first?.hasPrefix("IDENTIFIER") == true && table.lines.count == 4)
        #expect(table.lines.contains { $0.contains(all[1]) && $0.contains("  F  ") && $0.hasSuffix("b.jpg") })

        let bad = try tool.run("ls", "--where", "favorite == YES AND")
        #expect(bad.status == 1 && bad.errors.contains("position") && bad.errors.contains("^"))
        let badKey = try tool.run("ls", "--where", "colour == 'red'")
        #expect(badKey.status == 1 && badKey.errors.contains("colour"))
        #expect(try tool.run("ls", "--sort", "colour").status == 1)
        #expect(try tool.run("ls", "--limit", "-1").status == 1)
        #expect(try tool.run("ls", "--album", "Nothing").status == 1)
        #expect(try tool.run("ls", "--trash", "--album", "X").status == 1)
    }

    @Test func showEverything() throws {
        let all = try libraryWithThreePhotos()
        let shown = try #require(try tool.run("show", all[0], "--json").json as? [String: Any])
        #expect(shown["localIdentifier"] as? String == all[0] && shown["pixelWidth"] as? Int == 64)
        #expect((shown["resources"] as? [[String: Any]])?.first?["originalFilename"] as? String == "a.jpg")
        let uuidOnly = try tool.run("show", String(all[0].prefix(36)))
        #expect(uuidOnly.status == 0 && uuidOnly.output.contains("creationDate") && uuidOnly.output.contains("resources:"))
        let unknown = try tool.run("show", "00000000-0000-0000-0000-000000000000")
        #expect(unknown.status == 1 && unknown.errors.contains("no asset"))
        #expect(try tool.run("show").status == 1)
    }

    @Test func albumsAndFolders() throws {
        let all = try libraryWithThreePhotos()
        let album = try #require(try tool.run("album", "create", "Summer", "--json").json as? [String: Any])["localIdentifier"] as? String
        try tool.run("folder", "create", "Trips")
        try tool.run("folder", "create", "2020", "--in", "Trips")
        #expect(try tool.run("album", "add", "Summer", all[0], all[1]).status == 0)
        #expect(try tool.run("album", "remove", "Summer", all[0]).status == 0)
        #expect(identifiers(try tool.run("ls", "--album", "Summer", "--json")) == [all[1]])
        #expect(try tool.run("album", "rename", album!, "Summer 2020").status == 0)
        #expect(try tool.run("album", "move", "Summer 2020", "--to", "2020").status == 0)

        let tree = try #require(try tool.run("folder", "ls", "--json").json as? [[String: Any]])
        let trips = try #require(tree.first)
        let year = try #require((trips["children"] as? [[String: Any]])?.first)
        #expect(trips["title"] as? String == "Trips" && year["title"] as? String == "2020")
        #expect((year["children"] as? [[String: Any]])?.first?["title"] as? String == "Summer 2020")
        #expect(try tool.run("folder", "ls").output.contains("\n    Summer 2020 [album"))

        let albums = try #require(try tool.run("album", "ls", "--json").json as? [[String: Any]])
        #expect(albums.map { $0["count"] as? Int } == [1])
        #expect(try tool.run("album", "move", "Summer 2020", "--top").status == 0)
        #expect((try tool.run("folder", "ls", "--json").json as? [[String: Any]])?.count == 2)

        // Two albums with one title: names are ambiguous, identifiers are not.
        try tool.run("album", "create", "Twin")
        try tool.run("album", "create", "Twin")
        let ambiguous = try tool.run("album", "add", "Twin", all[0])
        #expect(ambiguous.status == 1 && ambiguous.errors.contains("2 albums are named Twin"))
        #expect(try tool.run("album", "add", "Summer 2020", "no-such-asset").status == 1)
        #expect(try tool.run("album", "move", "Summer 2020").status == 1)
        #expect(try tool.run("folder", "add", "Trips", "Nothing").status == 1)

        #expect(try tool.run("folder", "rename", "Trips", "Travels").status == 0)
        #expect(try tool.run("folder", "add", "Travels", "Summer 2020").status == 0)
        #expect(try tool.run("album", "delete", "Twin", "Twin").status == 1, "ambiguous")
        #expect(try tool.run("folder", "delete", "Travels").status == 0)
        #expect(try tool.run("ls", "--album", "Summer 2020").status == 1, "deleted with its folder")
        #expect((try tool.run("album", "ls", "--json").json as? [[String: Any]])?.count == 2)
        #expect(identifiers(try tool.run("ls", "--json")).count == 3, "deleting albums keeps their assets")
    }

    @Test func favoritesHiddenAndRecentlyDeleted() throws {
        let all = try libraryWithThreePhotos()
        #expect(try tool.run("favorite", all[0], all[1]).output.contains("Favorited 2 assets"))
        try tool.run("unfavorite", all[1])
        #expect(identifiers(try tool.run("ls", "--where", "favorite == YES", "--json")) == [all[0]])
        try tool.run("hide", all[0])
        try tool.run("unhide", all[0])
        #expect(identifiers(try tool.run("ls", "--json")) == all)

        try tool.run("delete", all[2])
        #expect(identifiers(try tool.run("trash", "ls", "--json")) == [all[2]])
        #expect(identifiers(try tool.run("ls", "--trash", "--json")) == [all[2]])
        try tool.run("restore", all[2])
        #expect(identifiers(try tool.run("ls", "--json")) == all)
        try tool.run("delete", all[2])
        #expect((try tool.run("trash", "empty", "--json").json as? [String: Int])?["deleted"] == 1)
        #expect(try tool.run("restore", all[2]).status == 1, "gone for good")
        #expect(try tool.run("favorite").status == 1)
    }

    /// Ratings, captions and keywords set from the terminal, filtered by,
    /// exported in XMP sidecars, and read back by another library's import.
    @Test func ratingsCaptionsAndKeywordsRoundTripThroughSidecars() throws {
        let all = try libraryWithThreePhotos()
        #expect(try tool.run("rate", "4", all[0], all[1]).output.contains("Rated 2 assets"))
        #expect(try tool.run("rate", "6", all[0]).status == 1)
        try tool.run("caption", "Harbour & <boats>", all[0])
        try tool.run("keyword", "add", "harbour", all[0], all[2])
        try tool.run("keyword", "add", "boats", all[0])
        try tool.run("keyword", "rm", "harbour", all[2])
        #expect(identifiers(try tool.run("ls", "--where", "rating >= 4", "--json")) == [all[0], all[1]])
        #expect(identifiers(try tool.run("ls", "--where", "ANY keywords == 'boats'", "--json")) == [all[0]])
        #expect(try tool.run("ls").output.contains("****"))
        let shown = try tool.run("show", all[0], "--json").json as? [String: Any]
        #expect(shown?["rating"] as? Int == 4 && shown?["caption"] as? String == "Harbour & <boats>")
        #expect(shown?["keywords"] as? [String] == ["harbour", "boats"])
        #expect(try tool.run("keyword", "add", "two\\nlines", all[0]).status == 0, "a backslash and n are text")
        let tooLong = try tool.run("caption", String(repeating: "x", count: 20_000), all[0])
        #expect(tooLong.status == 1 && tooLong.errors.contains("at most 16384"), "\(tooLong.errors)")

        let exported = try tool.run("export", all[0], "--to", "out", "--original", "--sidecars", "--json")
        let files = (exported.json as? [[String: String]])?.compactMap { $0["file"].map { URL(fileURLWithPath: $0).lastPathComponent } }
        #expect(files == ["a.jpg", "a.jpg.xmp"])
        let read = try DebianTool.run(
            "exiftool", ["-j", "-XMP:Rating", "-XMP:Description", "-XMP:Subject", tool.directory.appendingPathComponent("out/a.jpg.xmp").path])
        let tags = (try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [[String: Any]])?.first
        #expect(tags?["Rating"] as? Int == 4 && tags?["Description"] as? String == "Harbour & <boats>")
        #expect(tags?["Subject"] as? [String] == ["harbour", "boats", "two\\nlines"])

        try tool.run("init", "copy.photoslibrary")
        #expect(try tool.run("import", "out", "--library", "copy.photoslibrary").status == 0)
        let copied = try #require((try tool.run("ls", "--library", "copy.photoslibrary", "--json").json as? [[String: Any]])?.first)
        #expect(copied["rating"] as? Int == 4 && copied["caption"] as? String == "Harbour & <boats>")
        #expect(copied["keywords"] as? [String] == ["harbour", "boats", "two\\nlines"])
        #expect(copied["creationDate"] as? String == shown?["creationDate"] as? String)
    }

    @Test func changesSinceAToken() throws {
        let all = try libraryWithThreePhotos()
        let token = try #require(try tool.run("changes").lines.last)
        #expect(try tool.run("changes", "--since", token).output.hasPrefix("no changes"))
        try tool.run("favorite", all[0])
        try tool.run("album", "create", "Later")
        let changes = try #require(try tool.run("changes", "--since", token, "--json").json as? [String: Any])
        let list = try #require(changes["changes"] as? [[String: Any]])
        #expect(list.count == 2)
        #expect((list[0]["assets"] as? [String: [String]])?["updated"] == [all[0]])
        #expect(((list[1]["albums"] as? [String: [String]])?["inserted"])?.count == 1)
        let next = try #require(changes["token"] as? String)
        #expect(try tool.run("changes", "--since", next).output.hasPrefix("no changes"))
        let text = try tool.run("changes", "--since", token)
        #expect(text.output.contains("~ asset \(all[0])") && text.lines.last == next)

        let garbage = try tool.run("changes", "--since", "not-a-token")
        #expect(garbage.status == 1 && garbage.errors.contains("not a change token"))
        // A token of another library names nothing here.
        let other = try CommandLineTool()
        try other.run("init")
        let foreign = try #require(try other.run("changes").lines.last)
        #expect(try tool.run("changes", "--since", foreign).status == 1)
    }

    @Test func watchSeesAnotherProcessesChanges() throws {
        let all = try libraryWithThreePhotos()
        let (watcher, output, errors) = try tool.start(["watch", "--json", "--count", "1"])
        // Ready once it says what it watches.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("watching") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        #expect(String(decoding: said, as: UTF8.self).contains("watching 3 assets"))
        try tool.run("favorite", all[1])
        let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        watcher.waitUntilExit()
        #expect(watcher.terminationStatus == 0)
        let change = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(change["changed"] as? [Int] == [1] && change["changedObjects"] as? [String] == [all[1]])
        #expect(change["incremental"] as? Bool == true && change["count"] as? Int == 3)

        #expect(try tool.run("watch", "--count", "0").status == 1)
        #expect(try tool.run("watch", "--where", "favorite ==").status == 1)
    }

    @Test func thumbnailsAndExports() throws {
        let all = try libraryWithThreePhotos()
        let fill = try tool.run("thumb", all[0], "--size", "32x32", "-o", "fill.jpg", "--json")
        #expect((fill.json as? [String: Any]).map { [$0["width"] as? Int, $0["height"] as? Int] } == [32, 32])
        let written = UIImage(contentsOfFile: tool.directory.appendingPathComponent("fill.jpg").path)
        #expect(written?.size == CGSize(width: 32, height: 32))
        #expect(try tool.run("thumb", all[0], "--size", "40x40", "--mode", "fit", "-o", "fit.png").output.contains("40x30"))
        #expect(UIImage(contentsOfFile: tool.directory.appendingPathComponent("fit.png").path)?.size == CGSize(width: 40, height: 30))
        #expect(try tool.run("thumb", all[0], "--size", "20x20", "--crop", "0.5,0.5,0.5,0.5", "-o", "crop.jpg").status == 0)
        #expect(try tool.run("thumb", all[0], "--size", "big", "-o", "x.jpg").status == 1)
        #expect(try tool.run("thumb", all[0], "--size", "20x20", "--crop", "0.5,0.5,0.9,0.5", "-o", "x.jpg").status == 1)
        #expect(try tool.run("thumb", all[0], "--size", "20x20", "--mode", "stretch", "-o", "x.jpg").status == 1)
        #expect(try tool.run("thumb", all[0], "--size", "20x20").status == 1)
        #expect(try tool.run("thumb", all[0], "--size", "20x20", "-o", "/no/such/dir/x.jpg").status == 1)

        let exported = try tool.run("export", all[0], all[1], "--to", "out", "--original", "--json")
        #expect((exported.json as? [[String: String]])?.compactMap { $0["file"].map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a.jpg", "b.jpg"])
        let original = try Data(contentsOf: tool.directory.appendingPathComponent("card/a.jpg"))
        #expect(try Data(contentsOf: tool.directory.appendingPathComponent("out/a.jpg")) == original)
        #expect(try tool.run("export", all[0], "--to", "out").output.contains("out/a 2.jpg"))
        #expect(try tool.run("export", all[0], "--to", "out", "--original", "--current").status == 1)
        #expect(try tool.run("export", "--to", "out").status == 1)
    }

    @Test func clientAccess() throws {
        let all = try libraryWithThreePhotos()
        #expect(try tool.run("access", "grant", "com.example.picker", "--limited", all[0], all[1]).output.contains("limited to 2 assets"))
        try tool.run("access", "grant", "com.example.viewer", "--full")
        try tool.run("access", "grant", "com.example.camera", "--add-only")
        try tool.run("access", "revoke", "com.example.viewer")
        let clients = try #require(try tool.run("access", "ls", "--json").json as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: clients.map { ($0["client"] as! String, $0["access"] as! String) })
        #expect(byName == ["com.example.picker": "limited", "com.example.viewer": "denied", "com.example.camera": "add-only"])
        // The client sees its selection.
        let picker = try tool.run(["ls", "--json"], environment: ["PHOTOS_CLIENT_ID": "com.example.picker"])
        #expect(identifiers(picker) == Array(all.prefix(2)))
        #expect(try tool.run("access", "grant", "com.example.x").status == 1)
        #expect(try tool.run("access", "grant", "com.example.x", "--full", "--add-only").status == 1)
        #expect(try tool.run("access", "grant", "com.example.x", "--limited", "nope").status == 1)
    }

    @Test func infoAndChangesTellEachClientOnlyWhatItsGrantCovers() throws {
        let all = try libraryWithThreePhotos()
        try tool.run("access", "grant", "com.example.picker", "--limited", all[0])
        try tool.run("access", "grant", "com.example.camera", "--add-only")
        try tool.run("favorite", all[2])
        let owner = try #require(try tool.run("info", "--json").json as? [String: Any])
        let picker = try #require(try tool.run(["info", "--json"], environment: ["PHOTOS_CLIENT_ID": "com.example.picker"]).json as? [String: Any])
        #expect((owner["assets"] as? [String: Int])?["images"] == 3 && (picker["assets"] as? [String: Int])?["images"] == 1)
        #expect(owner["bytesOnDisk"] != nil && picker["bytesOnDisk"] == nil, "the library's size on disk is the owner's to know")
        #expect((picker["storedBytes"] as? Int ?? 0) < (owner["storedBytes"] as? Int ?? 0))
        let ownerHistory = (owner["history"] as? [String: Any])?["changeCount"] as? Int ?? 0
        let pickerHistory = (picker["history"] as? [String: Any])?["changeCount"] as? Int ?? 0
        #expect(pickerHistory < ownerHistory + 2, "the picker's history leaves out the favorite of a photo it cannot see")
        let tokens = try [owner, picker].map { try ChangeToken(text: try #require($0["currentToken"] as? String)) }
        #expect(tokens[0].opaque == nil && tokens[1].opaque == true && tokens[1].changeBlock != tokens[0].changeBlock)

        let camera = try tool.run(["info", "--json"], environment: ["PHOTOS_CLIENT_ID": "com.example.camera"])
        #expect(camera.status == 0 && (camera.json as? [String: Any])?.keys.sorted() == ["access", "library"], "\(camera.output)")
        let changes = try tool.run(["changes", "--since", tokens[0].text], environment: ["PHOTOS_CLIENT_ID": "com.example.camera"])
        #expect(changes.status == 2 && changes.errors.contains("add-only"), "\(changes.errors)")
    }

    @Test func theDemoToursASmallLibrary() throws {
        let run = try tool.run("demo", "--assets", "60", "--library", tool.directory.appendingPathComponent("Demo.photoslibrary").path)
        #expect(run.status == 0, "\(run.errors)")
        let headings = run.lines.filter { $0.first?.isNumber == true && $0.contains(". ") }
        #expect(headings.count == 13 && run.output.contains("Done"), "\(run.output)")
        #expect(run.output.contains("photos search kyoto: ") && !run.output.contains("photos search kyoto: 0 found"), "\(run.output)")
        #expect(run.output.contains("photos search plumber: 1 found"), "the receipt's text: \(run.output)")
        #expect(run.output.contains("photos search person:salley: 4 found"), "the people found and named: \(run.output)")
        #expect(!run.output.contains("\\n") && !run.output.contains("\\e"), "the demo's own text needs no escaping")
    }

    @Test func helpEverywhereWithExamples() throws {
        for command in [
            [], ["import"], ["ls"], ["album"], ["album", "create"], ["folder"], ["changes"], ["watch"], ["thumb"],
            ["export"], ["access"], ["trash"], ["demo"], ["search"], ["index"], ["index", "status"], ["index", "run"], ["index", "rebuild"],
        ] {
            let help = try tool.run(command + ["--help"])
            #expect(help.status == 0 && help.output.contains("USAGE"), "\(command)")
            #expect(help.output.contains("Example"), "\(command) shows examples")
        }
        let unknown = try tool.run("frobnicate")
        #expect(unknown.status == 1 && !unknown.errors.isEmpty)
    }

    /// The README's walkthrough, command for command (the camera folder and
    /// the identifier are the test's own).
    @Test func readmeWalkthrough() throws {
        #expect(try tool.run("init").status == 0)
        try tool.photo("IMG_0001.JPG", in: "DCIM")
        try tool.photo("IMG_0002.JPG", in: "DCIM/100APPLE", shade: 80)
        #expect(try tool.run("import", "DCIM").status == 0)
        #expect(try tool.run("ls", "--limit", "5").lines.count == 3)
        let listed = identifiers(try tool.run("ls", "--where", "favorite == NO AND mediaType == 1", "--sort", "creationDate:desc", "--json"))
        #expect(listed.count == 2)
        let identifier = listed[0]
        #expect(try tool.run("album", "create", "Summer").status == 0)
        #expect(try tool.run("album", "add", "Summer", identifier).status == 0)
        let token = try #require(try tool.run("changes").lines.last)

        let (watcher, output, errors) = try tool.start(["watch"])
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("watching") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        #expect(try tool.run("favorite", identifier).status == 0)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("~ \(identifier)") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        watcher.interrupt()
        watcher.waitUntilExit()
        #expect(String(decoding: seen, as: UTF8.self).contains("change: 2 assets"))
        #expect(watcher.terminationStatus == 0, "Ctrl-C stops watch cleanly")

        let changes = try tool.run("changes", "--since", token)
        #expect(changes.output.contains("~ asset \(identifier)"))
        #expect(try tool.run("thumb", identifier, "--size", "256x256", "-o", "thumb.jpg").status == 0)
        #expect(try tool.run("info").output.contains("2 images"))
    }

    /// A Live Photo's photo and video are paired before the files are cut
    /// into change blocks: here a block of one file each, with another
    /// photo between them in the folder's order.
    @Test func aLivePhotoIsPairedWhereverItsFilesFallInTheBatches() throws {
        try tool.run("init")
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000AA"
        var exif = ExifFields()
        exif.contentIdentifier = identifier
        let card = tool.directory.appendingPathComponent("card")
        try tool.photo("IMG_0002.JPG", shade: 90)
        try SampleImage.jpeg(width: 64, height: 48, from: (10, 40, 60), to: (220, 180, 90), exif: exif)
            .write(to: card.appendingPathComponent("IMG_0001.JPG"))
        try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=30", "-t", "1", "-pix_fmt", "yuv420p",
                "-c:v", "libx264", "-preset", "ultrafast", "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
                "-movflags", "use_metadata_tags", card.appendingPathComponent("IMG_0003.MOV").path,
            ])

        let run = try tool.run("import", "card", "--batch", "1", "--json")
        let report = try #require(run.json as? [String: Any], "\(run.errors)")
        let imported = (report["imported"] as? [[String: String]]) ?? []
        #expect(imported.count == 3 && Set(imported.map { $0["localIdentifier"] }).count == 2, "\(imported)")
        let live = imported.filter { $0["file"]!.hasSuffix("IMG_0001.JPG") || $0["file"]!.hasSuffix("IMG_0003.MOV") }
        #expect(live.count == 2 && live[0]["localIdentifier"] == live[1]["localIdentifier"], "one asset for the pair")
    }

    /// A photo whose EXIF gives no offset (most cameras) is read in the
    /// importing machine's zone, and that zone is recorded: taken at 00:30
    /// on 8 June and imported in Paris, it sits on 8 June, read anywhere.
    @Test func aPhotoWithoutAnOffsetKeepsTheDayItWasTakenOn() throws {
        try tool.run("init")
        var exif = ExifFields()
        exif.dateTimeOriginal = "2024:06:08 00:30:00"
        let card = tool.directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        try SampleImage.jpeg(width: 64, height: 48, from: (10, 40, 60), to: (220, 180, 90), exif: exif)
            .write(to: card.appendingPathComponent("DSC_0001.JPG"))
        let run = try tool.run(["import", "card"], environment: ["TZ": "Europe/Paris"])
        #expect(run.status == 0, "\(run.errors)")

        // Read here, in whatever zone this process has.
        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let asset = try #require(library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_717_799_400), "2024-06-07 22:30 UTC, 00:30 in Paris")
        let june = try #require(try library.timelineMonths().first { $0.year == 2024 && $0.month == 6 })
        #expect(try library.timelineDays(of: june).compactMap(\.day) == [8])
    }

    /// `photos import` dates what libexif cannot: a PNG screenshot by its
    /// XMP, a JPEG without EXIF by its name, on the day it was taken
    /// whatever the zone; and the exiftool it asked ends with it.
    @Test func xmpAndNamesDateWhatEXIFDoesNot() throws {
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let screenshot = card.appendingPathComponent("IMG_0042.PNG")
        try DebianTool.run("vips", ["copy", try tool.photo("source.jpg", in: "sources").path, screenshot.path])
        try DebianTool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-photoshop:DateCreated=2024-06-08T00:30:00",
                "-XMP-exif:UserComment=Screenshot", screenshot.path,
            ])
        try tool.photo("IMG_20240609_003000.jpg")
        let run = try tool.run(["import", "card"], environment: ["TZ": "Europe/Paris"])
        #expect(run.status == 0, "\(run.errors)")

        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let assets = library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).objects(at: IndexSet(0..<2)) }
        #expect(
            assets.compactMap(\.creationDate).sorted() == [Date(timeIntervalSince1970: 1_717_799_400), Date(timeIntervalSince1970: 1_717_885_800)],
            "00:30 in Paris on 8 and 9 June")
        #expect(assets.filter { $0.mediaSubtypes.contains(.photoScreenshot) }.count == 1)
        let june = try #require(try library.timelineMonths().first { $0.year == 2024 && $0.month == 6 })
        #expect(try library.timelineDays(of: june).compactMap(\.day) == [9, 8])

        // Its exiftool is killed with it, not left polling a closed pipe.
        #expect(eventuallyBlocking(within: .seconds(5), every: .milliseconds(100)) { Self.orphanedExifTools().isEmpty }, "\(Self.orphanedExifTools())")
    }

    /// A Google Takeout folder through `photos import`: its JSON read, not
    /// counted as failures, its album folder an album.
    @Test func aTakeoutFolderComesInWithItsDatesAndAlbums() throws {
        try tool.run("init")
        let photo = try tool.photo("IMG_0001.jpg", in: "Takeout/Google Photos/Summer")
        try Data(#"{"title": "IMG_0001.jpg", "photoTakenTime": {"timestamp": "1591576200"}, "favorited": true}"#.utf8)
            .write(to: photo.deletingLastPathComponent().appendingPathComponent("IMG_0001.jpg.supplemental-metadata.json"))
        try Data(#"{"title": "Summer"}"#.utf8).write(to: photo.deletingLastPathComponent().appendingPathComponent("metadata.json"))
        let run = try tool.run("import", "Takeout", "--json")
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        #expect((report["failed"] as? [Any])?.isEmpty == true && (report["sidecarsRead"] as? [String])?.count == 1)
        #expect((report["albums"] as? [String])?.count == 1)
        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let asset = try #require(library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_591_576_200) && asset.isFavorite)
        let album = library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).firstObject }
        #expect(album?.localizedTitle == "Summer")
        let text = try tool.run("import", "Takeout")
        #expect(text.output.contains("1 sidecars read") && text.output.contains("0 could not be read"), "\(text.output)")
    }

    /// Takeout as Google delivers it: zip archives, an album split across
    /// two of them. They are extracted together (the album's metadata and
    /// the photo's JSON in one, the photo in the other), a link an archive
    /// holds is not followed, and nothing extracted is left.
    @Test func takeoutZipsComeInAsOneExport() throws {
        try tool.run("init")
        let export = tool.directory.appendingPathComponent("export")
        let trip = export.appendingPathComponent("part1/Takeout/Google Photos/Trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try Data(#"{"title": "Trip"}"#.utf8).write(to: trip.appendingPathComponent("metadata.json"))
        try Data(#"{"title": "IMG_0001.jpg", "photoTakenTime": {"timestamp": "1591576200"}}"#.utf8)
            .write(to: trip.appendingPathComponent("IMG_0001.jpg.json"))
        try FileManager.default.createSymbolicLink(
            atPath: trip.appendingPathComponent("escape.jpg").path,
            withDestinationPath: try tool.photo("outside.jpg", in: "outside").path)
        let photo = try tool.photo("IMG_0001.jpg", in: "export/part2/Takeout/Google Photos/Trip")
        #expect(FileManager.default.fileExists(atPath: photo.path))
        for part in ["part1", "part2"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
            process.currentDirectoryURL = export.appendingPathComponent(part)
            process.arguments = ["-q", "-r", "-y", tool.directory.appendingPathComponent("takeout-\(part).zip").path, "Takeout"]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let run = try tool.run("import", "takeout-part1.zip", "takeout-part2.zip", "--json")
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(run.json as? [String: Any])
        let imported = ((report["imported"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
        #expect(imported == ["[takeout-part1.zip and 1 more]/Takeout/Google Photos/Trip/IMG_0001.jpg"], "\(report)")
        #expect((report["albums"] as? [String])?.count == 1)
        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let asset = try #require(library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_591_576_200))
        #expect(library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count } == 1, "the link was not followed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tool.library.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".photos-import-archives-") }
        #expect(leftovers.isEmpty)
    }

    /// exiftool sessions whose parent has died (adopted by init).
    private static func orphanedExifTools() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8), command.contains("-stay_open"),
                let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                status.split(separator: "\n").contains("PPid:\t1")
            else { return nil }
            return pid
        }
    }

    @Test func ctrlCStopsAnImportBetweenChangeBlocks() throws {
        try tool.run("init")
        for index in 0..<60 {
            try tool.photo(String(format: "IMG_%04d.JPG", index), width: 800, height: 600, shade: Double(index * 4 % 200))
        }
        let (importer, output, _) = try tool.start(["import", "card", "--batch", "1", "--json"])
        // The known point: the first change block has committed (seen by another process), with 59 to go.
        let watcher = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        _ = eventuallyBlocking(within: .seconds(60), every: .milliseconds(5)) {
            watcher.withCurrentLibrary({ PHAsset.fetchAssets(with: nil).count }) > 0 || !importer.isRunning
        }
        importer.interrupt()
        let report = try #require(try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
        importer.waitUntilExit()
        let imported = (report["imported"] as? [[String: Any]])?.count ?? -1
        #expect(report["interrupted"] as? Bool == true && importer.terminationStatus == 130)
        #expect(imported >= 1 && imported < 60, "stopped after the block in progress: \(imported) imported")
        // Photos 50 to 59 repeat 0 to 9: those whose first was committed are duplicates of it.
        let duplicates = (report["duplicates"] as? [[String: Any]])?.count ?? -1
        #expect(imported + duplicates + (report["notAttempted"] as? Int ?? 0) == 60, "every file accounted for")
        #expect(identifiers(try tool.run("ls", "--json")).count == imported, "every committed block stays, nothing else")
        let staging = (try? FileManager.default.contentsOfDirectory(atPath: tool.library.appendingPathComponent("staging").path)) ?? []
        #expect(staging.filter { !$0.hasPrefix(".") }.isEmpty, "nothing half-imported")
    }
}

/// A change token as `photos` prints it: base64url of its JSON.
struct ChangeToken {
    let text: String
    let changeBlock: Int64?
    let opaque: Bool?

    init(text: String) throws {
        self.text = text
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let json = try JSONSerialization.jsonObject(with: Data(base64Encoded: base64) ?? Data()) as? [String: Any]
        changeBlock = (json?["transaction"] as? NSNumber)?.int64Value
        opaque = json?["opaque"] as? Bool
    }
}
