import Foundation
import HTTPTypes

/// The paths and methods the OpenAPI document describes, so that a
/// request for a documented path with another method gets 405 and the
/// methods it allows, as the document and the router agree.
struct DocumentedRoutes: Sendable {
    private let routes: [(segments: [String], methods: [String])]

    init(document: String = OpenAPIDocument.json) {
        let object = (try? JSONSerialization.jsonObject(with: Data(document.utf8))) as? [String: Any]
        let paths = object?["paths"] as? [String: [String: Any]] ?? [:]
        routes = paths.map { path, operations in
            (path.split(separator: "/").map(String.init), operations.keys.map { $0.uppercased() }.sorted())
        }
    }

    /// The methods a documented path allows; nil for a path not documented.
    func allowedMethods(_ path: String) -> [String]? {
        let segments = path.split(separator: "/").map(String.init)
        let matches = routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        guard !matches.isEmpty else { return nil }
        return Array(Set(matches.flatMap(\.methods) + (matches.flatMap(\.methods).contains("GET") ? ["HEAD"] : []))).sorted()
    }
}
