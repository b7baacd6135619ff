import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import Testing
import Yams

@testable import PhotosServer

/// The OpenAPI document, the methods it allows, and the metrics.
@Suite struct DocumentRoutesTests {
    @Test func theDocumentDescribesEveryRouteAndOtherMethodsAre405() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let document = try await client.get("/v1/openapi.json", token: fixture.ownerToken)
            #expect(document.status == .ok)
            #expect(document.json["openapi"] as? String == "3.1.0")
            let paths = try #require(document.json["paths"] as? [String: Any])
            for path in ["/v1/library", "/v1/assets", "/v1/assets/{id}", "/v1/timeline/{bucket}", "/v1/changes", "/v1/uploads/{id}", "/metrics"] {
                #expect(paths[path] != nil, "\(path)")
            }
            let wrong = try await client.execute(uri: "/v1/library", method: .put, headers: .bearer(fixture.ownerToken))
            #expect(wrong.status == .methodNotAllowed && wrong.headers[.allow] == "GET, HEAD")
            let unknown = try await client.get("/v1/nothing-here", token: fixture.ownerToken)
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json")
        }
    }

    /// Every route the server registers for its API is in the document with
    /// the same method, and every operation the document names is a route:
    /// the contract and the code cannot drift apart.
    @Test func theRouterAndTheDocumentDescribeTheSameOperations() throws {
        let fixture = try ServerFixture(photos: 1)
        let document = try OpenAPIDocument.bundled()
        let routed = Set(
            try fixture.server.router().routes
                .map { "\($0.method.rawValue) \($0.path.description)" }
                .filter { $0.contains(" /v1/") || $0.hasSuffix(" /metrics") })
        let documented = Set(document.operations.flatMap { path, methods in methods.map { "\($0) \(path)" } })
        #expect(routed.subtracting(documented).isEmpty, "routes the document leaves out: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented operations no route takes: \(documented.subtracting(routed).sorted())")
        #expect(routed.count > 30)
        // Every operation is named, once: the generated client's methods (PhotosClient) are these names.
        let yaml = try #require(try Yams.load(yaml: document.yaml) as? [String: Any])
        let operations = (yaml["paths"] as? [String: [String: Any]] ?? [:]).values.flatMap { $0.values.compactMap { $0 as? [String: Any] } }
        let names = operations.compactMap { $0["operationId"] as? String }
        #expect(names.count == documented.count && Set(names).count == names.count)
    }

    /// Every generated operation that takes a JSON body has its limit and
    /// checks (``JSONBodyCheck``), and the checks name no other.
    @Test func everyGeneratedOperationWithABodyIsChecked() throws {
        let fixture = try ServerFixture(photos: 0)
        let router = Router(context: ServerContext.self)
        try JSONRoutes.register(
            JSONRoutes(
                libraries: fixture.server.libraries, uploads: fixture.server.uploads, revocation: fixture.server.revocation,
                metrics: fixture.server.metrics), on: router.group())
        let generated = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        #expect(generated.count > 10 && generated.contains("GET /v1/library"))
        let yaml = try #require(try Yams.load(yaml: OpenAPIDocument.bundled().yaml) as? [String: Any])
        var withBodies: Set<String> = []
        for (path, methods) in yaml["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in methods {
                guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String,
                    generated.contains("\(method.uppercased()) \(path)"), operation["requestBody"] != nil
                else { continue }
                withBodies.insert(id)
                // The check answers a body too large or not JSON: the document says so.
                let statuses = Set((operation["responses"] as? [String: Any] ?? [:]).keys)
                #expect(statuses.isSuperset(of: ["413", "415"]), "\(id) does not document 413 and 415")
            }
        }
        #expect(!withBodies.isEmpty)
        #expect(Set(JSONBodyCheck.limits.keys) == withBodies)
    }

    /// A change request's fields are its Swift properties and the
    /// document's schema, the same both ways.
    @Test func aChangeRequestTakesTheFieldsTheDocumentDescribes() throws {
        let taken = try Strict<ChangeBlocks.ChangeRequest>.keysTaken(decoding: #"{"op": "createAsset"}"#)
        let document = try #require(try Yams.load(yaml: OpenAPIDocument.bundled().yaml) as? [String: Any])
        let schema = (((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["ChangeRequest"] as? [String: Any])
        let documented = try #require(schema?["properties"] as? [String: Any]).keys
        #expect(taken == Set(documented))
        #expect(taken.contains("location") && taken.count > 15)
    }

    /// What the server sends for an asset, a resource and an album has
    /// every field its schema requires, and no field its schema leaves out.
    @Test func representationsCarryTheFieldsTheirSchemasDescribe() async throws {
        let fixture = try ServerFixture(photos: 1)
        let document = try #require(try Yams.load(yaml: OpenAPIDocument.bundled().yaml) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func check(_ object: [String: Any], against name: String) throws {
            let schema = try #require(schemas[name] as? [String: Any], "\(name)")
            let properties = Set(try #require(schema["properties"] as? [String: Any]).keys)
            let required = Set(schema["required"] as? [String] ?? [])
            #expect(Set(object.keys).isSubset(of: properties), "\(name) sends \(Set(object.keys).subtracting(properties).sorted()), which it does not describe")
            #expect(required.isSubset(of: Set(object.keys)), "\(name) lacks \(required.subtracting(object.keys).sorted())")
        }
        let bodies = try await fixture.withRouter { client in
            let id = urlID(fixture.assets[0])
            return [
                try await client.get("/v1/assets/\(id)", token: fixture.ownerToken).body,
                try await client.get("/v1/assets/\(id)/resources", token: fixture.ownerToken).body,
                try await client.get("/v1/smart-albums?limit=5", token: fixture.ownerToken).body,
            ].map { Data(buffer: $0) }
        }
        let parsed = try bodies.map { try JSONSerialization.jsonObject(with: $0) }
        try check(try #require(parsed[0] as? [String: Any]), against: "Asset")
        try check(try #require((parsed[1] as? [[String: Any]])?.first), against: "Resource")
        try check(try #require(((parsed[2] as? [String: Any])?["items"] as? [[String: Any]])?.first), against: "Collection")
    }

    @Test func theDocumentIsServedAsWrittenAndAsJSON() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withRouter { client in
            let yaml = try await client.get("/v1/openapi.yaml", token: fixture.ownerToken)
            let json = try await client.get("/v1/openapi.json", token: fixture.ownerToken)
            #expect(yaml.status == .ok && yaml.headers[.contentType] == "application/yaml")
            #expect(try OpenAPIDocument(yaml: yaml.text).operations == OpenAPIDocument.bundled().operations)
            #expect((json.json["paths"] as? [String: Any])?.count == (try OpenAPIDocument.bundled().operations.count))
        }
    }

    @Test func metricsCountRequestsByRouteForTheOwnerOnly() async throws {
        let fixture = try ServerFixture(photos: 1)
        let client = try fixture.clientToken("org.example.viewer", grant: .readWrite)
        try await fixture.withRouter { http in
            _ = try await http.get("/v1/assets/\(urlID(fixture.assets[0]))", token: fixture.ownerToken)
            _ = try await http.get("/v1/assets/\(UUID().uuidString)", token: fixture.ownerToken)
            let metrics = try await http.get("/metrics", token: fixture.ownerToken)
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains(#"photos_http_requests_total{method="GET",route="/v1/assets/{id}",status="200"} 1"#), "\(metrics.text)")
            #expect(metrics.text.contains(#"route="/v1/assets/{id}",status="404"} 1"#))
            #expect(metrics.text.contains("photos_event_streams 0"))
            #expect(!metrics.text.contains(urlID(fixture.assets[0])), "routes, never paths")
            #expect(try await http.get("/metrics", token: client).status == .forbidden)
        }
    }
}
