import Crypto
import Foundation
import PhotosStore
import Synchronization
import _CryptoExtras

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
        /// Whether the token works only with its password too (a share link
        /// made with one, ``createShareLink(for:label:expirationDate:password:)``):
        /// check it with ``checkPassword(_:of:)``.
        public var hasPassword: Bool = false

        /// Whether the token is a share link's
        /// (``PHPhotoLibrary/createShareLink(for:label:expirationDate:password:)``):
        /// its client's grant is ``ClientAccessGrant/sharedAlbum``, as read
        /// with the token.
        public internal(set) var isShareLink: Bool = false

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
    /// Cost: one insert and one lookup.
    public func createAccessToken(
        forClient client: String?, label: String = "", readOnly: Bool = false,
        expirationDate: Date? = nil
    ) throws -> IssuedAccessToken {
        try createAccessToken(forClient: client, label: label, readOnly: readOnly, expirationDate: expirationDate, passwordHash: nil)
    }

    private func createAccessToken(
        forClient client: String?, label: String, readOnly: Bool, expirationDate: Date?,
        passwordHash: Data?
    ) throws -> IssuedAccessToken {
        let secret = BearerToken.randomSecret()
        let record = AccessTokenRecord(
            id: BearerToken.randomID(), secretHash: BearerToken.hash(secret), client: client,
            isReadOnly: readOnly, label: label, createdAt: Date(), expiresAt: expirationDate,
            passwordHash: passwordHash)
        // Read back, with its client's grant as listings read it.
        let stored = try withStore { store throws(StoreError) in
            try store.addAccessToken(record)
            return try store.accessToken(id: record.id)
        }
        return IssuedAccessToken(token: AccessToken(stored ?? record), bearer: BearerToken.format(id: record.id, secret: secret))
    }

    /// A share link's token: a read-only token of a new client whose grant
    /// is the album itself (``ClientAccessGrant/sharedAlbum``), as it is at
    /// each read: the photos in it now that are neither hidden nor in
    /// Recently Deleted, and the album, but no other album, folder, smart
    /// album or moment, not even their titles. With a `password` (1 to
    /// 1,024 bytes), the token works only with it too (``checkPassword(_:of:)``),
    /// which is kept as a scrypt hash. Revoking the token ends the link;
    /// deleting the album leaves it nothing to read. Only the owner may;
    /// an album that is not a user album throws `changeNotSupported`.
    /// Cost: two small commits, and hashing the password (tens of
    /// milliseconds, 16 MiB of memory).
    public func createShareLink(
        for album: PHAssetCollection, label: String? = nil, expirationDate: Date? = nil,
        password: String? = nil
    ) throws -> IssuedAccessToken {
        let passwordHash = try password.map { password throws(PHPhotosError) in
            guard (1...SharePassword.maximumBytes).contains(password.utf8.count) else {
                throw PHPhotosError(.changeNotSupported, "a share link's password is 1 to \(SharePassword.maximumBytes) bytes of UTF-8")
            }
            return try SharePassword.hash(password)
        }
        let client = Self.shareLinkClientPrefix + BearerToken.randomID()
        try shareAlbum(album, withClient: client)
        return try createAccessToken(
            forClient: client, label: label ?? Self.shareLabel(album.localizedTitle ?? "album"),
            readOnly: true, expirationDate: expirationDate, passwordHash: passwordHash)
    }

    /// A share link's label, "share: TITLE", the title shortened (by whole
    /// characters) to keep it within what a label may hold.
    static func shareLabel(_ title: String) -> String {
        var label = "share: "
        for character in title {
            guard label.utf8.count + character.utf8.count <= CollectionTitle.maximumBytes else { break }
            label.append(character)
        }
        return label
    }

    /// Whether `password` is the token's password; false for a token
    /// without one, or one revoked since. Only the owner may. The hashes
    /// are compared in constant time. Cost: one lookup and a scrypt hash
    /// (tens of milliseconds); at most as many run at once as the machine
    /// has cores, so that many tries cannot take all its memory.
    public func checkPassword(_ password: String, of token: AccessToken) throws -> Bool {
        guard let record = try withStore({ store throws(StoreError) in try store.accessToken(id: token.id) }),
            let stored = record.passwordHash, password.utf8.count <= SharePassword.maximumBytes
        else { return false }
        return SharePassword.matches(password, stored)
    }

    /// What the client identifier made for each share link starts with, so
    /// that listings read well; what makes it a share link is its grant.
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

    /// A running watch of this library's token revocations, from
    /// ``watchTokenRevocations(onRevocation:onUnavailable:)``; it stops when
    /// released.
    package final class TokenRevocationWatch: Sendable {
        private let watcher: any CommitWatcher

        fileprivate init(_ watcher: any CommitWatcher) {
            self.watcher = watcher
        }

        deinit {
            watcher.stop()
        }
    }

    /// Calls `onRevocation` on a thread of its own each time a token of this
    /// library is revoked, by any process (on PostgreSQL, on any machine),
    /// as soon as its commit watcher hears of it; and `onUnavailable` once
    /// if the library becomes unavailable, when the watch ends and
    /// revocations go unheard until a new one starts. Cost: one watcher
    /// thread (on PostgreSQL a listening connection), idle between commits.
    package func watchTokenRevocations(
        onRevocation: @escaping @Sendable () -> Void, onUnavailable: @escaping @Sendable () -> Void
    ) throws -> TokenRevocationWatch {
        try withStore { store throws(StoreError) in
            let last = try store.watchedState()
            let seen = Mutex(last.tokenRevocation)
            let watcher = try store.watchCommits(
                after: last,
                onChange: { state in
                    let isRevocation = seen.withLock { mark in
                        defer { mark = state.tokenRevocation }
                        return mark != state.tokenRevocation
                    }
                    if isRevocation { onRevocation() }
                }, onUnavailable: { _ in onUnavailable() })
            return TokenRevocationWatch(watcher)
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
            BearerToken.constantTimeEqual(record.secretHash, presented)
        else { return nil }
        let token = AccessToken(record)
        return token.isExpired(at: date) ? nil : token
    }
}

