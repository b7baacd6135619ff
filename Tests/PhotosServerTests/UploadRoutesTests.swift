import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PhotosMedia
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosServer

/// tus uploads: resumable, checksum first, and turned into assets by a change block.
@Suite struct UploadRoutesTests {
    private static let tus: HTTPFields = [HTTPField.Name("Tus-Resumable")!: "1.0.0"]

    private static func photo(_ seed: Double) throws -> Data {
        try SampleImage.jpeg(width: 80, height: 60, from: (seed, 40, 60), to: (220, 180, 90))
    }

    private static func headers(_ token: String, _ extra: HTTPFields = [:]) -> HTTPFields {
        var fields = tus
        fields[.authorization] = "Bearer \(token)"
        fields.append(contentsOf: extra)
        return fields
    }

    private static func metadata(_ pairs: [String: String]) -> String {
        pairs.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    @Test func anUploadResumesAndBecomesAnAssetInABlock() async throws {
        let fixture = try ServerFixture(photos: 0)
        let data = try Self.photo(10)
        try await fixture.withRouter { client in
            let created = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        HTTPField.Name("Upload-Length")!: "\(data.count)",
                        HTTPField.Name("Upload-Metadata")!: Self.metadata(["filename": "../../IMG_0001.JPG"]),
                    ]))
            #expect(created.status == .created, "\(created.text)")
            let location = try #require(created.headers[.location])
            let offset = HTTPField.Name("Upload-Offset")!
            let octets: HTTPFields = [.contentType: "application/offset+octet-stream"]

