import HTTPTypes
import OpenAPIRuntime

/// The rules every JSON request body of the API keeps (``JSONBody``), for
/// the generated routes, ahead of the generated decoding: 415 unless it
/// comes as JSON, 413 beyond the operation's limit (the runtime would
/// collect 2 MiB), and 400 for a key named twice in one object (which
/// Foundation's decoder would take the last of) or nesting deeper than any
/// request of this API. A field the document does not declare is refused by
/// the generated decoding itself (`additionalProperties: false`).
struct JSONBodyCheck: ServerMiddleware {
    /// The largest body each operation that takes one accepts, by operation
    /// id; `DocumentRoutesTests` holds it to the document's request bodies.
    static let limits: [String: Int] = [
        Operations.CreateShare.id: 4096,
        // A block of 1,000 requests, each naming a few ids.
        Operations.PerformChanges.id: 1 << 20,
        // An id and a distance.
        Operations.KeepSimilar.id: 1024,
        Operations.StackSimilar.id: 1024,
        Operations.DismissSimilar.id: 1024,
        // A name of up to 200 characters (12 bytes each at most, escaped as a surrogate pair) and a flag.
        Operations.UpdatePerson.id: 4096,
        // Up to 100 people's ids of 36 characters.
        Operations.MergePeople.id: 64 * 1024,
        // Up to 1,000 faces' ids of 36 characters.
        Operations.MoveFaces.id: 512 * 1024,
    ]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let limit = Self.limits[operationID] else { return try await next(request, body, metadata) }
        try JSONBody.checkContentType(request.headerFields[.contentType])
        var bytes: ArraySlice<UInt8> = []
        if case .known(let length) = body?.length, length > limit { throw JSONBody.tooLarge(limit) }
        for try await chunk in body ?? HTTPBody() {
            guard bytes.count + chunk.count <= limit else { throw JSONBody.tooLarge(limit) }
            bytes += chunk
        }
        try JSONBody.checkKeys(bytes)
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
