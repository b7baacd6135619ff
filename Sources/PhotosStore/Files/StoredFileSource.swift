import Foundation

/// Where a stored file's bytes can be read in ranges, as
/// ``LibraryFileStorage/source(forStoredPath:)`` gives it: a local file, or
/// an object read a range at a time, so that a video's seek fetches only
/// what is played.
package enum StoredFileSource: Sendable {
    /// A file on this machine (the library's directory, or a cached copy).
    case local(URL)
    /// An object elsewhere, never fetched whole.
    case remote(any RemoteStoredFile)
}

/// A stored file in remote storage, read by ranges.
package protocol RemoteStoredFile: Sendable {
    /// Its size in bytes, learnt when the source was made.
    var size: Int64 { get }
    /// The bytes of `range` (inclusive, within `0..<size`). Cost: one request.
    func read(_ range: ClosedRange<Int64>) async throws(StoreError) -> Data
}
