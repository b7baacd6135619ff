import Foundation

/// Why the store refused an operation. The public layer maps these to
/// `PHPhotosError` codes where PhotoKit has one.
package enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An identifier named by a change or a query does not exist.
    case notFound(entity: StoreEntity, identifier: String)
    /// An identifier names no person or face the index holds (or none the
    /// reader may see): `noun` says which.
    case notIndexed(noun: String, identifier: String)
    /// The object exists but does not allow the edit (a smart album, a cycle of folders...).
    case editNotAllowed(String)
    /// A change would take a client past a limit (its upload jobs).
    case limitExceeded(String)
    /// An index or count in a change does not fit the collection it edits.
    case invalidIndex(String)
    /// A file given to the library cannot be stored.
    case invalidFile(path: String, reason: String)
    /// The directory is not a photo library and is not empty, so it is left alone.
    case notALibrary(path: String, reason: String)
    /// The library was written by a newer version of OpenPhotoKit.
    case newerLibraryVersion(path: String, found: Int, supported: Int)
    /// The library's database cannot be read.
    case damaged(path: String, reason: String)
    /// The library sits where SQLite's locking cannot be trusted.
    case unsafeLocation(path: String, reason: String)
    /// The library can be read but not changed: its directory or its
    /// medium is read-only to this process.
    case readOnly(path: String, reason: String)
    /// The library's database was removed, moved or replaced while this
    /// process had it open.
    case removed(path: String)
    /// Reading or writing the library's files failed.
    case fileSystem(String)
    /// The disk (or the user's quota) holding `path` has no room left: from
    /// SQLite's `SQLITE_FULL` or the system's `ENOSPC`/`EDQUOT`, never from
    /// an error's text.
    case diskFull(path: String)
    /// Another writer held the database for longer than the wait allowed
    /// (`SQLITE_BUSY` or `SQLITE_LOCKED` after the retries).
    case busy(String)
    /// The database reported an error.
    case database(String)
    /// The library's database server could not be reached, or refused this
    /// process (its address, its password or its TLS); nothing was changed.
    case unreachable(location: String, reason: String)
    /// The client's grant does not allow the operation.
    case accessDenied(String)
    /// Only the library's owner (a process without a client identifier) may do this.
    case ownerOnly(String)
    /// A history point is older than the kept history, or from a different
    /// history of this library (restored from a copy).
    case historyExpired(String)
    /// A history point that names no state of this library.
    case historyPointUnknown(String)
    /// A change set that required a state of the library
    /// (`ChangeSet.requiredState`) found it changed since.
    case stateChanged(String)
    /// A read ran past the limit of its ``StatementBudget``, or the work it
    /// was for was abandoned.
    case stopped(StatementBudget.Stop, limit: Duration)

    /// The error of a read its budget stopped.
    package static func stopped(_ budget: StatementBudget) -> StoreError {
        .stopped(budget.stop ?? .deadline, limit: budget.limit)
    }

    /// The one answer a reader without read-write access gets for any
    /// change token that does not work, whatever is wrong with it, so that
    /// no token it makes up or alters teaches it anything of the library.
    package static let unusableOpaqueToken = StoreError.historyExpired(
        """
        the change token names no state this client can resume from: it is older than the kept history, \
        from another copy of the library, or altered; refetch what you track
        """)

    package var description: String {
        switch self {
        case .notFound(let entity, let identifier):
            "no \(entity.noun) with identifier \(identifier)"
        case .notIndexed(let noun, let identifier):
            "no \(noun) with identifier \(identifier)"
        case .editNotAllowed(let reason), .limitExceeded(let reason), .invalidIndex(let reason), .fileSystem(let reason), .database(let reason),
            .busy(let reason),
            .accessDenied(let reason), .ownerOnly(let reason), .historyExpired(let reason), .historyPointUnknown(let reason),
            .stateChanged(let reason):
            reason
        case .invalidFile(let path, let reason):
            "\(path): \(reason)"
        case .stopped(.deadline, let limit):
            "the query was stopped after \(limit.formatted(.units(allowed: [.seconds, .milliseconds], width: .wide))), its limit: narrow it"
        case .stopped(.abandoned, _):
            "the query was stopped: nobody waits for its answer any more"
        case .notALibrary(let path, let reason):
            "\(path) is not a photo library: \(reason)"
        case .newerLibraryVersion(let path, let found, let supported):
            "the library at \(path) has format version \(found), newer than this OpenPhotoKit supports (\(supported)); it was left untouched"
        case .damaged(let path, let reason):
            "the library at \(path) is damaged and was left as it is: \(reason); photos check tells what is wrong"
        case .readOnly(let path, let reason):
            "the library at \(path) is read-only (\(reason)): it can be read but not changed"
        case .diskFull(let path):
            "the disk holding \(path) is full"
        case .removed(let path):
            "the library at \(path) was removed, moved or replaced while this process had it open"
        case .unsafeLocation(let path, let reason):
            "the library at \(path) \(reason); SQLite needs reliable local file locks there"
        case .unreachable(let location, let reason):
            "cannot reach the library at \(location): \(reason)"
        }
    }
}

extension StoreEntity {
    var noun: String {
        switch self {
        case .asset: "asset"
        case .assetCollection: "asset collection"
        case .collectionList: "collection list"
        }
    }
}