            // The first half, then the connection drops: the offset says where to go on.
            let half = data.count / 2
            let first = try await client.execute(
                uri: location, method: .patch, headers: Self.headers(fixture.ownerToken, octets + [offset: "0"]),
                body: ByteBuffer(bytes: data.prefix(half)))
            #expect(first.status == .noContent && first.headers[offset] == "\(half)")
            let head = try await client.execute(uri: location, method: .head, headers: Self.headers(fixture.ownerToken))
            #expect(head.headers[offset] == "\(half)")
            let wrong = try await client.execute(
                uri: location, method: .patch, headers: Self.headers(fixture.ownerToken, octets + [offset: "0"]),
                body: ByteBuffer(bytes: data.suffix(from: half)))
            #expect(wrong.status == .conflict)
            let early = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [["op": "createAsset", "upload": String(location.split(separator: "/").last!)]]
                ])
            #expect(early.status == .conflict, "an unfinished upload is not an asset yet")
            let rest = try await client.execute(
                uri: location, method: .patch, headers: Self.headers(fixture.ownerToken, octets + [offset: "\(half)"]),
                body: ByteBuffer(bytes: data.suffix(from: half)))
            #expect(rest.headers[offset] == "\(data.count)")
            // Finished, it is read while it waits for its block, which then uses that reading.
            ReadAhead.shared.waitUntilIdle()
            let readingsUsed = ReadAhead.shared.readingsUsed

            let other = try fixture.library.createAccessToken(forClient: nil).bearer
            #expect(try await client.execute(uri: location, method: .head, headers: Self.headers(other)).status == .notFound)

            let block = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        ["op": "createAsset", "upload": String(location.split(separator: "/").last!), "ref": "new", "favorite": true],
                        ["op": "createAlbum", "title": "Uploaded", "addAssets": ["$new"]],
                    ] as [[String: Any]]
                ])
            #expect(block.status == .ok, "\(block.text)")
            #expect(ReadAhead.shared.readingsUsed > readingsUsed)
            let identifier = try #require((block.json["created"] as? [String: String])?["new"])
            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }[0]
            #expect(asset.isFavorite && asset.pixelWidth == 80)
            let resource = fixture.library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) }[0]
            #expect(resource.originalFilename == "IMG_0001.JPG", "the name is data: its last component only")
            #expect(try resource.fileURL().pathExtension == "jpg", "stored as what it is, not as the upload's .part")
            #expect(try await client.execute(uri: location, method: .head, headers: Self.headers(fixture.ownerToken)).status == .notFound)
        }
    }

    /// Uploads the whole file in one PATCH; returns the upload's id.
    private static func upload(_ data: Data, named name: String, token: String, client: some TestClientProtocol) async throws -> String {
        let created = try await client.execute(
            uri: "/v1/uploads", method: .post,
            headers: Self.headers(
                token,
                [
                    HTTPField.Name("Upload-Length")!: "\(data.count)", HTTPField.Name("Upload-Metadata")!: Self.metadata(["filename": name]),
                ]))
        let location = try #require(created.headers[.location], "\(created.status)")
        let sent = try await client.execute(
            uri: location, method: .patch,
            headers: Self.headers(
                token,
                [
                    .contentType: "application/offset+octet-stream", HTTPField.Name("Upload-Offset")!: "0",
                ]), body: ByteBuffer(bytes: data))
        #expect(sent.status == .noContent)
        return String(location.split(separator: "/").last!)
    }

    /// A Live Photo's still as an iPhone writes it: a JPEG whose MakerNote carries `identifier`.
    private static func livePhotoStill(identifier: String, shade: Double = 10) throws -> Data {
        var exif = ExifFields()
        exif.contentIdentifier = identifier
        return try SampleImage.jpeg(width: 64, height: 48, from: (shade, 40, 60), to: (220, 180, 90), exif: exif)
    }

    /// A Live Photo's video, made by ffmpeg in `directory`, carrying `identifier` as Apple's cameras write it.
    private static func livePhotoMovie(_ name: String, identifier: String, in directory: URL) throws -> URL {
        let movie = directory.appendingPathComponent(name)
        try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=30", "-t", "1", "-pix_fmt", "yuv420p",
                "-c:v", "libx264", "-preset", "ultrafast", "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
                "-movflags", "use_metadata_tags", movie.path,
            ])
        return movie
    }

    /// A Live Photo over HTTP: its photo and its video, two uploads, made one
    /// asset by `createAsset` with `pairedVideo`; a pair the wrong way round is refused.
    @Test func aLivePhotoIsTwoUploadsMadeOneAsset() async throws {
        let fixture = try ServerFixture(photos: 0)
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000BB"
        let still = try Self.livePhotoStill(identifier: identifier)
        let movie = try Self.livePhotoMovie("IMG_0001.MOV", identifier: identifier, in: fixture.directory)
        try await fixture.withRouter { client in
            let photo = try await Self.upload(still, named: "IMG_0001.JPG", token: fixture.ownerToken, client: client)
            let video = try await Self.upload(try Data(contentsOf: movie), named: "IMG_0001.MOV", token: fixture.ownerToken, client: client)
            let backwards = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [["op": "createAsset", "upload": video, "pairedVideo": photo]]
                ])
            #expect(backwards.status == .badRequest, "\(backwards.text)")
            let block = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [["op": "createAsset", "upload": photo, "pairedVideo": video, "ref": "live"]]
                ])
            #expect(block.status == .ok, "\(block.text)")
            let created = try #require((block.json["created"] as? [String: String])?["live"])
            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil) }[0]
            #expect(asset.mediaSubtypes.contains(.photoLive) && asset.playbackStyle == .livePhoto)
            #expect(fixture.library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) }.map(\.type) == [.photo, .pairedVideo])
        }
    }

    /// A Live Photo's two uploads in one block, each its own createAsset
    /// (as a client that does not know Live Photos sends them, the video
    /// first), are paired by their content identifier into one asset,
    /// reported under both refs; a video of another identifier stays apart.
    @Test func aLivePhotosTwoUploadsArePairedByTheServer() async throws {
        let fixture = try ServerFixture(photos: 0)
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000DD"
        let still = try Self.livePhotoStill(identifier: identifier, shade: 30)
        let (liveMovie, otherMovie) = (
            try Data(contentsOf: try Self.livePhotoMovie("IMG_0002.MOV", identifier: identifier, in: fixture.directory)),
            try Data(contentsOf: try Self.livePhotoMovie("IMG_0003.MOV", identifier: "OTHER-ID", in: fixture.directory))
        )
        try await fixture.withRouter { client in
            let video = try await Self.upload(liveMovie, named: "IMG_0002.MOV", token: fixture.ownerToken, client: client)
            let other = try await Self.upload(otherMovie, named: "IMG_0003.MOV", token: fixture.ownerToken, client: client)
            let photo = try await Self.upload(still, named: "IMG_0002.JPG", token: fixture.ownerToken, client: client)
            let block = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        ["op": "createAsset", "upload": video, "ref": "video"], ["op": "createAsset", "upload": other, "ref": "other"],
                        ["op": "createAsset", "upload": photo, "ref": "photo"],
                        ["op": "createAlbum", "title": "Live", "addAssets": ["$video"]],
                    ]
                ])
            #expect(block.status == .ok, "\(block.text)")
            let created = try #require(block.json["created"] as? [String: String])
            #expect(created["video"] == created["photo"] && created["other"] != created["photo"], "\(created)")
            let asset = fixture.library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [created["photo"]!], options: nil) }[0]
            #expect(asset.mediaSubtypes.contains(.photoLive))
            #expect(fixture.library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) }.map(\.type) == [.photo, .pairedVideo])
            #expect(fixture.library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count } == 2)
            let album = fixture.library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [created["#3"]!], options: nil)[0] }
            #expect(
                fixture.library.withCurrentLibrary { PHAsset.fetchAssets(in: album, options: nil).firstObject?.localIdentifier } == created["photo"],
                "the video's ref names the Live Photo")
        }
    }

    /// Uploads are paired as imports pair files: a camera's raw file and
    /// its JPEG, each its own createAsset, are one photo with the raw as its
    /// alternatePhoto (reported under both refs), and a Google Motion
    /// Photo's JPEG is a Live Photo with the video it carries.
    @Test func aRawAndItsJPEGAndAMotionPhotoArePairedByTheServer() async throws {
        let fixture = try ServerFixture(photos: 0)
        let raw = try Data(
            contentsOf: try CameraFiles.raw(
                width: 160, height: 120, preview: (80, 60),
                tags: [
                    "-Make=Panasonic", "-Model=DMC-GH4", "-DateTimeOriginal=2021:05:04 10:11:12",
                ], in: fixture.directory))
        let movieFile = fixture.directory.appendingPathComponent("motion.mp4")
        _ = try DebianTool.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", movieFile.path,
            ])
        let motionPhoto = fixture.directory.appendingPathComponent("PXL_20240601_101500000.MP.jpg")
        try CameraFiles.motionPhoto(motionPhoto, still: try Self.photo(7), movie: try Data(contentsOf: movieFile), schema: .container)
        try await fixture.withRouter { client in
            let rawUpload = try await Self.upload(raw, named: "P1000123.RW2", token: fixture.ownerToken, client: client)
            let jpegUpload = try await Self.upload(try Self.photo(3), named: "P1000123.JPG", token: fixture.ownerToken, client: client)
            let motion = try await Self.upload(
                try Data(contentsOf: motionPhoto), named: motionPhoto.lastPathComponent,
                token: fixture.ownerToken, client: client)
            let block = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [
                        ["op": "createAsset", "upload": rawUpload, "ref": "raw"], ["op": "createAsset", "upload": jpegUpload, "ref": "jpeg"],
                        ["op": "createAsset", "upload": motion, "ref": "motion"],
                    ]
                ])
            #expect(block.status == .ok, "\(block.text)")
            let created = try #require(block.json["created"] as? [String: String])
            #expect(created["raw"] != nil && created["raw"] == created["jpeg"], "\(created)")
            let (photo, live) = fixture.library.withCurrentLibrary {
                (
                    PHAsset.fetchAssets(withLocalIdentifiers: [created["jpeg"]!], options: nil)[0],
                    PHAsset.fetchAssets(withLocalIdentifiers: [created["motion"]!], options: nil)[0]
                )
            }
            let resources = fixture.library.withCurrentLibrary { PHAssetResource.assetResources(for: photo) }
            #expect(resources.map(\.type) == [.photo, .alternatePhoto] && resources.map(\.originalFilename) == ["P1000123.JPG", "P1000123.RW2"])
            #expect(live.mediaSubtypes.contains(.photoLive))
            #expect(fixture.library.withCurrentLibrary { PHAssetResource.assetResources(for: live) }.map(\.type) == [.photo, .pairedVideo])
            #expect(fixture.library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count } == 2)
        }
    }

    @Test func aDuplicateIsAnsweredBeforeItIsSent() async throws {
        let fixture = try ServerFixture(photos: 0)
        let data = try Self.photo(99)
        let file = fixture.directory.appendingPathComponent("existing.jpg")
        try data.write(to: file)
        let imported = try fixture.library.importFiles([file]).imported[0].localIdentifier
        let hash = try PHPhotoLibrary.contentHash(ofFileAt: file)
        let limited = try fixture.clientToken("org.example.limited", grant: .limited, selection: [])
        try await fixture.withRouter { client in
            let fields: HTTPFields = [
                HTTPField.Name("Upload-Length")!: "\(data.count)",
                HTTPField.Name("Upload-Metadata")!: Self.metadata(["filename": "a.jpg", "contentHash": hash]),
            ]
            let skipped = try await client.execute(uri: "/v1/uploads", method: .post, headers: Self.headers(fixture.ownerToken, fields))
            #expect(skipped.status == .ok && skipped.json["duplicateOf"] as? String == imported)
            let hidden = try await client.execute(uri: "/v1/uploads", method: .post, headers: Self.headers(limited, fields))
            #expect(hidden.status == .created, "a client is not told of a duplicate it cannot see")
            let kept = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        HTTPField.Name("Upload-Length")!: "\(data.count)",
                        HTTPField.Name("Upload-Metadata")!: Self.metadata(["contentHash": hash, "duplicates": "keep"]),
                    ]))
            #expect(kept.status == .created)
        }
    }

    @Test func badUploadsAreRefusedAndCostNothing() async throws {
        let fixture = try ServerFixture(photos: 0, configuration: .init(port: 0, maximumUploadLength: 1000))
        try await fixture.withRouter { client in
            let noTus = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: [
                    .authorization: "Bearer \(fixture.ownerToken)",
                    HTTPField.Name("Upload-Length")!: "10",
                ])
            #expect(noTus.status == .preconditionFailed)
            for length in ["", "-1", "abc", "0"] {
                let response = try await client.execute(
                    uri: "/v1/uploads", method: .post,
                    headers: Self.headers(fixture.ownerToken, [HTTPField.Name("Upload-Length")!: length]))
                #expect(response.status == .badRequest, "\(length)")
            }
            let tooBig = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(fixture.ownerToken, [HTTPField.Name("Upload-Length")!: "1001"]))
            #expect(tooBig.status == .contentTooLarge)
            let created = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(fixture.ownerToken, [HTTPField.Name("Upload-Length")!: "10"]))
            let location = try #require(created.headers[.location])
            let overflow = try await client.execute(
                uri: location, method: .patch,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        .contentType: "application/offset+octet-stream", HTTPField.Name("Upload-Offset")!: "0",
                    ]),
                body: ByteBuffer(bytes: [UInt8](repeating: 1, count: 20)))
            #expect(overflow.status == .contentTooLarge)
            for id in ["../../database/Photos.sqlite", "0123", String(repeating: "g", count: 32)] {
                let response = try await client.execute(uri: "/v1/uploads/\(id)", method: .head, headers: Self.headers(fixture.ownerToken))
                #expect(response.status == .notFound, "\(id)")
            }
            let garbage = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [["op": "createAsset", "upload": String(location.split(separator: "/").last!)]]
                ])
            #expect(garbage.status == .conflict)
            let deleted = try await client.execute(uri: location, method: .delete, headers: Self.headers(fixture.ownerToken))
            #expect(deleted.status == .noContent)
        }
    }
}

