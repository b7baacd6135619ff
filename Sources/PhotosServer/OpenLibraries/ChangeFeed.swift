import Foundation
import Photos
import Synchronization

/// One client's persistent history as its event streams read it: a single
/// reader per client, whatever the number of its streams.
///
/// Registered as a change observer of the client's library instance, it
/// reads the history since its last token once per commit it hears of (by
/// any process), off the observer's queue, and keeps the latest changes in
/// memory (``keptBytes`` of them). A stream at any token among them
/// takes what follows from memory; one further behind reads its own way
/// there. Subscribers are woken only when a read finds changes the client
/// may see: a commit about what it cannot see reads nothing new, and wakes
/// nobody, so its streams' timing tells nothing of it.
final class ChangeFeed: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    let library: PHPhotoLibrary
    private let state: Mutex<State>
    /// About how many bytes the kept changes may take; older changes go
    /// first. Enough for the changes of the busiest seconds, which woken
    /// streams take at once (a one-asset change takes about 700 bytes).
    static let keptBytes = 1 << 20
    /// The change blocks one read of history takes at most.
    static let pageSize = 1000

    /// What a subscriber is woken for.
    enum Wake: Sendable {
        /// Changes after the subscriber's token may be waiting.
        case changes
        /// Its own clock says to send a comment.
        case heartbeat
    }

    private struct State {
        /// The token of the last change read.
        var head: String
        /// The changes read lately, oldest first, and the bytes they take.
        var recent: [ChangeRepresentation] = []
        var recentCost = 0
        var subscribers: [UUID: AsyncStream<Wake>.Continuation] = [:]
        /// A read in progress, and whether a commit came during it.
        var reading = false
        var readAgain = false
        var stopped = false
    }

    private init(library: PHPhotoLibrary, head: String) {
        self.library = library
        state = Mutex(State(head: head))
    }

    /// A feed of `library`'s history from now on. Cost: one read of the
    /// current token, off the event loops.
    static func start(library: PHPhotoLibrary) async throws -> ChangeFeed {
        let head = try await blocking { library.currentChangeToken.textRepresentation }
        let feed = ChangeFeed(library: library, head: head)
        library.register(feed)
        return feed
    }

    /// Stops hearing of commits, and ends every subscription.
    func stop() {
        library.unregisterChangeObserver(self)
        let continuations = state.withLock { state in
            state.stopped = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// A subscription: wake-ups until `unsubscribe` (or the feed stops).
    /// The caller also yields its heartbeats into `continuation`.
    func subscribe() -> (id: UUID, wakes: AsyncStream<Wake>, continuation: AsyncStream<Wake>.Continuation) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Wake>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let stopped = state.withLock { state in
            if !state.stopped { state.subscribers[id] = continuation }
            return state.stopped
        }
        if stopped { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return (id, stream, continuation)
    }

    func unsubscribe(_ id: UUID) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.finish()
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The changes after the one whose token is `token`, from memory; nil
    /// when the feed no longer keeps (or never read) that token: the
    /// subscriber reads its own way from there.
    func changes(after token: String) -> [ChangeRepresentation]? {
        state.withLock { state in
            if token == state.head { return [] }
            guard let index = state.recent.lastIndex(where: { $0.token == token }) else { return nil }
            return Array(state.recent[(index + 1)...])
        }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let starts = state.withLock { state in
            guard !state.stopped else { return false }
            if state.reading {
                state.readAgain = true
                return false
            }
            state.reading = true
            return true
        }
        if starts { Task { await read() } }
    }

    /// Reads what is new until no commit came meanwhile, then wakes the
    /// subscribers if anything was.
    private func read() async {
        var found = false
        while true {
            let head = state.withLock { $0.head }
            let library = self.library
            let read = try? await blocking { () throws -> (changes: [ChangeRepresentation], head: String) in
                // The feed's own token failing (its history pruned past it): start again from now,
                // and let each subscriber find its own way (which then says why).
                var changes: [ChangeRepresentation] = []
                var position = head
                // Page by page, so that a feed far behind reads its way in steps.
                while true {
                    guard let since = PHPersistentChangeToken(textRepresentation: position),
                        let page = try? library.fetchPersistentChanges(since: since, limit: Self.pageSize)
                    else {
                        return ([], library.currentChangeToken.textRepresentation)
                    }
                    var read = 0
                    for change in page {
                        changes.append(ChangeRepresentation(change))
                        read += 1
                    }
                    position = changes.last?.token ?? position
                    if read < Self.pageSize { break }
                }
                return (changes, position)
            }
            let again = state.withLock { state in
                if let read, read.changes.isEmpty, read.head != state.head {
                    found = true
                    state.head = read.head
                    state.recent = []
                    state.recentCost = 0
                } else if let read, !read.changes.isEmpty {
                    found = true
                    state.head = read.head
                    for change in read.changes {
                        state.recent.append(change)
                        state.recentCost += change.memoryCost
                    }
                    while state.recentCost > Self.keptBytes, !state.recent.isEmpty {
                        state.recentCost -= state.recent.removeFirst().memoryCost
                    }
                }
                defer { state.readAgain = false }
                if !state.readAgain { state.reading = false }
                return state.readAgain
            }
            if !again { break }
        }
        guard found else { return }
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(.changes) }
    }
}
