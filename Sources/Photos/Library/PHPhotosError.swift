import Foundation

/// The error domain of Photos errors.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// The `userInfo` key of the local identifiers an error is about.
public let PHLocalIdentifiersErrorKey = "PHLocalIdentifiersErrorKey"

/// An error from the Photos framework, bridged to `NSError` in
/// `PHPhotosErrorDomain`, so `catch PHPhotosError.identifierNotFound` and
/// `(error as NSError).code` both work.
public struct PHPhotosError: _BridgedStoredNSError, Sendable {
    public let _nsError: NSError

    /// Wraps an `NSError` of `PHPhotosErrorDomain`.
    public init(_nsError error: NSError) {
        precondition(error.domain == PHPhotosErrorDomain, "PHPhotosError wraps only errors of PHPhotosErrorDomain")
        _nsError = error
    }

    public static var _nsErrorDomain: String { PHPhotosErrorDomain }

    /// The error codes of `PHPhotosErrorDomain`.
    public enum Code: Int, _ErrorCodeProtocol, @unchecked Sendable {
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

    public static var internalError: Code { .internalError }
    public static var userCancelled: Code { .userCancelled }
    public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
    public static var relinquishingLibraryBundleToWriter: Code { .relinquishingLibraryBundleToWriter }
    public static var switchingSystemPhotoLibrary: Code { .switchingSystemPhotoLibrary }
    public static var networkAccessRequired: Code { .networkAccessRequired }
    public static var networkError: Code { .networkError }
    public static var identifierNotFound: Code { .identifierNotFound }
    public static var multipleIdentifiersFound: Code { .multipleIdentifiersFound }
    public static var changeNotSupported: Code { .changeNotSupported }
    public static var operationInterrupted: Code { .operationInterrupted }
    public static var invalidResource: Code { .invalidResource }
    public static var missingResource: Code { .missingResource }
    public static var notEnoughSpace: Code { .notEnoughSpace }
    public static var requestNotSupportedForAsset: Code { .requestNotSupportedForAsset }
    public static var limitExceeded: Code { .limitExceeded }
    public static var accessRestricted: Code { .accessRestricted }
    public static var accessUserDenied: Code { .accessUserDenied }
    public static var persistentChangeTokenExpired: Code { .persistentChangeTokenExpired }
    public static var persistentChangeDetailsUnavailable: Code { .persistentChangeDetailsUnavailable }
    public static var libraryInFileProviderSyncRoot: Code { .libraryInFileProviderSyncRoot }

    /// The local identifiers the error is about, when it names any.
    public var localIdentifiers: [String] {
        (userInfo[PHLocalIdentifiersErrorKey] as? [String]) ?? []
    }
}

extension PHPhotosError {
    /// An error with a message, and the identifiers it concerns.
    init(_ code: Code, _ message: String, identifiers: [String] = []) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if !identifiers.isEmpty {
            info[PHLocalIdentifiersErrorKey] = identifiers
        }
        self.init(code, userInfo: info)
    }
}
