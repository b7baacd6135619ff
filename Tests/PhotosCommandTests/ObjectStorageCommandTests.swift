import Foundation
import PhotosObjectStorage
import PhotosTestSupport
import Testing

/// `photos init --originals s3://…`: a library whose originals live in the
/// S3 server `script/services` starts, used through the command, with the
/// credentials only ever in the environment.
@Suite(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts (script/test starts it)"))
struct ObjectStorageCommandTests {
    @Test func aLibraryWithOriginalsInABucketImportsChecksAndExports() throws {
        let server = try #require(TestObjectStorageServer.current)
        let bucket = try server.newBucket()
        let tool = try CommandLineTool()
        let credentials = [
            "PHOTOS_S3_ACCESS_KEY_ID": server.credentials.accessKeyID,
            "PHOTOS_S3_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
        ]

        let created = try tool.run(["init", "--originals", bucket.absoluteString], environment: credentials)
        #expect(created.status == 0, "\(created.errors)")
        try tool.photo("IMG_1.JPG")
        let imported = try tool.run(["import", "card"], environment: credentials)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: tool.library.appendingPathComponent("originals").path)
                .filter { $0.hasSuffix(".jpg") }.isEmpty, "the original went to the bucket")

        let identifier = try #require(
            (try tool.run(["ls", "--json"], environment: credentials).json as? [[String: Any]])?
                .first?["localIdentifier"] as? String)
        let check = try tool.run(["check"], environment: credentials)
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        let exported = try tool.run(["export", identifier, "--to", "out"], environment: credentials)
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tool.directory.appendingPathComponent("out").path).count == 1)

        // Without credentials, reading an original says what to set.
        try FileManager.default.removeItem(at: tool.library.appendingPathComponent("cache"))
        let refused = try tool.run(
            ["export", identifier, "--to", "again"],
            environment: ["PHOTOS_S3_ACCESS_KEY_ID": "", "PHOTOS_S3_SECRET_ACCESS_KEY": ""])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("PHOTOS_S3_ACCESS_KEY_ID"), "\(refused.errors)")
    }

    @Test func aLocationThatIsNotObjectStorageIsRefusedBeforeAnythingIsCreated() throws {
        let tool = try CommandLineTool()
        let refused = try tool.run("init", "--originals", "/mnt/photos")
        #expect(refused.status != 0)
        #expect(refused.errors.contains("s3://"))
        #expect(!FileManager.default.fileExists(atPath: tool.library.path))
    }
}
