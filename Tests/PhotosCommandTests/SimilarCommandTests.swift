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
        let kept = try #require(try tool.run("similar", "keep", suggested, "--json").json as? [String: Any])
        #expect((kept["recentlyDeleted"] as? [String])?.count == 2)
        #expect((try tool.run("similar", "--json").json as? [Any])?.isEmpty == true)
        // Bad input is the user's, with one line: a photo like no other, a distance out of range.
        let alone = try tool.run("similar", "keep", suggested)
        #expect(alone.status == 1 && alone.errors.contains("looks like no other photo"), "\(alone.errors)")
        #expect(try tool.run("similar", "--distance", "40").status == 1)
    }
}
