import Foundation
import PhotosMedia
import PhotosStore

extension PHPhotosError {
    /// Marks the error a change block that required a state of the library
    /// failed with, for the one API that asked for it.
    static let stateChangedKey = "OpenPhotoKitStateChanged"

    /// Whether this is the refusal of a change block whose required state changed.
    var isStateChanged: Bool { userInfo[Self.stateChangedKey] as? Bool == true }

    /// The PhotoKit error for an engine or media failure.
    package init(storeError error: any Error) {
        switch error {
        case let error as PHPhotosError:
            self = error
        case let error as StoreError:
            self.init(error)
        case let error as MediaError:
            self.init(.invalidResource, error.description)
        default:
            self.init(.internalError, String(describing: error))
        }
    }

    private init(_ error: StoreError) {
        let message = error.description
        switch error {
        case .notFound(_, let identifier), .notIndexed(_, let identifier):
            self.init(.identifierNotFound, message, identifiers: [identifier])
        case .editNotAllowed, .invalidIndex:
            self.init(.changeNotSupported, message)
        case .limitExceeded:
            self.init(.limitExceeded, message)
        case .invalidFile:
            self.init(.invalidResource, message)
        case .unsafeLocation:
            self.init(.libraryInFileProviderSyncRoot, message)
        case .removed:
            self.init(.relinquishingLibraryBundleToWriter, message)
        case .diskFull:
            self.init(.notEnoughSpace, message)
        case .busy:
            self.init(.operationInterrupted, message)
        case .unreachable:
            self.init(.networkError, message)
        case .accessDenied:
            self.init(.accessUserDenied, message)
        case .ownerOnly, .readOnly:
            self.init(.accessRestricted, message)
        case .historyExpired:
            self.init(.persistentChangeTokenExpired, message)
        case .historyPointUnknown:
            self.init(.identifierNotFound, message)
        case .stopped(.deadline, _):
            self.init(.limitExceeded, message)
        case .stopped(.abandoned, _):
            self.init(.userCancelled, message)
        case .stateChanged:
            // PhotoKit has no code for it; `performChangesAndWait(ifUnchangedSince:_:)`
            // turns this one into `PHPhotoLibrary.StateChangedError`.
            self.init(.changeNotSupported, userInfo: [NSLocalizedDescriptionKey: message, Self.stateChangedKey: true])
        case .notALibrary, .newerLibraryVersion, .damaged, .fileSystem, .database:
            self.init(.internalError, message)
        }
    }
}
