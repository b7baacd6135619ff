import Foundation

/// A bearer token as the library keeps it: its public id, the hash of its
/// secret (never the secret), and whom it acts for.
package struct AccessTokenRecord: Sendable, Equatable {
    /// The public half of the token, unique in the library.
    package var id: String
    /// SHA-256 of the secret half.
    package var secretHash: Data
    /// The client whose grant the token carries; nil for the library's owner.
    package var client: String?
    /// Whether the token may only read, whatever its client's grant allows.
    package var isReadOnly: Bool
    /// What the owner called it ("Anna's phone", "share: Holidays").
    package var label: String
    package var createdAt: Date
    /// When it stops working; nil: never.
    package var expiresAt: Date?
    /// A share link's password, as the public layer hashed it (salt and
    /// parameters included); nil: the token needs none.
    package var passwordHash: Data?
    /// The grant of the token's client when the token was read: what makes
    /// a token a share link (``AccessGrant/sharedAlbum``). Read beside the
    /// token, never stored with it.
    package var clientGrant: AccessGrant? = nil

    package init(
        id: String, secretHash: Data, client: String?, isReadOnly: Bool, label: String,
        createdAt: Date, expiresAt: Date?, passwordHash: Data? = nil
    ) {
        self.id = id
        self.secretHash = secretHash
        self.client = client
        self.isReadOnly = isReadOnly
        self.label = label
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.passwordHash = passwordHash
    }
}
