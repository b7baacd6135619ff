import Foundation
import PhotosTestSupport
import Testing

/// `photos similar`, run as a process.
@Suite(.tags(.slow)) struct SimilarCommandTests {
    @Test func listsLookAlikesAndKeepsOne() throws {
        let tool = try CommandLineTool()
        try tool.run("init")
        let card = tool.directory.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let original = "/usr/share/forensics-samples/original-files/pic1/IMG_1054.JPG"
        try DebianTool.run("vips", ["copy", original, card.appendingPathComponent("a.jpg").path + "[Q=90]"])
        try DebianTool.run("vips", ["copy", original, card.appendingPathComponent("b.jpg").path + "[Q=35]"])
        try DebianTool.run("vips", ["resize", original, card.appendingPathComponent("c.jpg").path, "0.25"])
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/usr/share/forensics-samples/original-files/pic1/IMG-20191006-WA0002.jpg"),
            to: card.appendingPathComponent("other.jpg"))
        #expect(try tool.run("import", "card").status == 0)

        let groups = try #require(try tool.run("similar", "--json").json as? [[String: Any]])
        #expect(groups.count == 1 && (groups.first?["assets"] as? [String])?.count == 3, "\(groups)")
        let suggested = try #require(groups.first?["suggested"] as? String)
        let listed = try tool.run("similar")
        #expect(listed.output.contains("group 1: keep \(suggested)?"), "\(listed.output)")
        // Dismissed: not listed, unless asked; then stacked, one shown, nothing deleted.
        let dismissed = try tool.run("similar", "dismiss", suggested)
        #expect(dismissed.status == 0 && dismissed.output.contains("3 photos are no longer listed as alike"), "\(dismissed.output)")
        #expect((try tool.run("similar", "--json").json as? [Any])?.isEmpty == true)
        let anyway = try #require(try tool.run("similar", "--include-dismissed", "--json").json as? [[String: Any]])
        #expect(anyway.count == 1)
        let stackedOne = try #require((anyway.first?["assets"] as? [String])?.last)
        #expect(try tool.run("similar", "stack", stackedOne).errors.contains("looks like no other photo"), "dismissed: no group")
        // The kept photo is the only one a listing shows after a stack.
        let other = try CommandLineTool()
        try other.run("init")
        try FileManager.default.copyItem(at: card, to: other.directory.appendingPathComponent("card"))
        #expect(try other.run("import", "card").status == 0)
        let otherGroup = try #require((try other.run("similar", "--json").json as? [[String: Any]])?.first?["assets"] as? [String])
        let stacked = try #require(try other.run("similar", "stack", otherGroup[2], "--json").json as? [String: Any])
        #expect(Set(stacked["stacked"] as? [String] ?? []) == Set(otherGroup))
        let shown = try #require(try other.run("ls", "--json").json as? [[String: Any]])
        #expect(shown.count == 2 && shown.contains { $0["localIdentifier"] as? String == otherGroup[2] }, "\(shown)")

        let kept = try #require(try tool.run("similar", "keep", suggested, "--include-dismissed", "--json").json as? [String: Any])
        #expect((kept["recentlyDeleted"] as? [String])?.count == 2)
        #expect((try tool.run("similar", "--json").json as? [Any])?.isEmpty == true)
        // Bad input is the user's, with one line: a photo like no other, a distance out of range.
        let alone = try tool.run("similar", "keep", suggested)
        #expect(alone.status == 1 && alone.errors.contains("looks like no other photo"), "\(alone.errors)")
        #expect(try tool.run("similar", "--distance", "40").status == 1)
    }
}
