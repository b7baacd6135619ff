import Photos

/// Who a request acts for: the token it proved, the client whose grant
/// the engine applies (nil: the library's owner), and whether it may
/// only read.
struct Principal: Sendable, Equatable {
    let tokenID: String
    let client: String?
    let isReadOnly: Bool
    /// The token's label: for a share link, which album it shares.
    let label: String
    /// Whether the token works only through a browser session whose
    /// sign-in gave its password too (a share link made with one).
    let needsSignIn: Bool

    init(_ token: PHPhotoLibrary.AccessToken) {
        tokenID = token.id
        client = token.clientIdentifier
        isReadOnly = token.isReadOnly
        label = token.label
        needsSignIn = token.hasPassword
    }

    var isOwner: Bool { client == nil }
}
