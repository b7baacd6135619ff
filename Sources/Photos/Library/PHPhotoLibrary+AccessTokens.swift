import Crypto
import Foundation
import PhotosStore

/// Bearer tokens for reaching the library over the network (`photos serve`),
/// an OpenPhotoKit addition. Only the owner manages them; a client gets
/// `PHPhotosError.accessRestricted`.
///
/// A token acts for the owner or for one client identifier, and carries
/// that client's grant (see ``setAccess(_:forClient:)``): whatever the
/// engine lets the client see and change, the token may, and no more. A
/// token can also be read-only, and can expire. The library keeps only a
/// SHA-256 hash of each token's secret: the bearer string is shown once,
/// when the token is created.
extension PHPhotoLibrary {
    /// A bearer token as the owner sees it, without its secret.
    public struct AccessToken: Sendable, Hashable, Identifiable {
        /// The public half of the token, shown in listings and used to revoke it.
        public var id: String
        /// The client whose grant the token carries; nil for the library's owner.
        public var clientIdentifier: String?
        /// Whether the token may only read, whatever its client's grant allows.
        public var isReadOnly: Bool
        /// What the owner called it.
        public var label: String
        /// When the owner created it.
        public var creationDate: Date
        /// When it stops working; nil: never.
        public var expirationDate: Date?

        /// Whether the token is a share link's (``PHPhotoLibrary/createShareLink(for:label:expirationDate:)``).
        public var isShareLink: Bool {
            clientIdentifier?.hasPrefix(PHPhotoLibrary.shareLinkClientPrefix) ?? false
        }

        /// Whether the token no longer works at `date`.
        public func isExpired(at date: Date = Date()) -> Bool {
            expirationDate.map { $0 <= date } ?? false
        }
    }

    /// A token just created, with the bearer string that is never shown again.
    public struct IssuedAccessToken: Sendable {
        /// The token as listings show it.
        public let token: AccessToken
        /// What a client sends: `Authorization: Bearer <bearer>`.
        public let bearer: String
    }

    /// Creates a token acting for `client` (nil: the owner). The client's
    /// grant is not changed: set it with ``setAccess(_:forClient:)``.
    /// Cost: one insert.
    public func createAccessToken(forClient client: String?, label: String = "", readOnly: Bool = false,
                                  expirationDate: Date? = nil) throws -> IssuedAccessToken {
        let secret = BearerToken.randomSecret()
        let record = AccessTokenRecord(id: BearerToken.randomID(), secretHash: BearerToken.hash(secret), client: client,
                                       isReadOnly: readOnly, label: label, createdAt: Date(), expiresAt: expirationDate)
        try withStore { store throws(StoreError) in try store.addAccessToken(record) }
        return IssuedAccessToken(token: AccessToken(record), bearer: BearerToken.format(id: record.id, secret: secret))
    }

    /// A share link's token: a read-only token of a new limited client whose
    /// selection is the album's assets as they are now. It goes through the
    /// same grant machinery as any client; revoking the token leaves the
    /// client denied nothing more than it had. Cost: a fetch of the album
    /// and two small commits.
    public func createShareLink(for album: PHAssetCollection, label: String? = nil,
                                expirationDate: Date? = nil) throws -> IssuedAccessToken {
        let assets = withCurrentLibrary { PHAsset.fetchAssets(in: album, options: nil) }
        let client = Self.shareLinkClientPrefix + BearerToken.randomID()
        try setAccess(.limited, forClient: client)
        try addToLimitedSelection(assets.objects(at: IndexSet(integersIn: 0..<assets.count)).map(\.localIdentifier), ofClient: client)
        return try createAccessToken(forClient: client, label: label ?? "share: \(album.localizedTitle ?? "album")",
                                     readOnly: true, expirationDate: expirationDate)
    }

    /// What the client identifier of every share link starts with.
    static let shareLinkClientPrefix = "share."

    /// Every token, oldest first. Cost: one query.
    public func accessTokens() throws -> [AccessToken] {
        try withStore { store throws(StoreError) in try store.accessTokenRecords().map(AccessToken.init) }
    }

    /// Revokes a token: it stops working at once, in every process.
    /// Throws `identifierNotFound` when there is no such token.
    public func revokeAccessToken(id: String) throws {
        guard try withStore({ store throws(StoreError) in try store.removeAccessToken(id: id) }) else {
            throw PHPhotosError(.identifierNotFound, "there is no access token \(id)", identifiers: [id])
        }
    }

    /// The token a bearer string proves, or nil when it proves none: not a
    /// token's shape, unknown, a wrong secret, or expired at `date`. The
    /// secret's hash is compared in constant time. Cost: one lookup and
    /// one SHA-256.
    public func accessToken(authenticating bearer: String, at date: Date = Date()) throws -> AccessToken? {
        guard let (id, secret) = BearerToken.parse(bearer) else { return nil }
        let presented = BearerToken.hash(secret)
        guard let record = try withStore({ store throws(StoreError) in try store.accessToken(id: id) }),
              BearerToken.constantTimeEqual(record.secretHash, presented) else { return nil }
        let token = AccessToken(record)
        return token.isExpired(at: date) ? nil : token
    }
}

extension PHPhotoLibrary.AccessToken {
    init(_ record: AccessTokenRecord) {
        self.init(id: record.id, clientIdentifier: record.client, isReadOnly: record.isReadOnly, label: record.label,
                  creationDate: record.createdAt, expirationDate: record.expiresAt)
    }
}

/// The bearer string's shape: `opk_` + a 12-character id + `_` + a 43-character
/// secret (32 random bytes, base64url).
enum BearerToken {
    private static let prefix = "opk_"
    private static let idAlphabet = Array("abcdefghijkmnopqrstuvwxyz23456789")
    private static let idLength = 12

    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<idLength).map { _ in idAlphabet[Int(generator.next(upperBound: UInt(idAlphabet.count)))] })
    }

    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func format(id: String, secret: String) -> String { prefix + id + "_" + secret }

    static func parse(_ bearer: String) -> (id: String, secret: String)? {
        let characters = Array(bearer.utf8)
        guard characters.count == prefix.utf8.count + idLength + 1 + 43, bearer.hasPrefix(prefix) else { return nil }
        let id = characters[prefix.utf8.count..<prefix.utf8.count + idLength]
        let secret = characters[(prefix.utf8.count + idLength + 1)...]
        guard characters[prefix.utf8.count + idLength] == UInt8(ascii: "_"),
              id.allSatisfy({ idAlphabet.contains(Character(Unicode.Scalar($0))) }),
              secret.allSatisfy(isBase64URL) else { return nil }
        return (String(decoding: id, as: UTF8.self), String(decoding: secret, as: UTF8.self))
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    static func hash(_ secret: String) -> Data { Data(SHA256.hash(data: Data(secret.utf8))) }

    /// Equal-length digests compared without an early exit.
    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
