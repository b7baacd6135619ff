import Foundation
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing
@testable import PhotosServer

/// Renditions and originals: cache validators, immutable versioned URLs, ranges.
@Suite struct ImageRoutesTests {
    @Test func renditionsRevalidateWithTheirETag() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            for rendition in ["thumbnail", "preview"] {
                let image = try await client.get("/v1/assets/\(id)/\(rendition)", token: fixture.ownerToken)
                #expect(image.status == .ok)
                #expect(image.headers[.contentType] == "image/jpeg")
                #expect(Array(Data(buffer: image.body).prefix(2)) == [0xFF, 0xD8])
                #expect(image.headers[.cacheControl] == "private, no-cache")
                let tag = try #require(image.headers[.eTag])
                let again = try await client.get("/v1/assets/\(id)/\(rendition)", token: fixture.ownerToken, headers: [.ifNoneMatch: tag])
                #expect(again.status == .notModified)
                #expect(again.body.readableBytes == 0)
                let versioned = try await client.get("/v1/assets/\(id)/\(rendition)?v=0", token: fixture.ownerToken)
                #expect(versioned.headers[.cacheControl] == "private, max-age=31536000, immutable")
                #expect(try await client.get("/v1/assets/\(id)/\(rendition)?v=7", token: fixture.ownerToken).status == .notFound)
            }
        }
    }

    @Test func originalsServeRanges() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            let whole = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken)
            #expect(whole.status == .ok)
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentType] == "image/jpeg")
            let bytes = Data(buffer: whole.body)
            let part = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken, headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 10-19/\(bytes.count)")
            #expect(Data(buffer: part.body) == bytes[10..<20])
            let tail = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken, headers: [.range: "bytes=-5"])
            #expect(Data(buffer: tail.body) == bytes.suffix(5))
            let outside = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken,
                                               headers: [.range: "bytes=\(bytes.count + 10)-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */\(bytes.count)")
            let stale = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken,
                                             headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(stale.status == .ok, "a changed file is sent whole")
        }
    }
}

extension ImageRoutesTests {
    /// A video in a browser seeks by range: with the originals in object
    /// storage, each range is read from the object, which is never copied
    /// whole to the server's disk.
    @Test(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts (script/test starts it)"))
    func originalsInObjectStorageServeRangesWithoutFetchingThemWhole() async throws {
        let bucket = try #require(TestObjectStorageServer.current).newBucket()
        let fixture = try ServerFixture(photos: 1, originals: bucket)
        let id = urlID(fixture.assets[0])
        let cache = TestBackend.selected.newLibraryURL(in: fixture.directory).appendingPathComponent("cache")
        @Sendable func cachedFiles() -> [String] {
            (FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? [])
                .filter { !$0.hasSuffix("/") && (try? FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent($0).path)[.type] as? FileAttributeType) == .typeRegular }
        }
        try await fixture.withRouter { client in
            let part = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken, headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent)
            let size = try #require(part.headers[.contentRange].flatMap { Int($0.split(separator: "/").last ?? "") })
            #expect(part.body.readableBytes == 10)
            let copied = cachedFiles()
            #expect(copied.isEmpty, "a ranged read copied the object: \(copied)")
            let whole = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken)
            #expect(whole.status == .ok)
            let bytes = Data(buffer: whole.body)
            #expect(bytes.count == size)
            #expect(Data(buffer: part.body) == bytes[10..<20])
            #expect(Array(bytes.prefix(2)) == [0xFF, 0xD8])
            let tail = try await client.get("/v1/assets/\(id)/original", token: fixture.ownerToken, headers: [.range: "bytes=-5"])
            #expect(Data(buffer: tail.body) == bytes.suffix(5))
        }
    }

    @Test func aCachedThumbnailFollowsEditsAndGrants() async throws {
        let fixture = try ServerFixture(photos: 2)
        let token = try fixture.clientToken("org.example.grid", grant: .limited, selection: [fixture.assets[0]])
        let id = urlID(fixture.assets[0])
        try await fixture.withRouter { client in
            let first = try await client.get("/v1/assets/\(id)/thumbnail", token: token)
            #expect(first.status == .ok)
            #expect(try await client.get("/v1/assets/\(id)/thumbnail", token: token).headers[.eTag] == first.headers[.eTag], "from the cache")
            try fixture.library.removeFromLimitedSelection([fixture.assets[0]], ofClient: "org.example.grid")
            var status = HTTPResponse.Status.ok
            for _ in 0..<50 where status == .ok {
                status = try await client.get("/v1/assets/\(id)/thumbnail", token: token).status
                if status == .ok { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == .notFound, "a commit that takes the asset out of the grant empties the cache")
        }
    }
}
