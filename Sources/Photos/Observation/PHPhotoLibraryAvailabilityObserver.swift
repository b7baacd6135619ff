import Foundation

/// Told when a library that was open stops being usable: its database was
/// removed or replaced, its write-ahead log was deleted under a writer, or
/// damage was found in it. `PHPhotoLibrary.unavailabilityReason` says which.
public protocol PHPhotoLibraryAvailabilityObserver: NSObjectProtocol {
    /// Called once, on a private serial queue (never the main queue), when
    /// the library becomes unavailable.
    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary)
}

extension PHPhotoLibrary {
    /// Starts telling `observer` when the library becomes unavailable. The
    /// library holds it weakly. Watching costs a thread per library while
    /// any observer is registered, idle until the library's files change.
    public func register(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        changeObservers.register(observer)
    }

    /// Stops telling `observer` when the library becomes unavailable.
    public func unregisterAvailabilityObserver(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        changeObservers.unregister(observer)
    }
}
