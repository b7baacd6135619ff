import Foundation
import PhotosStore

/// An opaque marker of one state of a photo library, to ask later what
/// changed since (``PHPhotoLibrary/fetchPersistentChanges(since:)``).
///
/// Keep it across launches: archive it with
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)`
/// and read it back with `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`,
/// or encode it with any `Encoder`. A token names its library and a change
/// block of that library's history; tokens of one library order by the
/// state they name (`<`), and two tokens are equal when they name the same
/// state.
///
/// A token whose stored form was altered still decodes, but fetching
/// changes with it throws `PHPhotosError.identifierNotFound`, as does a
/// token of another library. Data that is not an archive at all fails in
/// the unarchiver or decoder, with their own errors. A client without
/// read-write access gets opaque tokens, which name their state without
/// revealing how many change blocks the library has seen.
public final class PHPersistentChangeToken: NSObject, NSCopying, NSSecureCoding, Codable, Comparable, @unchecked Sendable {
    /// The version of the stored form this build writes.
    private static let currentVersion: Int64 = 1

    /// The library the token belongs to; empty for a damaged token.
    let libraryUUID: String
    let point: HistoryPoint
    /// Why the token cannot be used, when its stored form was damaged.
    let damage: String?

    private init(libraryUUID: String, point: HistoryPoint, damage: String?) {
        self.libraryUUID = libraryUUID
        self.point = point
        self.damage = damage
    }

    convenience init(libraryUUID: String, point: HistoryPoint) {
        self.init(libraryUUID: libraryUUID, point: point, damage: nil)
    }

    /// A token from decoded fields, damaged when any is missing or they do not match their checksum.
    private convenience init(
        decodedLibrary library: String?, changeBlock: Int64?, stamp: Int64?, opaque: Bool, tag: Int64?,
        version: Int64?, check: Int64?
    ) {
        let damage: String?
        if let library, let changeBlock, let stamp, let version {
            let point = HistoryPoint(changeBlock: changeBlock, stamp: stamp, isOpaque: opaque, tag: tag ?? 0)
            if version != Self.currentVersion {
                damage = "the change token has version \(version), which this build of Photos does not know"
            } else if check != Self.checksum(library, point) {
                damage = "the change token is damaged: its contents do not match their checksum"
            } else {
                self.init(libraryUUID: library, point: point, damage: nil)
                return
            }
        } else {
            damage = "the change token is damaged: parts of it are missing"
        }
        self.init(libraryUUID: "", point: HistoryPoint(changeBlock: -1, stamp: 0), damage: damage)
    }

    // MARK: - NSSecureCoding

    /// Tokens decode only as themselves, so they may be unarchived securely.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the token.
    public func encode(with coder: NSCoder) {
        coder.encode(libraryUUID as NSString, forKey: CodingKeys.library.rawValue)
        coder.encode(point.changeBlock, forKey: CodingKeys.changeBlock.rawValue)
        coder.encode(point.stamp, forKey: CodingKeys.stamp.rawValue)
        if point.isOpaque {
            coder.encode(true, forKey: CodingKeys.opaque.rawValue)
            coder.encode(point.tag, forKey: CodingKeys.tag.rawValue)
        }
        coder.encode(Self.currentVersion, forKey: CodingKeys.version.rawValue)
        coder.encode(Self.checksum(libraryUUID, point), forKey: CodingKeys.check.rawValue)
    }

    /// Unarchives a token. A damaged one decodes and is refused when used.
    public required convenience init?(coder: NSCoder) {
        func integer(_ key: CodingKeys) -> Int64? {
            coder.containsValue(forKey: key.rawValue) ? coder.decodeInt64(forKey: key.rawValue) : nil
        }
        self.init(
            decodedLibrary: coder.decodeObject(of: NSString.self, forKey: CodingKeys.library.rawValue) as String?,
            changeBlock: integer(.changeBlock), stamp: integer(.stamp), opaque: coder.decodeBool(forKey: CodingKeys.opaque.rawValue),
            tag: integer(.tag), version: integer(.version), check: integer(.check))
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case library, stamp, opaque, tag, version, check
        // The persisted key keeps the name the engine once gave a change block's number.
        case changeBlock = "transaction"
    }

    /// Encodes the token's library, state, version and checksum.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(libraryUUID, forKey: .library)
        try container.encode(point.changeBlock, forKey: .changeBlock)
        try container.encode(point.stamp, forKey: .stamp)
        if point.isOpaque {
            try container.encode(true, forKey: .opaque)
            try container.encode(point.tag, forKey: .tag)
        }
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(Self.checksum(libraryUUID, point), forKey: .check)
    }

    /// Decodes a token. A damaged one decodes and is refused when used.
    public required convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            decodedLibrary: try? container.decodeIfPresent(String.self, forKey: .library),
            changeBlock: try? container.decodeIfPresent(Int64.self, forKey: .changeBlock),
            stamp: try? container.decodeIfPresent(Int64.self, forKey: .stamp),
            opaque: (try? container.decodeIfPresent(Bool.self, forKey: .opaque)) == true,
            tag: try? container.decodeIfPresent(Int64.self, forKey: .tag),
            version: try? container.decodeIfPresent(Int64.self, forKey: .version),
            check: try? container.decodeIfPresent(Int64.self, forKey: .check))
    }

    /// FNV-1a over the fields, to notice a token damaged in storage. It is
    /// no defence against a client altering its token on purpose: an opaque
    /// token's tag is (``TokenCipher``).
    private static func checksum(_ library: String, _ point: HistoryPoint) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("\(library)|\(point.changeBlock)|\(point.stamp)\(point.isOpaque ? "|opaque|\(point.tag)" : "")".utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    // MARK: - Identity

    /// Tokens are immutable, so a copy is the token itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a token naming the same state of the same library.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHPersistentChangeToken else { return false }
        return other.libraryUUID == libraryUUID && other.point == point && other.damage == damage
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(libraryUUID)
        hasher.combine(point)
        return hasher.finalize()
    }

    /// Orders tokens of one library by the state they name, earlier first;
    /// tokens of different libraries order by library. The tokens of a
    /// client without read-write access are opaque, to keep the library's
    /// numbering of change blocks to itself: they order by an arbitrary,
    /// fixed value, not by time.
    public static func < (lhs: PHPersistentChangeToken, rhs: PHPersistentChangeToken) -> Bool {
        lhs.libraryUUID == rhs.libraryUUID
            ? lhs.point.changeBlock < rhs.point.changeBlock
            : lhs.libraryUUID < rhs.libraryUUID
    }

    public override var description: String {
        if let damage { return "<PHPersistentChangeToken> damaged: \(damage)" }
        return point.isOpaque
            ? "<PHPersistentChangeToken> library \(libraryUUID), an opaque state"
            : "<PHPersistentChangeToken> library \(libraryUUID), change block \(point.changeBlock)"
    }
}

// MARK: - Text

/// Tokens as text, an OpenPhotoKit addition for tools and servers that put
/// them in files, URLs and event streams: the Codable form, base64url-encoded.
extension PHPersistentChangeToken {
    /// The token as URL-safe text; the same token always reads the same.
    public var textRepresentation: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(self) else { return "" }
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The token `text` names; nil when it is not a token's text at all. An
    /// altered one decodes and is refused when used, as archives are.
    public convenience init?(textRepresentation text: String) {
        var base64 = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.utf8.count <= 4096, let data = Data(base64Encoded: base64),
            let token = try? JSONDecoder().decode(PHPersistentChangeToken.self, from: data)
        else { return nil }
        self.init(libraryUUID: token.libraryUUID, point: token.point, damage: token.damage)
    }
}
