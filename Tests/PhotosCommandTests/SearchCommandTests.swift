import Foundation
import PhotosTestSupport
import Testing

/// `photos search` and `photos index`, run as processes.
@Suite(.tags(.slow)) struct SearchCommandTests {
    @Test func searchFindsPlacesAndWordsAndIndexSaysWhereItIs() throws {
        let tool = try CommandLineTool()
        try tool.run("init")
        try tool.photo("rome.jpg", taken: Date(timeIntervalSince1970: 1_560_000_000), latitude: 41.8902, longitude: 12.4922)
        try tool.photo("IMG_0007.jpg", taken: Date(timeIntervalSince1970: 1_600_000_000), latitude: 35.6586, longitude: 139.7454)
        #expect(try tool.run("import", "card").status == 0)
        let status = try #require(try tool.run("index", "status", "--json").json as? [String: Any])
        #expect(status["searchable"] as? Int == 0 && status["assets"] as? Int == 2)

        // A search brings the index up to date first.
        let rome = try tool.run("search", "rome", "--json")
        #expect(rome.status == 0, "\(rome.errors)")
        let found = try #require(rome.json as? [[String: Any]])
        #expect(found.count == 1 && found[0]["originalFilename"] as? String == "rome.jpg", "\(found)")
        #expect(try tool.run("search", "place:tokyo", "img_0007").lines.count == 2, "a header and one row")
        #expect(try tool.run("search", "japan", "2019").lines.count == 1, "nothing: only the header")
        // A box of latitudes and longitudes, as a map's marker names its photos.
        #expect(try tool.run("search", "within:41,12,42,13").lines.count == 2, "Rome alone")
        #expect(try tool.run("search", "within:-90,-180,90,180").lines.count == 3, "both")
        #expect(try tool.run("search", "within:42,12,41,13").lines.count == 1, "edges the wrong way round are words that match nothing")
        let identifier = try #require(found[0]["localIdentifier"] as? String)
        try tool.run("caption", "Colosseum at dusk", identifier)
        #expect((try tool.run("search", "colosseum", "--json").json as? [[String: Any]])?.count == 1)

        let after = try #require(try tool.run("index", "status", "--json").json as? [String: Any])
        #expect(after["searchable"] as? Int == 2 && after["located"] as? Int == 2)
        let kinds = try #require(after["kinds"] as? [[String: Any]])
        #expect(kinds.first?["phase"] as? String == "following" && kinds.first?["pendingChanges"] as? Int == 0)
        #expect(try tool.run("index", "rebuild").status == 0)
        let rebuilt = try #require(try tool.run("index", "run", "--json").json as? [String: Any])
        #expect(rebuilt["indexed"] as? Int == 2 * kinds.count, "two assets, by every kind")

        // Text in a photo: read by `photos index run`, found by `photos search`.
        let scans = tool.directory.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        let sample = try TextSamples.make(count: 1, in: scans)[0]
        #expect(try tool.run("import", "scans").status == 0)
        let read = try #require(try tool.run("index", "run", "--kind", "text", "--json").json as? [String: Any])
        #expect(read["indexed"] as? Int == 1, "\(read)")
        let word = try #require(sample.words.first { !$0.allSatisfy(\.isNumber) })
        let byText = try #require(try tool.run("search", word, "--json").json as? [[String: Any]])
        #expect(byText.map { $0["originalFilename"] as? String } == [sample.url.lastPathComponent])
        // A language whose model is missing is named, with its package; the command still succeeds.
        let missing = try tool.run("index", "run", "--text-languages", "eng+zzz")
        #expect(missing.status == 0 && missing.output.contains("tesseract-ocr-zzz"), "\(missing.output)")
        #expect(try tool.run("index", "run", "--kind", "feelings").status != 0)
        // A name that is not a language's is refused before anything runs, by both commands that read text.
        for command in [["index", "run"], ["serve", "--port", "0"]] {
            let refused = try tool.run(command + ["--text-languages", "eng+../../etc/passwd"])
            #expect(refused.status != 0 && refused.errors.contains("is not a list of Tesseract language names"), "\(command): \(refused.errors)")
        }

        // Bad input is the user's, with exit 1 and one line.
        let long = try tool.run("search", String(repeating: "x", count: 1_001))
        #expect(long.status == 1 && long.errors.contains("1000"), "\(long.errors)")
        #expect(try tool.run("search", "rome", "--limit", "0").status == 1)
    }
}
