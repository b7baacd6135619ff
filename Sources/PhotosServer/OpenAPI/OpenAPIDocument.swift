import Foundation
import Yams

/// The server's HTTP contract, `openapi.yaml` beside this file: the one
/// description of every JSON route, bundled with the module, read once when
/// a server starts, and served at `/v1/openapi.yaml` and (as JSON)
/// `/v1/openapi.json`. A test holds it and the router to each other in
/// both directions.
struct OpenAPIDocument: Sendable {
    /// The document as written.
    let yaml: String
    /// The same document as JSON, for clients that read only JSON.
    let json: Data
    /// Each documented path (`/v1/assets/{id}`) with the methods it documents, uppercase.
    let operations: [String: Set<String>]

    /// The document bundled with this module. Cost: reading and parsing
    /// about 2,000 lines; a server does it once.
    /// Throws when the resource is missing or unreadable: a broken installation.
    static func bundled() throws -> OpenAPIDocument {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "openapi.yaml is missing from the server's resources"])
        }
        return try OpenAPIDocument(yaml: String(contentsOf: url, encoding: .utf8))
    }

    /// A document from its YAML text. Throws when it is not YAML or has no paths.
    init(yaml: String) throws {
        guard let object = try Yams.load(yaml: yaml) as? [String: Any], let paths = object["paths"] as? [String: [String: Any]] else {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "openapi.yaml is not an OpenAPI document with paths"])
        }
        self.yaml = yaml
        json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let methods: Set<String> = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]
        operations = paths.mapValues { Set($0.keys.map { $0.uppercased() }).intersection(methods) }
    }
}
