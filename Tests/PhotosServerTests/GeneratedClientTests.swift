import Foundation
import OpenAPIAsyncHTTPClient
import PhotosClient
import Testing

/// The Swift client generated from the server's OpenAPI document talks to
/// a running server: the document is the contract both sides are built from.
@Suite struct GeneratedClientTests {
    @Test func theGeneratedClientReadsWhatTheServerServes() async throws {
        let fixture = try ServerFixture(photos: 2)
        let port = try await LivePort.start(fixture)
        defer { port.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(port.number)"))
        let client = Client(
            serverURL: url, configuration: .photosServer, transport: AsyncHTTPClientTransport(),
            middlewares: [BearerToken(fixture.ownerToken)])

        let library = try await client.getLibrary().ok.body.json
        #expect(library.counts.photos == 2 && library.readOnly == false)
        let page = try await client.listAssets().ok.body.json
        #expect(page.items.count == 2 && page.items.allSatisfy { $0.mediaType == .image })
        let asset = try await client.getAsset(path: .init(id: page.items[0].id)).ok.body.json
        #expect(asset.localIdentifier == page.items[0].localIdentifier)
        let months = try await client.listTimelineMonths().ok.body.json
        #expect(months.buckets.map(\.count).reduce(0, +) == 2)

        let anonymous = Client(serverURL: url, configuration: .photosServer, transport: AsyncHTTPClientTransport())
        guard case .unauthorized = try await anonymous.getLibrary() else {
            Issue.record("a request without a token is refused as the document says")
            return
        }
    }
}
