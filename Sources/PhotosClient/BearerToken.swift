import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends a bearer token with every request of a generated ``Client``: what
/// `photos serve` authenticates a program by (`photos token create`).
///
/// ```swift
/// let client = Client(serverURL: URL(string: "http://127.0.0.1:8080")!, configuration: .photosServer,
///                     transport: AsyncHTTPClientTransport(),
///                     middlewares: [BearerToken("…")])
/// let library = try await client.getLibrary().ok.body.json
/// ```
///
/// `Client` and its `Components` and `Operations` types are generated from
/// the server's OpenAPI document when this module builds, so they follow
/// the HTTP contract without a line written by hand. Cost: one header field.
public struct BearerToken: ClientMiddleware {
    private let token: String

    /// A middleware that sends `token`.
    public init(_ token: String) {
        self.token = token
    }

    /// Adds `Authorization: Bearer …` and passes the request on.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
