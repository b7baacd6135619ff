import Foundation
import Testing
@testable import PhotosObjectStorage

/// The S3 server `script/services` starts for the tests (moto, checking
/// signatures), read from its variables; nil when it is not running.
enum TestObjectStorage {
    static let environment = ProcessInfo.processInfo.environment

    static var credentials: StorageCredentials? {
        guard let key = environment["PHOTOS_TEST_S3_ACCESS_KEY"], let secret = environment["PHOTOS_TEST_S3_SECRET_KEY"] else { return nil }
        return StorageCredentials(accessKeyID: key, secretAccessKey: secret)
    }

    static var endpoint: URL? { environment["PHOTOS_TEST_S3_ENDPOINT"].flatMap(URL.init(string:)) }

    static var isAvailable: Bool { credentials != nil && endpoint != nil }

    /// A client of a new bucket of its own.
    static func client(prefix: String = "library", partSize: Int = 16 << 20) async throws -> S3Client {
        let location = S3Location(endpoint: try #require(endpoint), bucket: "photos-\(UUID().uuidString.lowercased())", prefix: prefix)
        let client = S3Client(location: location, credentials: try #require(credentials), partSize: partSize)
        try await client.createBucket()
        return client
    }
}

@Suite(.enabled(if: TestObjectStorage.isAvailable, "needs the S3 server script/services starts (script/test starts it)"))
struct S3ClientTests {
    @Test func objectsGoInComeBackWholeOrInRangesAndGo() async throws {
        let client = try await TestObjectStorage.client()
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        try await client.put(bytes, key: "originals/A/one.jpg")
        #expect(try await client.get(key: "originals/A/one.jpg") == bytes)
        #expect(try await client.get(key: "originals/A/one.jpg", range: 10...19) == bytes[10...19])
        #expect(try await client.size(key: "originals/A/one.jpg") == 1000)
        #expect(try await client.size(key: "originals/A/none.jpg") == nil)
        try await client.copy(from: "originals/A/one.jpg", to: "originals/B/two 2+€.jpg")
        #expect(try await client.get(key: "originals/B/two 2+€.jpg") == bytes)
        #expect(try await client.list(prefix: "originals/").sorted() == ["originals/A/one.jpg", "originals/B/two 2+€.jpg"])
        try await client.delete(key: "originals/A/one.jpg")
        try await client.delete(key: "originals/A/one.jpg")
        await #expect(throws: ObjectStorageError.notFound(key: "originals/A/one.jpg")) {
            try await client.get(key: "originals/A/one.jpg")
        }
    }

    @Test func aLargeFileGoesUpInPartsAndComesBackTheSame() async throws {
        let client = try await TestObjectStorage.client(partSize: 5 << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var random = SystemRandomNumberGenerator()
        let bytes = Data((0..<(11 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) })
        try bytes.write(to: file)
        try await client.put(fileAt: file, key: "originals/C/video.mov")
        #expect(try await client.size(key: "originals/C/video.mov") == Int64(bytes.count))
        #expect(try await client.get(key: "originals/C/video.mov", range: 5_242_870...5_242_889) == bytes[5_242_870...5_242_889])
        #expect(try await client.get(key: "originals/C/video.mov") == bytes)
    }

    @Test func aWrongSecretIsRefusedAsOnAWS() async throws {
        let client = try await TestObjectStorage.client()
        let impostor = S3Client(location: client.location,
                                credentials: StorageCredentials(accessKeyID: try #require(TestObjectStorage.credentials).accessKeyID,
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
