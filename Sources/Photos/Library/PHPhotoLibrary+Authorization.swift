import Foundation
import PhotosStore

/// Authorization, as PhotoKit apps ask for it.
///
/// On Linux a library has an owner and clients. A process that gives no
/// client identifier (`PHOTOS_CLIENT_ID` unset, or `clientIdentifier: nil`
/// when opening a library) is the owner: it is always `.authorized`. A
/// client has the access the owner granted it, with the `photos access`
/// command or ``setAccess(_:forClient:)``:
///
/// | grant        | `.readWrite`     | `.addOnly`       |
/// |--------------|------------------|------------------|
/// | none yet     | `.notDetermined` | `.notDetermined` |
/// | read-write   | `.authorized`    | `.authorized`    |
/// | limited      | `.limited`       | `.authorized`    |
/// | add-only     | `.denied`        | `.authorized`    |
/// | denied       | `.denied`        | `.denied`        |
/// | shared album | `.limited`       | `.denied`        |
///
/// Requesting authorization never prompts: it records the request, which
/// the owner sees in `photos access list`, and answers with the owner's
/// decision, `.notDetermined` while there is none. A library that cannot be
/// opened answers `.restricted`.
///
/// A client without read access gets empty fetch results (and one
/// diagnostic on standard error), change blocks that fail with
/// `PHPhotosError.accessUserDenied` (an add-only client may create assets),
/// no change notifications, and `accessUserDenied` from persistent history.
/// A limited client sees only its selection, everywhere; a shared-album
/// client (a share link's) only its album's visible photos and the album.
extension PHPhotoLibrary {
    /// The current library's authorization for `accessLevel`, for this
    /// process's client. Cost: one indexed query.
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        current.authorizationStatus(for: accessLevel)
    }

    /// Records a request for `accessLevel` and calls `handler`, on a
    /// background queue, with the owner's decision.
    public class func requestAuthorization(
        for accessLevel: PHAccessLevel,
        handler: @escaping (PHAuthorizationStatus) -> Void
    ) {
        let library = current
        let handler = UncheckedSendable(handler)
        DispatchQueue.global().async {
            handler.value(library.requestAuthorization(for: accessLevel))
        }
    }

    /// Records a request for `accessLevel` and returns the owner's decision.
    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        let library = current
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: library.requestAuthorization(for: accessLevel))
            }
        }
    }

    /// The read-write authorization, with limited access reported as
    /// `.authorized`, as before limited access existed. Superseded by
    /// `authorizationStatus(for:)`.
    public class func authorizationStatus() -> PHAuthorizationStatus {
        Self.legacy(authorizationStatus(for: .readWrite))
    }

    /// Requests read-write access and reports limited access as
    /// `.authorized`. Superseded by ``requestAuthorization(for:handler:)``.
    public class func requestAuthorization(_ handler: @escaping (PHAuthorizationStatus) -> Void) {
        let handler = UncheckedSendable(handler)
        requestAuthorization(for: .readWrite) { status in handler.value(legacy(status)) }
    }

    private static func legacy(_ status: PHAuthorizationStatus) -> PHAuthorizationStatus {
        status == .limited ? .authorized : status
    }

    // MARK: - This library

    /// This library's authorization for `accessLevel`, for the client it was
    /// opened as. Cost: one indexed query.
    public func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        guard let store else { return .restricted }
        do {
            return Self.status(of: try store.grant(), for: accessLevel)
        } catch {
            Diagnostics.report(error, while: "reading this client's authorization")
            return .restricted
        }
    }

    /// Records this client's request for `accessLevel` in the library and
    /// returns the owner's decision, without waiting for one. Cost: one write.
    public func requestAuthorization(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        guard let store else { return .restricted }
        do {
            return Self.status(of: try store.requestAccess(level: AccessLevel(accessLevel)), for: accessLevel)
        } catch {
            Diagnostics.report(error, while: "requesting authorization")
            return .restricted
        }
    }

    static func status(of grant: AccessGrant?, for level: PHAccessLevel) -> PHAuthorizationStatus {
        switch (grant, level) {
        case (nil, _): .notDetermined
        case (.readWrite, _): .authorized
        case (.limited, .readWrite), (.sharedAlbum, .readWrite): .limited
        case (.limited, .addOnly), (.addOnly, .addOnly): .authorized
        case (.addOnly, .readWrite), (.denied, _), (.sharedAlbum, .addOnly): .denied
        }
    }
}
