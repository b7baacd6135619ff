import Foundation

/// Told that a library's persistent history has grown, whoever committed:
/// this process, another one with the library open, or (for a library in
/// PostgreSQL) another machine. The call carries no changes: read them
/// with ``PHPhotoLibrary/fetchPersistentChanges(since:)`` from the last
/// token the observer kept, so that nothing is missed between calls, across
/// restarts included.
public protocol PHPhotoLibraryPersistentChangesObserver: NSObjectProtocol {
    /// Called on a private serial queue (never the main queue) after one
    /// or more change blocks are committed.
    func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary)
}

extension PHPhotoLibrary {
    /// Starts telling `observer` when changes are committed. The library
    /// holds it weakly; registering twice has no further effect. Only a
    /// reader the library lets read (read-write access: the owner, or a
    /// client granted full or limited access) is told; one that may only
    /// add, or is denied, hears of nothing.
    ///
    /// ```swift
    /// final class Mirror: NSObject, PHPhotoLibraryPersistentChangesObserver {
    ///     var token: PHPersistentChangeToken
    ///     init(from token: PHPersistentChangeToken) { self.token = token }
    ///     func photoLibraryPersistentChangesDidUpdate(_ library: PHPhotoLibrary) {
    ///         guard let changes = try? library.fetchPersistentChanges(since: token) else { return }
    ///         for change in changes { token = change.changeToken }
    ///     }
    /// }
    /// ```
    public func register(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        changeObservers.register(observer)
    }

    /// Stops telling `observer`; a call already under way finishes.
    public func unregisterPersistentChangesObserver(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        changeObservers.unregister(observer)
    }
}
