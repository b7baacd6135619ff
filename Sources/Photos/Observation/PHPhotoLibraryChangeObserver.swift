import Foundation

/// Told about changes to a library, whoever made them: this process or any
/// other that has the library open.
public protocol PHPhotoLibraryChangeObserver: NSObjectProtocol {
    /// Called on a private serial queue (never the main queue) once per
    /// committed change block, or once for several committed close together.
    /// Ask `changeInstance` about the objects and fetch results shown; it
    /// stays valid after this returns.
    func photoLibraryDidChange(_ changeInstance: PHChange)
}

extension PHPhotoLibrary {
    /// Starts telling `observer` about changes. The library holds it weakly:
    /// an observer that is deallocated is simply not called. Registering
    /// twice has no further effect.
    ///
    /// An observer that keeps an album's contents up to date:
    ///
    /// ```swift
    /// final class AlbumObserver: NSObject, PHPhotoLibraryChangeObserver {
    ///     private(set) var contents: PHFetchResult<PHAsset>
    ///
    ///     init(album: PHAssetCollection) {
    ///         contents = PHAsset.fetchAssets(in: album, options: nil)
    ///     }
    ///
    ///     func photoLibraryDidChange(_ change: PHChange) {
    ///         guard let details = change.changeDetails(for: contents) else { return }
    ///         contents = details.fetchResultAfterChanges
    ///     }
    /// }
    ///
    /// let observer = AlbumObserver(album: album)
    /// library.register(observer)  // held weakly: keep `observer` alive
    /// ```
    public func register(_ observer: any PHPhotoLibraryChangeObserver) {
        changeObservers.register(observer)
    }

    /// Stops telling `observer` about changes, including changes already
    /// committed but not yet delivered.
    public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
        changeObservers.unregister(observer)
    }
}
