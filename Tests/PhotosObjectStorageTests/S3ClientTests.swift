import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosObjectStorage

@Suite(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts (script/test starts it)"))
struct S3ClientTests {
    @Test func objectsGoInComeBackWholeOrInRangesAndGo() async throws {
        let client = try #require(TestObjectStorageServer.current).newBucketClient()
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        try await client.put(bytes, key: "originals/A/one.jpg")
        #expect(try await client.get(key: "originals/A/one.jpg") == bytes)
        #expect(try await client.get(key: "originals/A/one.jpg", range: 10...19) == bytes[10...19])
        #expect(try await client.size(key: "originals/A/one.jpg") == 1000)
        try await client.put(bytes, key: "originals/B/two 2+€.jpg")
        #expect(try await client.get(key: "originals/B/two 2+€.jpg") == bytes)
        #expect(try await client.list(prefix: "originals/").sorted() == ["originals/A/one.jpg", "originals/B/two 2+€.jpg"])
        try await client.delete(key: "originals/A/one.jpg")
        try await client.delete(key: "originals/A/one.jpg")
        await #expect(throws: ObjectStorageError.notFound(key: "originals/A/one.jpg")) {
            try await client.get(key: "originals/A/one.jpg")
        }
        await #expect(throws: ObjectStorageError.notFound(key: "originals/A/one.jpg")) {
            try await client.size(key: "originals/A/one.jpg")
        }
    }

    @Test func aLargeFileGoesUpInPartsAndComesBackTheSame() async throws {
        let client = try #require(TestObjectStorageServer.current).newBucketClient(partSize: 5 << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var random = SystemRandomNumberGenerator()
        let bytes = Data((0..<(11 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) })
        try bytes.write(to: file)
        try await client.put(fileAt: file, key: "originals/C/video.mov")
        #expect(try await client.get(key: "originals/C/video.mov", range: 5_242_870...5_242_889) == bytes[5_242_870...5_242_889])
        #expect(try await client.get(key: "originals/C/video.mov") == bytes)
    }

    @Test func aWrongSecretIsRefusedAsOnAWS() async throws {
        let client = try #require(TestObjectStorageServer.current).newBucketClient()
        let impostor = S3Client(
            location: client.location,
            credentials: StorageCredentials(
                accessKeyID: try #require(TestObjectStorageServer.current).credentials.accessKeyID,
                secretAccessKey: "not-the-secret"))
        do {
            try await impostor.put(Data("x".utf8), key: "x")
            Issue.record("a request signed with the wrong secret was taken")
        } catch .refused(_, let code, _) {
            #expect(code == "SignatureDoesNotMatch")
        }
    }

    @Test func locationsParseFromTheirURLsAndRefuseWhatTheyCannotBe() throws {
        let location = try S3Location(url: "s3://photos/family/library?endpoint=http://127.0.0.1:9000&region=eu-west-1")
        #expect(location.bucket == "photos" && location.prefix == "family/library" && location.region == "eu-west-1")
        #expect(location.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(location.key("originals/A/x.jpg") == "family/library/originals/A/x.jpg")
        #expect(try S3Location(url: "s3://photos").endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com")
        #expect(throws: ObjectStorageError.self) { try S3Location(url: "http://photos/x") }
        #expect(throws: ObjectStorageError.self) { try S3Location(url: "s3://photos/x?endpont=http://a") }
        #expect(throws: ObjectStorageError.self) { try S3Location(url: "s3://photos/x?endpoint=ftp://a") }
    }
}