extension UploadRoutesTests {
    /// Uploads declaring more than a token may hold are refused before a
    /// byte is sent: an add-only token cannot fill the disk.
    @Test func aTokenCannotDeclareMoreThanItsQuotaOrTheDiskHolds() async throws {
        let fixture = try ServerFixture(photos: 0, configuration: .init(port: 0, uploadQuota: 48 << 30))
        let token = try fixture.clientToken("org.example.filler", grant: .addOnly)
        try await fixture.withRouter { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<300 {
                statuses.append(
                    try await client.execute(
                        uri: "/v1/uploads", method: .post,
                        headers: Self.headers(
                            token,
                            [
                                HTTPField.Name("Upload-Length")!: "\(16 << 30)"
                            ])
                    ).status)
            }
            let accepted = statuses.filter { $0 == .created }.count
            #expect(accepted <= 3, "\(accepted) uploads of 16 GiB taken")
            #expect(statuses.allSatisfy { [.created, .contentTooLarge, .insufficientStorage].contains($0) }, "\(Set(statuses.map(\.code)))")
            let exbibyte = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        HTTPField.Name("Upload-Length")!: "\(1 << 60)"
                    ]))
            #expect(exbibyte.status == .contentTooLarge, "past the largest file an upload may bring")
        }
    }

    /// The owner lists every token's unfinished uploads and removes any;
    /// another token sees its own; a sweep removes what revoked tokens left.
    @Test func theOwnerListsAndRemovesUploadsAndRevokedTokensLeaveNone() async throws {
        let fixture = try ServerFixture(photos: 0)
        try fixture.library.setAccess(.readWrite, forClient: "org.example.phone")
        let issued = try fixture.library.createAccessToken(forClient: "org.example.phone", label: "phone")
        try await fixture.withRouter { client in
            var locations: [String] = []
            for token in [fixture.ownerToken, issued.bearer, issued.bearer] {
                let created = try await client.execute(
                    uri: "/v1/uploads", method: .post,
                    headers: Self.headers(
                        token,
                        [
                            HTTPField.Name("Upload-Length")!: "10", HTTPField.Name("Upload-Metadata")!: Self.metadata(["filename": "x.jpg"]),
                        ]))
                locations.append(try #require(created.headers[.location]))
            }
            let all = try await client.get("/v1/uploads", token: fixture.ownerToken)
            #expect((all.json["uploads"] as? [[String: Any]])?.count == 3)
            let own = try await client.get("/v1/uploads", token: issued.bearer)
            #expect((own.json["uploads"] as? [[String: Any]])?.compactMap { $0["token"] as? String } == [issued.token.id, issued.token.id])
            #expect(try await client.execute(uri: locations[1], method: .delete, headers: Self.headers(fixture.ownerToken)).status == .noContent)
            #expect(
                try await client.execute(uri: locations[0], method: .delete, headers: Self.headers(issued.bearer)).status == .notFound,
                "another token's upload is none of its business")
        }
        try fixture.library.revokeAccessToken(id: issued.token.id)
        try await UploadSweeper(uploads: fixture.server.uploads, owner: fixture.library, interval: .seconds(600), now: { Date() }).sweep()
        #expect(fixture.server.uploads.list().map(\.upload.tokenID) == [try #require(fixture.library.accessTokens().first?.id)])
        // A day later, abandoned: gone too.
        try await UploadSweeper(
            uploads: fixture.server.uploads, owner: fixture.library, interval: .seconds(600),
            now: { Date().addingTimeInterval(86_401) }
        ).sweep()
        #expect(fixture.server.uploads.list().isEmpty)
    }

    /// An upload that is not a photo fails its block with 422, saying so
    /// without naming where the server keeps files.
    @Test func aBrokenUploadsErrorNamesNoPath() async throws {
        let fixture = try ServerFixture(photos: 0)
        let bytes = Data("this is not a photo at all".utf8)
        try await fixture.withRouter { client in
            let created = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        HTTPField.Name("Upload-Length")!: "\(bytes.count)", HTTPField.Name("Upload-Metadata")!: Self.metadata(["filename": "x.jpg"]),
                    ]))
            let location = try #require(created.headers[.location])
            _ = try await client.execute(
                uri: location, method: .patch,
                headers: Self.headers(
                    fixture.ownerToken,
                    [
                        .contentType: "application/offset+octet-stream", HTTPField.Name("Upload-Offset")!: "0",
                    ]), body: ByteBuffer(bytes: bytes))
            let block = try await client.send(
                .post, "/v1/changes", token: fixture.ownerToken,
                json: [
                    "requests": [["op": "createAsset", "upload": String(location.split(separator: "/").last!)]]
                ])
            #expect(block.status == .unprocessableContent, "\(block.text)")
            #expect(!block.text.contains(fixture.directory.path) && !block.text.contains("/uploads/"), "\(block.text)")
            #expect(block.text.contains("upload "), "\(block.text)")
        }
    }
}

