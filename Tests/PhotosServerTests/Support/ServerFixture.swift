import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Photos
import PhotosMedia
import PhotosTestSupport

@testable import PhotosServer

/// A temporary library with a few photos, an owner token, and the server
/// over it, on the backend `PHOTOS_TEST_BACKEND` selects; removed when the
/// fixture goes.
final class ServerFixture: @unchecked Sendable {
    let directory: URL
    let library: PHPhotoLibrary
    let server: PhotoServer
    let ownerToken: String
    /// The photos' local identifiers, oldest first.
    private(set) var assets: [String] = []

    /// `originals`: where the library keeps its originals (an `s3://` location), when not in its directory.
    init(
        photos: Int = 5, configuration: PhotoServer.Configuration = .init(port: 0, heartbeat: .seconds(15)),
        originals: URL? = nil
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        library = try PHPhotoLibrary(
            url: TestBackend.selected.newLibraryURL(in: directory),
            originals: try originals ?? TestBackend.selected.newOriginals(in: directory))
        ownerToken = try library.createAccessToken(forClient: nil, label: "test owner").bearer
        server = try PhotoServer(library: library, configuration: configuration)
        assets = try importPhotos(photos)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Imports photos taken a day apart; returns their identifiers.
    @discardableResult
    func importPhotos(_ count: Int, from start: Date = Date(timeIntervalSince1970: 1_600_000_000)) throws -> [String] {
        var urls: [URL] = []
        for index in 0..<count {
            var exif = ExifFields()
            let taken = start.addingTimeInterval(Double(assets.count + index) * 86_400)
            (exif.dateTimeOriginal, exif.offsetTimeOriginal) = ExifFields.exifDateTime(taken, utcOffset: 0)
            let data = try SampleImage.jpeg(width: 64, height: 48, from: (20, 40, Double(index * 7 % 255)), to: (220, 180, 90), exif: exif)
            let url = directory.appendingPathComponent("\(UUID().uuidString).jpg")
            try data.write(to: url)
            urls.append(url)
        }
        var identifiers: [String] = []
        try library.performChangesAndWait {
            for url in urls {
                identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        assets += identifiers
        return identifiers
    }

    /// A token for a client with `grant` (and, when limited, `selection`).
    func clientToken(
        _ client: String, grant: PHPhotoLibrary.ClientAccessGrant, selection: [String] = [],
        readOnly: Bool = false
    ) throws -> String {
        try library.setAccess(grant, forClient: client)
        if !selection.isEmpty { try library.addToLimitedSelection(selection, ofClient: client) }
        return try library.createAccessToken(forClient: client, readOnly: readOnly).bearer
    }

    /// Runs `body` against the router, in process.
    func withRouter<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await server.application().test(.router, body)
    }

    /// Runs `body` against the server listening on a loopback port.
    func withLiveServer<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await server.application().test(.live, body)
    }
}

/// The URL id of a local identifier.
func urlID(_ localIdentifier: String) -> String {
    String(localIdentifier.prefix { $0 != "/" })
}

extension HTTPFields {
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}

extension TestResponse {
    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    /// GET `uri` as `token`, with extra headers.
    func get(_ uri: String, token: String?, headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: .get, headers: fields)
    }

    /// Sends a JSON body.
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String?, json: Any, headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        fields[.contentType] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: json)
        return try await execute(uri: uri, method: method, headers: fields, body: ByteBuffer(bytes: data))
    }
}
