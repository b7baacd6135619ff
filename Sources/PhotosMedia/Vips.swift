import CPhotosMedia
import Foundation

/// libvips, initialised once, and its calls' errors told apart.
enum Vips {
    /// Whether libvips initialised; reading it initialises libvips the first time.
    static let isReady: Bool = pm_init() == 0

    /// Runs a call into libvips; returns nil when it succeeds, else the
    /// error text that this call, and no other, left.
    ///
    /// libvips keeps one error buffer for the whole process: files decoded
    /// side by side would mix their messages, and text a successful call
    /// leaves behind (a loader's complaint about a tag) would land in the
    /// next failure. So calls run side by side under a shared lock, and one
    /// that fails runs again alone, under the lock held exclusively, with
    /// the buffer emptied first: a file that fails to decode fails again the
    /// same way, and the text is its own. A call that succeeds the second
    /// time succeeds. Cost: a shared lock per call; a failure waits for the
    /// calls in flight and runs twice.
    static func run(_ call: () -> Int32) -> String? {
        let succeeded = calls.withShared { call() == 0 }
        guard !succeeded else { return nil }
        return calls.withExclusive {
            _ = takeError()
            return call() == 0 ? nil : takeError()
        }
    }

    /// Runs a call into libvips whose error text is of no use (a probe that
    /// fails on anything but an image); true when it succeeds. Cost: a shared lock.
    static func succeeds(_ call: () -> Int32) -> Bool {
        calls.withShared { call() == 0 }
    }

    private static let calls = SharedExclusiveLock()

    /// The pending libvips error text, cleared as it is read.
    private static func takeError() -> String {
        guard let text = pm_copy_error() else { return "unknown libvips error" }
        defer { pm_free(text) }
        let message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown libvips error" : message
    }
}

/// A lock many may hold shared or one exclusively; a waiting exclusive
/// holder goes before new shared ones, so it is never starved.
final class SharedExclusiveLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func withShared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func withExclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
