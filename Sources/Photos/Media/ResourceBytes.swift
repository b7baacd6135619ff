import Foundation

/// Where a resource's bytes are read from when streamed by range, from
/// `PHAssetResource.bytes()`: a file on this machine, or an object in
/// remote storage read a range at a time.
package enum ResourceBytes: Sendable {
    /// A readable file on this machine.
    case file(URL)
    /// `read` gives the bytes of an inclusive range within `0..<size`; one request each.
    case remote(size: Int64, read: @Sendable (ClosedRange<Int64>) async throws -> Data)
}
