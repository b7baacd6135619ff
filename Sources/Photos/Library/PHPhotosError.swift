import Foundation

/// The error domain of Photos errors.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// The `userInfo` key of the local identifiers an error is about.
public let PHLocalIdentifiersErrorKey = "PHLocalIdentifiersErrorKey"

/// An error from the Photos framework, bridged to `NSError` in
/// `PHPhotosErrorDomain`, so `catch PHPhotosError.identifierNotFound` and
/// `(error as NSError).code` both work.
public struct PHPhotosError: _BridgedStoredNSError, Sendable {
    /// The bridged error, as `_BridgedStoredNSError` requires.
    public let _nsError: NSError

    /// Wraps an `NSError` of `PHPhotosErrorDomain`.
    public init(_nsError error: NSError) {
        precondition(error.domain == PHPhotosErrorDomain, "PHPhotosError wraps only errors of PHPhotosErrorDomain")
        _nsError = error
    }

    /// `PHPhotosErrorDomain`.
    public static var _nsErrorDomain: String { PHPhotosErrorDomain }

    /// The error codes of `PHPhotosErrorDomain`.
    public enum Code: Int, _ErrorCodeProtocol, @unchecked Sendable {
        /// The error type these codes belong to.
        public typealias _ErrorType = PHPhotosError

        case internalError = -1
        case userCancelled = 3072
        case libraryVolumeOffline = 3114
        case relinquishingLibraryBundleToWriter = 3142
        case switchingSystemPhotoLibrary = 3143
        case networkAccessRequired = 3164
        case networkError = 3169
        case identifierNotFound = 3201
        case multipleIdentifiersFound = 3202
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case limitExceeded = 3307
        case accessRestricted = 3310
        case accessUserDenied = 3311
        case persistentChangeTokenExpired = 3105
        case persistentChangeDetailsUnavailable = 3210
        case libraryInFileProviderSyncRoot = 5423

        /// The former name of `internalError`.
        @available(*, deprecated, renamed: "internalError")
        public static var invalid: Code { .internalError }
    }

    // Each code as a static member of the error, so `catch PHPhotosError.identifierNotFound` works.

    /// An unexpected internal failure.
    public static var internalError: Code { .internalError }
    /// The user cancelled the request.
    public static var userCancelled: Code { .userCancelled }
    /// The library's volume is not available.
    public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
    /// The library was moved, renamed or deleted.
    public static var relinquishingLibraryBundleToWriter: Code { .relinquishingLibraryBundleToWriter }
    /// The system library was switched.
    public static var switchingSystemPhotoLibrary: Code { .switchingSystemPhotoLibrary }
    /// The request needs network access, which was not allowed.
    public static var networkAccessRequired: Code { .networkAccessRequired }
    /// The network failed.
    public static var networkError: Code { .networkError }
    /// An identifier names no object.
    public static var identifierNotFound: Code { .identifierNotFound }
    /// An identifier names several objects.
    public static var multipleIdentifiersFound: Code { .multipleIdentifiersFound }
    /// The change is not supported as requested.
    public static var changeNotSupported: Code { .changeNotSupported }
    /// A transient failure: try again.
    public static var operationInterrupted: Code { .operationInterrupted }
    /// A resource (a file or data) is not valid.
    public static var invalidResource: Code { .invalidResource }
    /// A resource is missing.
    public static var missingResource: Code { .missingResource }
    /// There is not enough disk space.
    public static var notEnoughSpace: Code { .notEnoughSpace }
    /// The request does not apply to this asset.
    public static var requestNotSupportedForAsset: Code { .requestNotSupportedForAsset }
    /// A limit was exceeded.
    public static var limitExceeded: Code { .limitExceeded }
    /// Access to the library is restricted.
    public static var accessRestricted: Code { .accessRestricted }
    /// The user denied access to the library.
    public static var accessUserDenied: Code { .accessUserDenied }
    /// The change token is older than the kept history.
    public static var persistentChangeTokenExpired: Code { .persistentChangeTokenExpired }
    /// The details of a change were not kept.
    public static var persistentChangeDetailsUnavailable: Code { .persistentChangeDetailsUnavailable }
    /// The library is in a location whose file locking cannot be trusted.
    public static var libraryInFileProviderSyncRoot: Code { .libraryInFileProviderSyncRoot }

    /// The local identifiers the error is about, when it names any.
    public var localIdentifiers: [String] {
        (userInfo[PHLocalIdentifiersErrorKey] as? [String]) ?? []
    }
}

extension PHPhotosError {
    /// The same error, about `identifiers` when it names no object yet.
    func concerning(_ identifiers: [String]) -> PHPhotosError {
        guard localIdentifiers.isEmpty else { return self }
        var info = userInfo
        info[PHLocalIdentifiersErrorKey] = identifiers
        return PHPhotosError(code, userInfo: info)
    }

    /// An error with a message, and the identifiers it concerns.
    package init(_ code: Code, _ message: String, identifiers: [String] = []) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if !identifiers.isEmpty {
            info[PHLocalIdentifiersErrorKey] = identifiers
        }
        self.init(code, userInfo: info)
    }
}