extension PHPhotoLibrary.AccessToken {
    init(_ record: AccessTokenRecord) {
        self.init(
            id: record.id, clientIdentifier: record.client, isReadOnly: record.isReadOnly, label: record.label,
            creationDate: record.createdAt, expirationDate: record.expiresAt, hasPassword: record.passwordHash != nil,
            isShareLink: record.clientGrant == .sharedAlbum)
    }
}

/// Share links' passwords, kept as scrypt hashes: `scrypt$N$r$p$salt$key`,
/// the salt and key in base64.
enum SharePassword {
    static let maximumBytes = 1024
    /// 2^14 rounds, blocks of 8: 16 MiB and tens of milliseconds a hash.
    private static let (rounds, blockSize, parallelism) = (1 << 14, 8, 1)
    /// As many hashes at once as there are cores, so that a flood of tries
    /// cannot take all the memory.
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    static func hash(_ password: String) throws(PHPhotosError) -> Data {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard let key = derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism) else {
            throw PHPhotosError(.internalError, "the password could not be hashed")
        }
        return Data("scrypt$\(rounds)$\(blockSize)$\(parallelism)$\(salt.base64EncodedString())$\(key.base64EncodedString())".utf8)
    }

    static func matches(_ password: String, _ stored: Data) -> Bool {
        let parts = String(decoding: stored, as: UTF8.self).split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
            let parallelism = Int(parts[3]), rounds == self.rounds, blockSize == self.blockSize, parallelism == self.parallelism,
            let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
            let key = derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        else { return false }
        return BearerToken.constantTimeEqual(key, expected)
    }

    private static func derive(_ password: String, salt: Data, rounds: Int, blockSize: Int, parallelism: Int) -> Data? {
        slots.wait()
        defer { slots.signal() }
        guard
            let key = try? KDF.Scrypt.deriveKey(
                from: Data(password.utf8), salt: salt, outputByteCount: 32, rounds: rounds,
                blockSize: blockSize, parallelism: parallelism)
        else { return nil }
        return key.withUnsafeBytes { Data($0) }
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
            secret.allSatisfy(isBase64URL)
        else { return nil }
        return (String(decoding: id, as: UTF8.self), String(decoding: secret, as: UTF8.self))
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
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
