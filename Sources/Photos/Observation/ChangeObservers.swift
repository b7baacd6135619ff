import Foundation
import PhotosStore

/// A library's registered observers, of changes (with a `PHChange`, or
/// only told of them, for persistent history), and of availability, and
/// the delivery of what they hear.
///
/// While at least one observer is registered, a commit watcher reports
/// change blocks committed by any process, and the library becoming
/// unavailable; commits made through this library are reported at once.
/// Each delivery covers every change block since the previous one, so a
/// burst may arrive as one `PHChange`, but none is split or lost.
final class ChangeObservers: @unchecked Sendable {
    /// Where observers are called: a private serial queue, never the main one.
    let deliveryQueue = DispatchQueue(label: "photos.change-observers")
    private weak var library: PHPhotoLibrary?
    private let lock = NSLock()
    private var entries = WeakObservers<any PHPhotoLibraryChangeObserver>()
    private var availabilityEntries = WeakObservers<any PHPhotoLibraryAvailabilityObserver>()
    private var persistentEntries = WeakObservers<any PHPhotoLibraryPersistentChangesObserver>()
    private var watcher: (any CommitWatcher)?
    private var lastDelivered: Int64 = 0
    /// The newest change block reported committed; a delivery reaches it,
    /// so that reports queued behind a slow observer are folded into one.
    private var lastCommitted: Int64 = 0
    /// Whether availability observers were told the library became unavailable.
    private var reportedUnavailable = false

    /// Binds the registry to its library, once, as the library is made.
    func attach(to library: PHPhotoLibrary) {
        self.library = library
    }

    deinit {
        watcher?.stop()
    }

    func register(_ observer: any PHPhotoLibraryChangeObserver) {
        changingObservers { entries.insert(observer) }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        changingObservers { entries.remove(observer) }
    }

    func register(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        changingObservers { persistentEntries.insert(observer) }
    }

    func unregister(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        changingObservers { persistentEntries.remove(observer) }
    }

    func register(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        changingObservers { availabilityEntries.insert(observer) }
    }

    func unregister(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        changingObservers { availabilityEntries.remove(observer) }
    }

    /// Changes who is registered, then watches while anyone is.
    private func changingObservers(_ change: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change()
        if isObserved { startWatching() } else { stopWatchingIfUnobserved() }
    }

    /// Tells availability observers, once, when the library has become
    /// unavailable (a change block just failed on damage, say); when it is
    /// available again (a check found it whole), watches again.
    func checkAvailability() {
        guard library?.unavailabilityReason == nil else {
            deliveryQueue.async { [self] in deliverUnavailability() }
            return
        }
        lock.lock()
        defer { lock.unlock() }
        guard reportedUnavailable else { return }
        reportedUnavailable = false
        if isObserved { startWatching() }
    }

    /// Call with the lock held.
    private func startWatching() {
        guard watcher == nil, !reportedUnavailable, let store = library?.store else { return }
        do {
            let state = try store.watchedState()
            lastDelivered = state.changeBlock
            watcher = try store.watchCommits(
                after: state,
                onChange: { [weak self] latest in
                    self?.committed(through: latest.changeBlock)
                },
                onUnavailable: { [weak self] _ in
                    guard let self else { return }
                    deliveryQueue.async { self.deliverUnavailability() }
                })
        } catch {
            Diagnostics.report(error, while: "starting to watch for changes")
        }
    }

    private func deliverUnavailability() {
        lock.lock()
        guard !reportedUnavailable, let library else {
            lock.unlock()
            return
        }
        reportedUnavailable = true
        watcher?.stop()
        watcher = nil
        let observers = availabilityEntries.live
        lock.unlock()
        for observer in observers {
            observer.photoLibraryDidBecomeUnavailable(library)
        }
    }

    /// Reports that the change blocks up to `changeBlock` are committed.
    func committed(through changeBlock: Int64) {
        lock.withLock { lastCommitted = max(lastCommitted, changeBlock) }
        deliveryQueue.async { [self] in deliverCommitted() }
    }

    private func deliverCommitted() {
        lock.lock()
        let changeBlock = lastCommitted
        guard changeBlock > lastDelivered, !entries.isEmpty || !persistentEntries.isEmpty, let library else {
            stopWatchingIfUnobserved()
            lock.unlock()
            return
        }
        let from = lastDelivered
        lastDelivered = changeBlock
        let observers = entries.live
        let persistentObservers = persistentEntries.live
        lock.unlock()
        // A client that may not read hears of no change, not even that one happened.
        guard (try? library.store?.grant())??.mayRead == true else { return }
        if !observers.isEmpty {
            let change = PHChange(library: library, from: from, to: changeBlock)
            for observer in observers where isRegistered(observer) {
                observer.photoLibraryDidChange(change)
            }
        }
        for observer in persistentObservers where lock.withLock({ persistentEntries.contains(observer) }) {
            observer.photoLibraryPersistentChangesDidUpdate(library)
        }
    }

    /// Whether the observer is still registered: one unregistered by an
    /// earlier observer of the same change is not called.
    private func isRegistered(_ observer: any PHPhotoLibraryChangeObserver) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return entries.contains(observer)
    }

    /// Whether any observer, of either kind, is alive. Call with the lock held.
    private var isObserved: Bool {
        !entries.isEmpty || !availabilityEntries.isEmpty || !persistentEntries.isEmpty
    }

    /// Call with the lock held.
    private func stopWatchingIfUnobserved() {
        if !isObserved {
            watcher?.stop()
            watcher = nil
        }
    }
}

/// Observers held weakly, each once: one that is deallocated drops out.
struct WeakObservers<Observer> {
    private var objects: [(object: Weak, identity: ObjectIdentifier)] = []

    private struct Weak {
        weak var object: AnyObject?
    }

    /// The observers still alive, in the order they were registered.
    var live: [Observer] { objects.compactMap { $0.object.object as? Observer } }

    /// Whether no observer is alive.
    var isEmpty: Bool { objects.allSatisfy { $0.object.object == nil } }

    mutating func insert(_ observer: Observer) {
        let object = observer as AnyObject
        objects.removeAll { $0.object.object == nil }
        guard !contains(observer) else { return }
        objects.append((Weak(object: object), ObjectIdentifier(object)))
    }

    mutating func remove(_ observer: Observer) {
        let identity = ObjectIdentifier(observer as AnyObject)
        objects.removeAll { $0.identity == identity || $0.object.object == nil }
    }

    func contains(_ observer: Observer) -> Bool {
        let identity = ObjectIdentifier(observer as AnyObject)
        return objects.contains { $0.identity == identity }
    }
}
