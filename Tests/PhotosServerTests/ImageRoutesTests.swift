import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Photos
import PhotosMedia
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
            let outside = try await client.get(
                "/v1/assets/\(id)/original", token: fixture.ownerToken,
                headers: [.range: "bytes=\(bytes.count + 10)-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */\(bytes.count)")
            let stale = try await client.get(
                "/v1/assets/\(id)/original", token: fixture.ownerToken,
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
                .filter {
                    !$0.hasSuffix("/")
                        && (try? FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent($0).path)[.type] as? FileAttributeType)
                            == .typeRegular
                }
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
            #expect(
                try await eventually { try await client.get("/v1/assets/\(id)/thumbnail", token: token).status == .notFound },
                "a commit that takes the asset out of the grant empties the cache")
        }
    }
}

extension ImageRoutesTests {
    /// The codec and container ffprobe finds in bytes a route served.
    private static func probe(_ data: Data, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("served-\(UUID().uuidString)")
        try data.write(to: file)
        let output = try DebianTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name:format=format_name", "-of", "csv=p=0", file.path,
            ])
        return output.split(separator: "\n").joined(separator: " ")
    }

    /// An iPhone's HEVC video and a Live Photo's HEVC motion, which
    /// browsers on Linux cannot play, are served as H.264 MP4 made from
    /// them; an H.264 MP4 is served as it is; a photo has no motion.
    @Test func videosAreServedAsBrowsersPlayThem() async throws {
        let fixture = try ServerFixture(photos: 1)
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000CC"
        func movie(_ name: String, codec: [String], metadata: [String] = []) throws -> URL {
            let url = fixture.directory.appendingPathComponent(name)
            try DebianTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi",
                    "-i", "sine=frequency=440", "-t", "1", "-pix_fmt", "yuv420p",
                ] + codec + metadata
                    + ["-c:a", "aac", "-shortest", url.path])
            return url
        }
        let hevc = try movie("IMG_0002.MOV", codec: ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error"])
        let h264 = try movie("VID_0003.mp4", codec: ["-c:v", "libx264", "-preset", "ultrafast"])
        var exif = ExifFields()
        exif.contentIdentifier = identifier
        let still = fixture.directory.appendingPathComponent("IMG_0004.JPG")
        try SampleImage.jpeg(width: 64, height: 48, from: (10, 40, 60), to: (220, 180, 90), exif: exif).write(to: still)
        let motion = try movie(
            "IMG_0004.MOV", codec: ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error"],
            metadata: ["-metadata", "com.apple.quicktime.content.identifier=\(identifier)", "-movflags", "use_metadata_tags"])
        let imported = try fixture.library.importFiles([hevc, h264, still, motion])
        #expect(imported.failed.isEmpty && imported.imported.count == 4, "\(imported.failed)")
        let ids = Dictionary(imported.imported.map { ($0.file.lastPathComponent, urlID($0.localIdentifier)) }, uniquingKeysWith: { first, _ in first })

        try await fixture.withRouter { client in
            let converted = try await client.get("/v1/assets/\(ids["IMG_0002.MOV"]!)/video", token: fixture.ownerToken)
            #expect(converted.status == .ok && converted.headers[.contentType] == "video/mp4", "\(converted.text)")
            let convertedBytes = Data(buffer: converted.body)
            #expect(try Self.probe(convertedBytes, in: fixture.directory).hasPrefix("h264"), "an H.264 copy")
            let part = try await client.get("/v1/assets/\(ids["IMG_0002.MOV"]!)/video", token: fixture.ownerToken, headers: [.range: "bytes=0-99"])
            #expect(part.status == .partialContent && Data(buffer: part.body) == convertedBytes.prefix(100))

            let asItIs = try await client.get("/v1/assets/\(ids["VID_0003.mp4"]!)/video", token: fixture.ownerToken)
            let original = try Data(contentsOf: h264)
            #expect(asItIs.status == .ok && Data(buffer: asItIs.body) == original, "played as it is")

            let live = try await client.get("/v1/assets/\(ids["IMG_0004.JPG"]!)/motion", token: fixture.ownerToken)
            #expect(live.status == .ok, "\(live.text)")
            #expect(try Self.probe(Data(buffer: live.body), in: fixture.directory).hasPrefix("h264"))
            let tag = try #require(live.headers[.eTag])
            #expect(
                try await client.get(
                    "/v1/assets/\(ids["IMG_0004.JPG"]!)/motion", token: fixture.ownerToken,
                    headers: [.ifNoneMatch: tag]
                ).status == .notModified)

            let photo = urlID(fixture.assets[0])
            #expect(try await client.get("/v1/assets/\(photo)/motion", token: fixture.ownerToken).status == .notFound)
            #expect(try await client.get("/v1/assets/\(photo)/video", token: fixture.ownerToken).status == .notFound)
        }
    }
}
