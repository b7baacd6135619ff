import Foundation
import HTTPTypes
import NIOCore
import Photos
import Synchronization

/// What the server last answered, in memory, until the next commit by any
/// process: the owner's instance hears of every change block (grants
/// included) and empties every cache, so nothing is served that a grant
/// no longer covers or that a change replaced. Keys carry the principal's
/// client, so one client's entries never answer another. Bounded by the
/// cost of its entries (bytes, or rows).
final class CommitCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var generation = 0
        var entries: [Key: Value] = [:]
        var cost = 0
    }

    let costLimit: Int
    private let cost: @Sendable (Value) -> Int
    private let state = Mutex(State())

    init(costLimit: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.costLimit = costLimit
        self.cost = cost
    }

    /// The cached value and the generation it belongs to (pass it to `store`).
    func lookup(_ key: Key) -> (value: Value?, generation: Int) {
        state.withLock { ($0.entries[key], $0.generation) }
    }

    /// Keeps a value read at `generation`, unless a commit came since.
    func store(_ value: Value, for key: Key, readAt generation: Int) {
        let added = cost(value)
        state.withLock { state in
            guard state.generation == generation, added <= costLimit / 16 else { return }
            if state.cost + added > costLimit {
                state.entries.removeAll(keepingCapacity: true)
                state.cost = 0
            }
            state.cost += added - (state.entries[key].map(cost) ?? 0)
            state.entries[key] = value
        }
    }

    /// The value for `key`, computed by `make` (off the event loops) when
    /// it is not cached.
    func value(_ key: Key, _ make: @escaping @Sendable () throws -> Value) async throws -> Value {
        let (cached, generation) = lookup(key)
        if let cached { return cached }
        let value = try await blocking(make)
        store(value, for: key, readAt: generation)
        return value
    }

    /// Forgets everything: a change block was committed.
    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.entries.removeAll(keepingCapacity: true)
            state.cost = 0
        }
    }
}

/// A rendition as last served, with the headers of its 200 made once
/// (``ImageRoutes/cachedRendition(_:of:jpeg:)``), not at every request.
struct CachedRendition: Sendable {
    struct Key: Hashable, Sendable {
        let client: String?
        let assetID: String
        let rendition: PHImageManager.Rendition
    }

    let contentVersion: Int
    let tag: String
    let body: ByteBuffer
    /// A 200's headers when the URL names the current version (`?v=`), immutable.
    let versionedHeaders: PreparedHeaders
    /// A 200's headers when it does not, to be revalidated.
    let unversionedHeaders: PreparedHeaders
}

/// A response's headers in both forms the server writes them: HTTP types
/// for the router, and the field lines of an HTTP/1.1 head, as
/// ``CachedRenditionHandler`` writes them to the wire; encoded once here
/// rather than at every answer.
struct PreparedHeaders: Sendable {
    let fields: HTTPFields
    /// `Name: value` CRLF for each field, in order.
    let http1Lines: ByteBuffer

    init(_ fields: HTTPFields) {
        self.fields = fields
        var lines = ByteBuffer()
        for field in fields {
            lines.writeString(field.name.rawName)
            lines.writeStaticString(": ")
            lines.writeString(field.value)
            lines.writeStaticString("\r\n")
        }
        http1Lines = lines
    }
}

/// A timeline query: whose, which buckets (nil: the months), and the filter's text.
struct TimelineKey: Hashable, Sendable {
    let client: String?
    let month: PHTimelineBucket.Period?
    let predicate: String?
    let hidden: Bool
}
