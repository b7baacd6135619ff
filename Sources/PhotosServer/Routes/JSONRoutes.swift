import Foundation
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import Photos

/// The JSON operations swift-openapi-generator serves from the document
/// (`OpenAPI/openapi-generator-config.yaml` lists them): the generated
/// code decodes each request's parameters as the document declares them,
/// calls the method of this type named by the operation, and encodes what
/// it returns as the document's schema says. The other routes, which the
/// generator cannot serve as they must be served, are plain Hummingbird
/// routes beside these (`Routes/`).
///
/// A request reaches these methods through the same authentication as
/// every route; the principal it proved travels in a task-local value
/// (``RequestPrincipal``), as the generated handlers get no router context.
struct JSONRoutes: APIProtocol {
    let libraries: LibraryPool
    /// Unfinished uploads, which ``listUploads(_:)`` lists.
    let uploads: UploadStore
    /// What ends at once when a share link is revoked.
    let revocation: Revocation
    /// Where committed change blocks are counted.
    let metrics: ServerMetrics
    /// The languages the indexer reads text in, which its status judges.
    var textLanguages = ["eng"]
    /// The owner's tile server for the gallery's map, if any.
    var mapTiles: MapTiles?

    /// Registers the generated routes on `group`, which must authenticate
    /// (its paths are the document's, `/v1/…`, so it has no prefix).
    static func register(_ routes: JSONRoutes, on group: RouterGroup<ServerContext>) throws {
        try routes.registerHandlers(
            on: group.add(middleware: RequestPrincipal()), serverURL: URL(string: "/")!,
            // The runtime reads a query's `+` as a space, as browsers' form encoding
            // writes it (`pixelWidth+>+3`).
            configuration: .photosServer, middlewares: [JSONBodyCheck()])
    }

    /// Runs `body`; a value past the library's bounds (`limitExceeded`: a
    /// name too long, a box off the globe, a distance out of range) is the
    /// client's mistake, 400 rather than the 503 a read past its deadline gets.
    static func clientMistakes<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PHPhotosError where error.code == .limitExceeded {
            throw Problem.badRequest(error.localizedDescription)
        }
    }

    /// The library the request's principal sees.
    func library() async throws -> (PHPhotoLibrary, Principal) {
        let principal = try principal()
        return (try await libraries.library(for: principal), principal)
    }

    /// The principal the request's token proved.
    func principal() throws -> Principal {
        guard let principal = RequestPrincipal.current else { throw Problem(.unauthorized, "sign in with a bearer token") }
        return principal
    }
}

/// Carries the principal an authenticator proved to the generated routes'
/// handlers, which see the request but not its router context.
struct RequestPrincipal: RouterMiddleware {
    typealias Context = ServerContext

    /// The principal of the request this task serves; nil outside one, or before authentication.
    @TaskLocal static var current: Principal?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await Self.$current.withValue(context.identity?.principal) { try await next(request, context) }
    }
}

extension Configuration {
    /// JSON as the API writes it (``JSONBody``): keys sorted, dates in ISO
    /// 8601 to the millisecond, slashes as they are.
    static var photosServer: Configuration {
        Configuration(dateTranscoder: APIDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    }
}

/// Dates as ``JSONBody`` writes and reads them.
struct APIDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String { JSONBody.dateText(date) }

    func decode(_ text: String) throws -> Date {
        guard let date = JSONBody.date(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not an ISO 8601 date"))
        }
        return date
    }
}
