import Foundation
import PhotosMedia
import PhotosStore

/// A photo library on disk: assets, albums and folders, the change blocks
/// that edit them, and the observers told about changes.
///
/// `shared()` is the library named by the environment variable
/// `PHOTOS_LIBRARY`, else `$XDG_DATA_HOME/photos/Photos Library.photoslibrary`
/// (`~/.local/share/...` by default), created on first use. Servers and
/// tests can open any number of others with ``init(url:options:clientIdentifier:)``.
///
/// PhotoKit's class fetch methods (`PHAsset.fetchAssets(with:)`...) read the
/// shared library; `withCurrentLibrary(_:)` runs them against another one.
/// Methods taking an object (`fetchAssets(in: album)`) read the object's
/// own library.
///
/// A process opens a library either as its owner, with full access, or as
/// a client (`PHOTOS_CLIENT_ID`, or ``init(url:options:clientIdentifier:)``)
/// whose access the owner grants: see `authorizationStatus(for:)`.
public final class PHPhotoLibrary: NSObject, @unchecked Sendable {
    /// How to open a library.
    public struct OpenOptions: OptionSet, Sendable {
        /// The option bits.
        public let rawValue: Int

        /// Wraps a raw value.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Open a library even on a network or FUSE file system or inside a
        /// folder a sync client manages, where SQLite's locks may fail and
        /// the database can be damaged.
        public static let allowUnsafeLocation = OpenOptions(rawValue: 1 << 0)
        /// Fail rather than create a library when the directory is missing or empty.
        public static let mustExist = OpenOptions(rawValue: 1 << 1)
    }

    /// The library's directory.
    public let url: URL
    /// The client this process acts for, or nil for the library's owner.
    public let clientIdentifier: String?
    /// Why the library cannot be used, or nil when it can: the shared
    /// library failed to open (fetches then return empty results and change
    /// blocks fail with this error), or, since it opened, damage was found
    /// in its database, its write-ahead log was deleted under a writer, or
    /// its database was removed (change blocks then fail with this error;
    /// what can still be read is read). Availability observers are told
    /// when it changes. Cost: a few `stat`s.
    public var unavailabilityReason: (any Error)? {
        openFailure ?? store?.availabilityProblem().map { PHPhotosError(storeError: $0) }
    }

    /// Why the shared library could not be opened.
    private let openFailure: PHPhotosError?

    package let store: (any PhotoStore)?
    let changeQueue: DispatchQueue
    private let changeQueueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// Registered change observers and their delivery.
    let changeObservers = ChangeObservers()
    /// When this object last pruned the change history.
    let historyMaintenance = Throttle()
    /// Thumbnails, previews and video frames on disk: the store's.
    let derivatives: DerivativeCache

