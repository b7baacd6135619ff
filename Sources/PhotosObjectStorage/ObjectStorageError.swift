import Foundation

/// Why a request to object storage failed.
package enum ObjectStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No object has this key.
    case notFound(key: String)
    /// The server refused the request: its HTTP status, S3 error code and message.
    case refused(status: Int, code: String, message: String)
    /// The server could not be reached, or the connection broke.
    case unreachable(String)
    /// A location or answer that is not what S3 speaks.
    case invalid(String)

    package var description: String {
        switch self {
        case .notFound(let key): "no object \(key)"
        case .refused(let status, let code, let message): "object storage refused the request (\(status) \(code)): \(message)"
        case .unreachable(let reason): "object storage cannot be reached: \(reason)"
        case .invalid(let reason): reason
        }
    }
}