extension UploadRoutesTests {
    /// `photos uploads ls` and `rm`, as the owner runs them beside a server.
    @Test(.tags(.slow)) func theCommandListsAndRemovesUploads() throws {
        let fixture = try ServerFixture(photos: 0)
        let made = try (0..<3).map { index in
            try fixture.server.uploads.create(tokenID: index == 0 ? "tokenaaaaaaa" : "tokenbbbbbbb", length: 10, filename: "IMG_\(index).JPG")
        }
        let tool = ServerProcess(location: fixture.library.locationDescription)
        let listed = try JSONSerialization.jsonObject(with: Data(try tool.photos("uploads", "ls", "--json").utf8)) as? [[String: Any]]
        #expect(listed?.compactMap { $0["id"] as? String }.sorted() == made.map(\.id).sorted())
        #expect(listed?.first?["received"] as? Int == 0 && listed?.first?["length"] as? Int == 10)
        try tool.photos("uploads", "rm", "--token", "tokenbbbbbbb")
        #expect(fixture.server.uploads.list().map(\.upload.id) == [made[0].id])
        try tool.photos("uploads", "rm", made[0].id)
        #expect(fixture.server.uploads.list().isEmpty)
        #expect(throws: (any Error).self, "an id of nothing is an error") { try tool.photos("uploads", "rm", made[0].id) }
    }
}

extension HTTPFields {
    static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var fields = lhs
        fields.append(contentsOf: rhs)
        return fields
    }
}
