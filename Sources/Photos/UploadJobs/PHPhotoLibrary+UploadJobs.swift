import Foundation
import PhotosStore

/// Turning a client's upload-job extension on and off: while it is on, the
/// performer (`photos upload-jobs run`) sends the client's jobs and runs
/// its extension; while it is off, its jobs wait. The setting is kept in
/// the library, per client, and needs read-write access to the whole
/// library (the owner, or a client granted full access).
extension PHPhotoLibrary {
    /// Whether the calling client's extension is enabled. Cost: one query.
    public var uploadJobExtensionEnabled: Bool {
        (try? requireStore().uploadExtension()) != nil
    }

    /// The calling client's options; nil when its extension is not enabled
    /// (or it may not read the library).
    public var uploadJobExtensionOptions: PHAssetResourceUploadJobOptions? {
        guard let stored = try? requireStore().uploadExtension() else { return nil }
        let options = PHAssetResourceUploadJobOptions()
        options.preventsExpensiveNetworkAccess = stored.preventsExpensiveNetworkAccess
        options.extensionCommand = stored.command
        return options
    }

    /// Enables the calling client's extension with `options` (nil: the
    /// defaults), in one change. Enable it before creating jobs: jobs of a
    /// client whose extension is off are kept but not sent. Throws
    /// `accessRestricted` without read-write access to the whole library.
    public func enableUploadJobExtension(with options: PHAssetResourceUploadJobOptions?) throws {
        let options = options ?? PHAssetResourceUploadJobOptions()
        try commitUploadExtension(
            .enableExtension(preventsExpensiveNetworkAccess: options.preventsExpensiveNetworkAccess, command: options.extensionCommand))
    }

    /// Disables the calling client's extension: its unfinished jobs wait
    /// until it is enabled again.
    public func disableUploadJobExtension() throws {
        try commitUploadExtension(.disableExtension)
    }

    /// Changes the options of the calling client's enabled extension;
    /// fresh options reset them. Throws `changeNotSupported` when it is not enabled.
    public func setUploadJobExtensionOptions(_ options: PHAssetResourceUploadJobOptions) throws {
        guard uploadJobExtensionEnabled else {
            throw PHPhotosError(.changeNotSupported, "the upload-job extension is not enabled: enable it with its options")
        }
        try enableUploadJobExtension(with: options)
    }

    /// Enables or disables the extension; deprecated by Apple for
    /// ``enableUploadJobExtension(with:)`` and ``disableUploadJobExtension()``.
    @available(*, deprecated, message: "Use enableUploadJobExtension(with:) and disableUploadJobExtension() instead")
    public func setUploadJobExtensionEnabled(_ enable: Bool) throws {
        if enable { try enableUploadJobExtension(with: nil) } else { try disableUploadJobExtension() }
    }

    private func commitUploadExtension(_ change: UploadJobChange) throws {
        let store = try requireStore()
        do {
            let grant = store.client == nil ? AccessGrant.readWrite : try store.grant()
            guard grant == .readWrite else {
                throw PHPhotosError(.accessRestricted, "upload jobs need read-write access to the whole library")
            }
            var changes = ChangeSet()
            changes.uploadJobChanges = [change]
            _ = try store.beginCommit().commit(changes)
        } catch let error as StoreError {
            throw PHPhotosError(storeError: error)
        }
    }
}