    /// A readable file with the bytes of a file the database names; nil
    /// when the path is not one the library writes, or no store is open.
    /// Throws when the storage cannot give the bytes (`missingResource` for
    /// a file it does not have).
    func storedFileURL(_ storedPath: String) throws(PHPhotosError) -> URL? {
        do {
            return try store?.files.readableURL(forStoredPath: storedPath)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    private init(url: URL, store: (any PhotoStore)?, clientIdentifier: String?, openFailure: PHPhotosError?) {
        self.url = url
        self.store = store
        self.clientIdentifier = clientIdentifier
        derivatives = store?.files.derivatives ?? DerivativeCache(root: LibraryLayout(root: url).derivatives)
        self.openFailure = openFailure
        changeQueue = DispatchQueue(label: "photos.changes")
        super.init()
        changeQueue.setSpecific(key: changeQueueKey, value: ObjectIdentifier(self))
        changeObservers.attach(to: self)
    }

    /// Opens the library at `url`, creating it when the directory is missing
    /// or empty (unless `.mustExist`), as the client `clientIdentifier`, or
    /// as the library's owner when it is nil. The client defaults to the
    /// process's (``processClientIdentifier``); the owner has full access, a
    /// client what the owner granted it.
    ///
    /// Throws `PHPhotosError.libraryInFileProviderSyncRoot` when the directory
    /// is on a network or FUSE file system or inside a synced folder (unless
    /// `.allowUnsafeLocation`), and a `PHPhotosError` saying why for a library
    /// written by a newer version, a damaged one, or a directory that holds
    /// something else, and `accessUserDenied` for a malformed client
    /// identifier. Nothing on disk is changed when it throws.
    ///
    /// `url` may also name a library in PostgreSQL,
    /// `postgres://USER@HOST/DB?library=NAME` (the password from
    /// `PHOTOS_POSTGRES_PASSWORD` or `PHOTOS_POSTGRES_PASSWORD_FILE`, never
    /// in the URL), which any number of processes on any machines share;
    /// creating one needs ``init(url:originals:options:clientIdentifier:)``.
    /// Cost: opening SQLite and, for a new library, creating it; for
    /// PostgreSQL, one connection to check the server, and the schema's
    /// creation for a new library.
    public convenience init(
        url: URL, options: OpenOptions = [],
        clientIdentifier: String? = PHPhotoLibrary.processClientIdentifier
    ) throws {
        try self.init(url: url, originals: nil, options: options, clientIdentifier: clientIdentifier)
    }

    /// Opens the library at `url` as ``init(url:options:clientIdentifier:)``
    /// does; a library created here keeps its originals (and edits) at
    /// `originals`, an S3-compatible object storage location such as
    /// `s3://bucket/prefix?endpoint=http://host:9000&region=us-east-1`,
    /// instead of in its directory, which keeps the database, thumbnails and
    /// a cache of the originals read. Credentials come from the environment:
    /// `PHOTOS_S3_ACCESS_KEY_ID` and `PHOTOS_S3_SECRET_ACCESS_KEY` (or AWS's
    /// variables), or `PHOTOS_S3_CREDENTIALS_FILE`. An existing library must
    /// name the place it was created with, or nil. A PostgreSQL library
    /// (see ``init(url:options:clientIdentifier:)``) needs one when created:
    /// object storage, or `file:///DIR`, a directory every machine mounts.
    ///
    /// ```swift
    /// let library = try PHPhotoLibrary(
    ///     url: URL(fileURLWithPath: "/srv/photos/Family.photoslibrary"),
    ///     originals: URL(string: "s3://family-photos/library?endpoint=http://nas.local:9000"))
    /// ```
    ///
    /// Cost: as the other initializer; no request reaches the storage until a file is read or stored.
    public convenience init(
        url: URL, originals: URL?, options: OpenOptions = [],
        clientIdentifier: String? = PHPhotoLibrary.processClientIdentifier
    ) throws {
        let store: any PhotoStore
        do {
            store = try LibraryBackend.open(
                url,
                options: .init(
                    createIfNeeded: !options.contains(.mustExist),
                    allowsUnsafeLocation: options.contains(.allowUnsafeLocation),
                    client: clientIdentifier,
                    originals: originals?.absoluteString,
                    fileStorage: LinkedBackends.fileStorage,
                    databases: LinkedBackends.databases))
        } catch {
            throw PHPhotosError(storeError: error)
        }
        self.init(url: store.location, store: store, clientIdentifier: clientIdentifier, openFailure: nil)
        performMaintenanceInBackground()
    }

    /// The client identifier of this process: the environment variable
    /// `PHOTOS_CLIENT_ID`, or nil (the library's owner) when it is unset or empty.
    public static var processClientIdentifier: String? {
        ProcessInfo.processInfo.environment["PHOTOS_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static let sharedLibrary: PHPhotoLibrary = {
        let environment = ProcessInfo.processInfo.environment
        let url = defaultURL(environment: environment)
        let options: OpenOptions = environment["PHOTOS_ALLOW_UNSAFE_LOCATION"] == "1" ? [.allowUnsafeLocation] : []
        do {
            return try PHPhotoLibrary(url: url, options: options)
        } catch {
            let reason = error as? PHPhotosError ?? PHPhotosError(.internalError, "\(error)")
            FileHandle.standardError.write(Data("Photos: the library at \(url.path) is unavailable: \(reason.localizedDescription)\n".utf8))
            return PHPhotoLibrary(url: url, store: nil, clientIdentifier: processClientIdentifier, openFailure: reason)
        }
    }()

    /// The library named by `PHOTOS_LIBRARY` (else the XDG default), opened
    /// on first use, as the client `PHOTOS_CLIENT_ID` names (the owner when
    /// unset). When it cannot be opened, `unavailabilityReason` says why.
    /// Inside `withCurrentLibrary(_:)` and change blocks, the library bound
    /// there stands in for it.
    public class func shared() -> PHPhotoLibrary {
        scoped ?? sharedLibrary
    }

    /// The library a command line or `PHOTOS_LIBRARY` names: a URL with a
    /// scheme (`postgres://…`, `file://…`) as it is, anything else as a
    /// directory's path, `~` expanded. (An OpenPhotoKit addition.)
    public static func libraryURL(_ location: String) -> URL {
        if let separator = location.range(of: "://"), !location[..<separator.lowerBound].isEmpty,
            location[..<separator.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            let url = URL(string: location)
        {
            return url
        }
        return URL(fileURLWithPath: (location as NSString).expandingTildeInPath)
    }

    /// The library's name as people call it: its directory's name without
    /// the extension, or its name inside a database.
    package var name: String {
        store?.name ?? url.deletingPathExtension().lastPathComponent
    }

    /// The local directory of the library's files (see `PhotoStore.layout`).
    package var filesDirectory: URL {
        store?.layout.root ?? url
    }

    /// The library's location as people read it: a directory's path, or a
    /// database library's URL (which never holds a password). (An
    /// OpenPhotoKit addition.)
    public var locationDescription: String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// Where `shared()` looks: `PHOTOS_LIBRARY`, else
    /// `$XDG_DATA_HOME/photos/Photos Library.photoslibrary`, with
    /// `XDG_DATA_HOME` defaulting to `~/.local/share`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let location = environment["PHOTOS_LIBRARY"], !location.isEmpty {
            return libraryURL(location)
        }
        var dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if dataHome == nil {
            let home = environment["HOME"] ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return URL(fileURLWithPath: dataHome!).appendingPathComponent("photos/Photos Library.photoslibrary")
    }

    // MARK: - The current library

    @TaskLocal static var scoped: PHPhotoLibrary?

    /// The library class fetch methods read: the one bound by
    /// `withCurrentLibrary(_:)` or by a running change block, else the shared one.
    static var current: PHPhotoLibrary { shared() }

    /// Runs `body` with this library standing in for `shared()`, so that
    /// `PHPhotoLibrary.shared()` and PhotoKit's class methods
    /// (`PHAsset.fetchAssets(with:)`, the change requests' class methods,
    /// `authorizationStatus(for:)`...) act on it. The binding follows the
    /// task and nested calls; it ends when `body` returns.
    public func withCurrentLibrary<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$scoped.withValue(self, operation: body)
    }

    /// Runs asynchronous `body` with this library standing in for `shared()`.
    public func withCurrentLibrary<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$scoped.withValue(self, operation: body)
    }

    // MARK: - Change blocks

    /// Runs `changeBlock` on the library's serial change queue, then applies
    /// the changes it requested atomically and calls `completionHandler` on
    /// that queue. Nothing is stored when anything fails: the handler gets
    /// `false` and a `PHPhotosError`.
    ///
    /// Cost: the block, plus reading and copying the files of new assets,
    /// plus one SQLite transaction.
    ///
    /// Mark an asset as a favorite without waiting for the commit:
    ///
    /// ```swift
    /// library.performChanges {
    ///     let request = PHAssetChangeRequest(for: asset)
    ///     request.isFavorite = true
    /// } completionHandler: { success, error in
    ///     if !success {
    ///         print("not saved:", error?.localizedDescription ?? "unknown error")
    ///     }
    /// }
    /// ```
    public func performChanges(
        _ changeBlock: @escaping () -> Void,
        completionHandler: (@Sendable (Bool, (any Error)?) -> Void)? = nil
    ) {
        if ChangeBlock.current != nil {
            let error = PHPhotosError(.changeNotSupported, "performChanges was called inside a change block; nesting change blocks is not allowed")
            changeQueue.async { completionHandler?(false, error) }
            return
        }
        let block = UncheckedSendable(changeBlock)
        changeQueue.async {
            do {
                try self.runChangeBlock(block.value)
                completionHandler?(true, nil)
            } catch {
                completionHandler?(false, error)
            }
        }
    }

    /// Runs a change block and waits for it to be applied, throwing the
    /// `PHPhotosError` that stopped it. Do not call it from a change block.
    public func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        let block = UncheckedSendable(changeBlock)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            performChanges(block.value) { success, error in
                if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: error ?? PHPhotosError(.internalError, "the change block failed"))
                }
            }
        }
    }

    /// Runs a change block synchronously and applies it, throwing the
    /// `PHPhotosError` that stopped it. Calling it inside a change block
    /// throws `changeNotSupported`: nesting is not allowed.
    ///
    /// Import a photo into a new album, both or neither:
    ///
    /// ```swift
    /// try library.performChangesAndWait {
    ///     let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Summer")
    ///     let photo = PHAssetChangeRequest.creationRequestForAssetFromImage(
    ///         atFileURL: URL(fileURLWithPath: "/home/me/DCIM/IMG_0001.JPG"))
    ///     if let placeholder = photo?.placeholderForCreatedAsset {
    ///         album.addAssets([placeholder] as NSArray)
    ///     }
    /// }
    /// ```
    public func performChangesAndWait(_ changeBlock: @escaping () -> Void) throws {
        _ = try performChangesAndWait(skippingDuplicates: false, changeBlock)
    }

    /// Runs a change block synchronously and applies it only if the library
    /// is still in the state `token` names: what this process may see of
    /// it has not changed since the token was taken (by any process). The
    /// check is made in the commit's own transaction, under the library's
    /// commit lock, so of several writers holding the same token at most
    /// one commits. An OpenPhotoKit addition, for optimistic concurrency
    /// (HTTP's `If-Match`).
    ///
    /// Throws ``StateChangedError`` when the library changed, and what
    /// ``fetchPersistentChanges(since:)`` throws for a token that names no
    /// state of it (for a client without read-write access, one
    /// `persistentChangeTokenExpired` whatever is wrong with the token).
    /// Cost: one indexed query in the commit.
    public func performChangesAndWait(ifUnchangedSince token: PHPersistentChangeToken, _ changeBlock: @escaping () -> Void) throws {
        try checkBelongs(token, to: requireStore())
        do {
            _ = try performChangesAndWait(skippingDuplicates: false, requiredState: token.point, changeBlock)
        } catch  where error.isStateChanged {
            throw StateChangedError(description: error.localizedDescription)
        }
    }

    /// The library changed since the token a change block required
    /// (``performChangesAndWait(ifUnchangedSince:_:)``); nothing was applied.
    public struct StateChangedError: Error, CustomStringConvertible, Sendable {
        /// What changed, in words.
        public let description: String
    }

    /// Runs a change block synchronously, and returns what it committed (nil
    /// when it asked for nothing). `skippingDuplicates`: new assets whose
    /// content the library holds are left out (`ChangeSet.skipsDuplicates`);
    /// `requiredState`: see `ChangeSet.requiredState`.
    func performChangesAndWait(
        skippingDuplicates: Bool, requiredState: HistoryPoint? = nil,
        _ changeBlock: @escaping () -> Void
    ) throws(PHPhotosError) -> CommitResult? {
        if ChangeBlock.current != nil {
            throw PHPhotosError(.changeNotSupported, "performChangesAndWait was called inside a change block; nesting change blocks is not allowed")
        }
        if DispatchQueue.getSpecific(key: changeQueueKey) == ObjectIdentifier(self) {
            return try runChangeBlock(changeBlock, skippingDuplicates: skippingDuplicates, requiredState: requiredState)
        }
        let block = UncheckedSendable(changeBlock)
        do {
            return try changeQueue.sync {
                try runChangeBlock(block.value, skippingDuplicates: skippingDuplicates, requiredState: requiredState)
            }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    @discardableResult
    private func runChangeBlock(
        _ changeBlock: () -> Void, skippingDuplicates: Bool = false,
        requiredState: HistoryPoint? = nil
    ) throws(PHPhotosError) -> CommitResult? {
        let store = try requireStore()
        let block = ChangeBlock(library: self)
        ChangeBlock.$current.withValue(block) {
            Self.$scoped.withValue(self, operation: changeBlock)
        }
        do {
            guard let result = try block.commit(to: store, skipsDuplicates: skippingDuplicates, requiredState: requiredState) else { return nil }
            changeObservers.committed(through: result.changeBlock)
            pruneHistoryInBackground()
            return result
        } catch {
            changeObservers.checkAvailability()
            throw error
        }
    }

    /// The library's store; throws why there is none (the shared library
    /// could not be opened).
    func requireStore() throws(PHPhotosError) -> any PhotoStore {
        guard let store else {
            throw openFailure ?? PHPhotosError(.libraryVolumeOffline, "the library at \(url.path) is unavailable")
        }
        return store
    }

    // MARK: - Size

    /// The bytes of the files the library stores for the assets this process
    /// may see (originals and edits, Recently Deleted included): the whole
    /// library's for the owner and read-write clients, a limited client's
    /// selection's for it. A client that may not read gets `accessUserDenied`.
    /// An OpenPhotoKit addition. Cost: one query.
    public func storedBytes() throws -> Int64 {
        try withStore { store throws(StoreError) in try store.storedBytes() }
    }

    // MARK: - Recently Deleted

    /// Permanently deletes the assets in Recently Deleted, with every file
    /// of theirs (originals, edits, thumbnails and previews), and returns
    /// how many there were. Assets deleted more than 30 days ago
    /// are purged this way automatically when the library is opened.
    /// Cost: one transaction, plus deleting the files.
    @discardableResult
    public func emptyRecentlyDeleted() throws -> Int {
        let store = try requireStore()
        do {
            return try changeQueue.sync {
                guard let result = try store.beginCommit().commit(ChangeSet(purge: .all)) else { return 0 }
                changeObservers.committed(through: result.changeBlock)
                return result.changes.filter { $0.identifier.entity == .asset }.count
            }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// Applies the retention rules on opening: Recently Deleted keeps 30
    /// days, the change history what its setting says. Runs off the change
    /// queue's critical path, in short transactions.
    private func performMaintenanceInBackground() {
        guard store?.readOnlyReason == nil else { return }
        let cutoff = Date().addingTimeInterval(-RetentionWindows.recentlyDeleted)
        changeQueue.async { [weak self] in
            _ = try? self?.store?.beginCommit().commit(ChangeSet(purge: .deletedBefore(cutoff)))
        }
        pruneHistoryInBackground()
    }
}

/// Carries a value the compiler cannot prove sendable across a queue hop that
/// the code serialises itself.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
