import Foundation

/// Why a predicate format string, or a predicate or sort descriptor given to
/// a fetch, was refused. `position` is the character offset in the format
/// string where the problem starts.
public struct PHPredicateError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The format string, when the problem is in one.
    public let format: String?
    /// Character offset into `format` (0 is the first character); nil when there is no format.
    public let position: Int?
    /// What is wrong, in one sentence.
    public let reason: String

    /// Creates an error about a format string, or about a predicate without one.
    public init(reason: String, format: String? = nil, position: Int? = nil) {
        self.reason = reason
        self.format = format
        self.position = position
    }

    /// The reason, the position, and the format string with a caret under the position.
    public var description: String {
        guard let format, let position else { return reason }
        let caret = String(repeating: " ", count: position) + "^"
        return "\(reason) at position \(position) of the predicate format\n  \(format)\n  \(caret)"
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
