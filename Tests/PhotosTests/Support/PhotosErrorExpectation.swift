import Foundation
import Photos
import Testing

/// Expects `body` to throw a `PHPhotosError` with `code`; returns the error.
@discardableResult
func expectPhotosError<Result>(
    _ code: PHPhotosError.Code, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Result
) -> PHPhotosError? {
    let error = #expect(throws: PHPhotosError.self, comment, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, comment, sourceLocation: sourceLocation)
    return error
}
