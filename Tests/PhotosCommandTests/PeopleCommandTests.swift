import Foundation
import PhotosTestSupport
import Testing

/// `photos people`, run as a process: faces indexed by `photos index run
/// --kind faces`, people listed, named, searched, split, merged and hidden.
@Suite(.tags(.slow)) struct PeopleCommandTests {
    @Test func peopleAreListedNamedSplitAndMerged() throws {
        let tool = try CommandLineTool()
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        _ = try FaceSamples.johns(["John_Salley", "John_Simm"], perPerson: 3, in: card)
        #expect(try tool.run("import", "card").status == 0)
        #expect(try tool.run("index", "run", "--kind", "faces").status == 0)

        let listing = try tool.run("people", "--json")
        let people = try #require(listing.json as? [[String: Any]], "\(listing.output) \(listing.errors)")
        #expect(people.count == 2 && people.allSatisfy { $0["assets"] as? Int == 3 }, "\(people)")
        let first = try #require(people.first?["id"] as? String)
        let second = try #require(people.last?["id"] as? String)
        #expect(try tool.run("people", "name", first, "Anna Smith").status == 0)
        let listed = try tool.run("people")
        #expect(listed.output.contains("Anna Smith") && listed.output.contains("2 people"), "\(listed.output)")
        #expect((try tool.run("search", "person:anna", "--json").json as? [Any])?.count == 3)

        let shown = try #require(try tool.run("people", "show", second, "--json").json as? [String: Any])
        let faces = try #require(shown["allFaces"] as? [[String: Any]])
        let face = try #require(faces.first?["id"] as? String)
        let split = try #require(try tool.run("people", "split", face, "--json").json as? [String: Any])
        let alone = try #require(split["person"] as? String)
        #expect((try tool.run("people", "--minimum", "1", "--json").json as? [Any])?.count == 3)
        #expect(try tool.run("people", "merge", second, alone).status == 0)
        #expect((try tool.run("people", "show", second, "--json").json as? [String: Any])?["faces"] as? Int == 3)
        #expect(try tool.run("people", "hide", second).status == 0)
        #expect((try tool.run("people", "--json").json as? [Any])?.count == 1)
        #expect((try tool.run("people", "--hidden", "--json").json as? [Any])?.count == 2)

        // Mistakes are the user's, in one line.
        let unknown = try tool.run("people", "name", "no-such-person", "X")
        #expect(unknown.status == 1 && unknown.errors.contains("no person with identifier no-such-person"), "\(unknown.errors)")
        let long = try tool.run("people", "name", first, String(repeating: "a", count: 201))
        #expect(long.status == 1 && long.errors.contains("200 characters"), "\(long.errors)")
        #expect(try tool.run("people", "merge", first).status != 0)
    }
}
