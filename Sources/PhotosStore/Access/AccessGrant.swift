import Foundation

/// What the library's owner allows a client to do. Raw values are stored.
package enum AccessGrant: Int, Sendable, CaseIterable {
    /// Read and change everything.
    case readWrite = 1
    /// Read and change only the selected assets, the collections holding
    /// them and what the client creates.
    case limited = 2
    /// Create assets, read nothing.
    case addOnly = 3
    /// Nothing.
    case denied = 4
    /// Read one album, as it is at each read: its members that are neither
    /// hidden nor in Recently Deleted, and the album itself, nothing else
    /// (no other collection, no moments); change nothing. A share link's
    /// grant; the album is kept beside it (`client_access.shared_album`).
    case sharedAlbum = 5

    /// Whether the grant lets its client read anything (and so hear of changes).
    package var mayRead: Bool {
        switch self {
        case .readWrite, .limited, .sharedAlbum: true
        case .addOnly, .denied: false
        }
    }
}

/// The access record of one client, as the owner sees it.
package struct ClientAccessRecord: Sendable, Equatable {
    package var client: String
    /// Nil while the owner has not decided.
    package var grant: AccessGrant?
    /// What the client last asked for.
    package var requestedLevel: AccessLevel?
    package var requestedAt: Date?
    package var decidedAt: Date?
    /// How many assets a limited client may see.
    package var selectedAssetCount: Int
    /// The album a shared-album client reads (its UUID).
    package var sharedAlbum: String?

    package init(
        client: String, grant: AccessGrant?, requestedLevel: AccessLevel?, requestedAt: Date?, decidedAt: Date?,
        selectedAssetCount: Int, sharedAlbum: String? = nil
    ) {
        self.client = client
        self.grant = grant
        self.requestedLevel = requestedLevel
        self.requestedAt = requestedAt
        self.decidedAt = decidedAt
        self.selectedAssetCount = selectedAssetCount
        self.sharedAlbum = sharedAlbum
    }
}

/// Client identifiers: reverse-DNS names and the like.
package enum ClientIdentifier {
    /// Letters, digits, `.`, `-` and `_`, 1 to 255 of them. The restriction
    /// keeps identifiers readable in the CLI and safe to quote into SQL.
    package static func isValid(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.utf8.count <= 255
            && identifier.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x2D || byte == 0x5F
            }
    }

    /// Refuses an identifier that is not valid, naming the rule.
    package static func check(_ identifier: String) throws(StoreError) {
        guard isValid(identifier) else {
            throw .accessDenied("\"\(identifier)\" is not a valid client identifier: use 1 to 255 letters, digits, '.', '-' and '_'")
        }
    }
}
