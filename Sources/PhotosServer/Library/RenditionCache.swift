import Foundation
import NIOCore
import Synchronization

/// Renditions as last served, in memory, so that a grid's thumbnails are
/// answered without a query, a file read or a thread hop: by principal's
/// client, asset id and rendition. Any commit, by any process, empties it
/// (the owner's instance sees every one), so nothing is served that a
/// grant no longer covers or that an edit replaced. Bounded in bytes.
final class RenditionCache: Sendable {
    struct Key: Hashable, Sendable {
        let client: String?
        let assetID: String
        let rendition: String
    }

    struct Entry: Sendable {
        let contentVersion: Int
        let tag: String
        let body: ByteBuffer
    }

    private struct State {
        var generation = 0
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    let byteLimit: Int
    private let state = Mutex(State())

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    /// The cached entry and the generation it belongs to (pass it to `store`).
    func lookup(_ key: Key) -> (entry: Entry?, generation: Int) {
        state.withLock { ($0.entries[key], $0.generation) }
    }

    /// Keeps an entry read at `generation`, unless a commit came since.
    func store(_ entry: Entry, for key: Key, readAt generation: Int) {
        state.withLock { state in
            guard state.generation == generation, entry.body.readableBytes <= byteLimit / 16 else { return }
            if state.bytes + entry.body.readableBytes > byteLimit {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.bytes += entry.body.readableBytes - (state.entries[key]?.body.readableBytes ?? 0)
            state.entries[key] = entry
        }
    }

    /// Forgets everything: a change block was committed.
    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.entries.removeAll(keepingCapacity: true)
            state.bytes = 0
        }
    }
}
