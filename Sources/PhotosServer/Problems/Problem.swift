import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import Photos

/// An error as the client gets it: `application/problem+json` (RFC 9457)
/// with PhotoKit's error code where there is one.
struct Problem: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let title: String
    var detail: String
    /// PhotoKit's `PHPhotosError.Code` raw value, when the problem is one.
    let code: Int?
    /// The symbol of that code (`persistentChangeTokenExpired`).
    let codeName: String?
    var headers: HTTPFields = [:]
    /// Members of the problem document beyond RFC 9457's own (its
    /// extension members), for what a client acts on: a share link's
    /// `"password": "required"`.
    var extensions: [String: String] = [:]

    init(_ status: HTTPResponse.Status, _ detail: String, code: PHPhotosError.Code? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.title = status.reasonPhrase
        self.detail = detail
        self.code = code?.rawValue
        self.codeName = code.map(Self.name)
        self.headers = headers
    }

    static func badRequest(_ detail: String) -> Problem { Problem(.badRequest, detail) }
    static func notFound(_ detail: String) -> Problem { Problem(.notFound, detail, code: .identifierNotFound) }

    /// The problem a PhotoKit error is: its code decides the status.
    init(_ error: PHPhotosError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .identifierNotFound: .notFound
            case .accessRestricted, .accessUserDenied: .forbidden
            case .persistentChangeTokenExpired: .gone
            case .invalidResource, .missingResource, .changeNotSupported, .multipleIdentifiersFound,
                .persistentChangeDetailsUnavailable, .requestNotSupportedForAsset:
                .unprocessableContent
            // A read stopped past its deadline, or for a client that left (who never sees the answer).
            case .limitExceeded, .userCancelled: .serviceUnavailable
            case .notEnoughSpace: .insufficientStorage
            case .libraryVolumeOffline, .operationInterrupted, .networkError: .serviceUnavailable
            default: .internalServerError
            }
        self.init(status, error.localizedDescription, code: error.code)
    }

    /// What the client is told of an error the server did not expect; the
    /// server's log has the error itself, which may name its files.
    static let unexpected = Problem(.internalServerError, "the server could not answer this request; its log says why")

    /// The problem any error thrown by a handler is.
    static func from(_ error: any Error) -> any Error {
        switch error {
        case let problem as Problem: problem
        case let error as PHPhotosError: Problem(error)
        case let error as PHPredicateError: Problem.badRequest(error.description)
        case let error as DecodingError: Problem.badRequest("the request body is not what this endpoint takes: \(Self.describe(error))")
        case let error as HTTPError: Problem(error.status, error.body ?? error.status.reasonPhrase)
        case is CancellationError: Problem(.serviceUnavailable, "the request was given up: its client left")
        case let error as ServerError:
            // Where a generated route failed: our middleware or handler
            // refused it with a problem of its own; its response could not be
            // written as the request accepts (406); its handler threw
            // `underlyingError`; or, before the handler, the request did not
            // parse as the document declares it. The error's own description
            // is never shown: it holds the request's headers.
            if let problem = error.underlyingError as? Problem {
                problem
            } else if error.operationOutput != nil {
                Problem(error.httpStatus, "the response cannot be sent as asked: \(error.causeDescription)")
            } else if error.operationInput != nil {
                from(error.underlyingError)
            } else if let decoding = error.underlyingError as? DecodingError {
                Problem.badRequest("the request is not what \(error.operationID) takes: \(Self.describe(decoding))")
            } else {
                Problem(
                    error.httpStatus == .internalServerError ? .badRequest : error.httpStatus,
                    "the request is not what \(error.operationID) takes: \(error.causeDescription)")
            }
        case let error as any HTTPResponseError: error
        default: unexpected
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var object: [String: Any] = extensions
        object.merge(["type": "about:blank", "title": title, "status": status.code, "detail": detail]) { $1 }
        if let code { object["code"] = code }
        if let codeName { object["codeName"] = codeName }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func name(_ code: PHPhotosError.Code) -> String {
        switch code {
        case .internalError: "internalError"
        case .userCancelled: "userCancelled"
        case .libraryVolumeOffline: "libraryVolumeOffline"
        case .relinquishingLibraryBundleToWriter: "relinquishingLibraryBundleToWriter"
        case .switchingSystemPhotoLibrary: "switchingSystemPhotoLibrary"
        case .networkAccessRequired: "networkAccessRequired"
        case .networkError: "networkError"
        case .identifierNotFound: "identifierNotFound"
        case .multipleIdentifiersFound: "multipleIdentifiersFound"
        case .changeNotSupported: "changeNotSupported"
        case .operationInterrupted: "operationInterrupted"
        case .invalidResource: "invalidResource"
        case .missingResource: "missingResource"
        case .notEnoughSpace: "notEnoughSpace"
        case .requestNotSupportedForAsset: "requestNotSupportedForAsset"
        case .limitExceeded: "limitExceeded"
        case .accessRestricted: "accessRestricted"
        case .accessUserDenied: "accessUserDenied"
        case .persistentChangeTokenExpired: "persistentChangeTokenExpired"
        case .persistentChangeDetailsUnavailable: "persistentChangeDetailsUnavailable"
        case .libraryInFileProviderSyncRoot: "libraryInFileProviderSyncRoot"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): located(context.debugDescription, context)
        case .keyNotFound(let key, let context): located("\(key.stringValue) is missing", context)
        case .typeMismatch(let type, let context): located("expected \(type): \(context.debugDescription)", context)
        case .valueNotFound(_, let context): located(context.debugDescription, context)
        @unknown default: "\(error)"
        }
    }

    /// `text` after where in the body it applies (`at .requests[0].title:`), when anywhere.
    private static func located(_ text: String, _ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? text : "at \(path): \(text)"
    }
}

/// Turns whatever a handler throws into a problem response; a documented
/// path asked with a method it does not take is 405 with `Allow`. No detail
/// tells where the server keeps its files: the paths in `privatePaths` are
/// replaced by what they are to a client (an upload's file by "upload").
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RoutedMethods
    /// Paths (longest first) and what a client reads instead.
    let privatePaths: [(path: String, replacement: String)]

    init(routes: RoutedMethods, privatePaths: [(path: String, replacement: String)] = []) {
        self.routes = routes
        self.privatePaths = privatePaths.filter { !$0.path.isEmpty }.sorted { $0.path.count > $1.path.count }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let allowed = routes.allowedMethods(request.uri.path), !allowed.contains(request.method.rawValue) {
                throw Problem(
                    .methodNotAllowed, "\(request.uri.path) takes \(allowed.joined(separator: ", "))",
                    headers: [.allow: allowed.joined(separator: ", ")])
            }
            throw Problem.from(error)
        } catch {
            let problem = Problem.from(error)
            guard var problem = problem as? Problem else { throw problem }
            if problem.status == .internalServerError {
                // What a generated route's handler threw, not the runtime's wrapper, whose description holds the request's headers.
                let cause = (error as? ServerError)?.underlyingError ?? error
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: cause))")
            }
            problem.detail = privatePaths.reduce(problem.detail) { $0.replacingOccurrences(of: $1.path, with: $1.replacement) }
            throw problem
        }
    }
}

extension HTTPResponse.Status {
    /// 507 (RFC 4918): the server cannot store what the request needs.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
