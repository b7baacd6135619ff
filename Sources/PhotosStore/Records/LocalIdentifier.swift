import Foundation

/// The kinds of objects the store holds. Raw values are PhotoKit's `PHObjectType`.
package enum StoreEntity: Int, Sendable, Hashable, CaseIterable {
    case asset = 1
    case assetCollection = 2
    case collectionList = 3

    /// The suffix Apple's Photos writes after the UUID of a local identifier.
    var identifierSuffix: String {
        switch self {
        case .asset: "/L0/001"
        case .assetCollection: "/L0/040"
        case .collectionList: "/L0/020"
        }
    }
}

/// A local identifier as Apple's Photos writes it: `UUID/L0/001` for assets,
/// `UUID/L0/040` for asset collections, `UUID/L0/020` for collection lists.
package struct LocalIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The uppercase UUID the store keys the object by.
    package let uuid: String
    package let entity: StoreEntity

    package init(uuid: String, entity: StoreEntity) {
        self.uuid = uuid
        self.entity = entity
    }

    /// Parses an identifier; nil when it does not have the shape above.
    package init?(_ text: String) {
        guard text.utf8.count == 43, let uuid = Self.canonicalUUID(text.utf8.prefix(36)) else { return nil }
        let suffix = text.utf8.dropFirst(36)
        guard let entity = StoreEntity.allCases.first(where: { $0.identifierSuffix.utf8.elementsEqual(suffix) }) else { return nil }
        self.init(uuid: uuid, entity: entity)
    }

    /// Parses an identifier a client hands to a fetch of `entity` objects:
    /// a whole one, or its bare UUID, as some clients strip the suffix
    /// before passing identifiers through scripts. Nil for anything else.
    package init?(_ text: String, fetching entity: StoreEntity) {
        if let whole = LocalIdentifier(text) {
            self = whole
        } else if text.utf8.count == 36, let uuid = Self.canonicalUUID(text.utf8[...]) {
            self.init(uuid: uuid, entity: entity)
        } else {
            return nil
        }
    }

    /// The UUID in `text` (`8-4-4-4-12` hexadecimal digits, either case) in
    /// upper case, as the store keys objects; nil for anything else. Read
    /// in one pass over the bytes: Foundation's `UUID(uuidString:)` and
    /// `uuidString` go through `sscanf` and `snprintf`, a few microseconds
    /// for each of the thousands of identifiers a change request is given.
    package static func canonicalUUID(_ text: Substring.UTF8View) -> String? {
        guard text.count == 36 else { return nil }
        var valid = true
        let uuid = String(unsafeUninitializedCapacity: 36) { buffer in
            for (offset, byte) in text.enumerated() {
                switch (offset, byte) {
                case (8, UInt8(ascii: "-")), (13, UInt8(ascii: "-")), (18, UInt8(ascii: "-")), (23, UInt8(ascii: "-")):
                    buffer[offset] = byte
                case (8, _), (13, _), (18, _), (23, _):
                    valid = false
                case (_, UInt8(ascii: "0")...UInt8(ascii: "9")), (_, UInt8(ascii: "A")...UInt8(ascii: "F")):
                    buffer[offset] = byte
                case (_, UInt8(ascii: "a")...UInt8(ascii: "f")):
                    buffer[offset] = byte - 32
                default:
                    valid = false
                }
                if !valid { return 0 }
            }
            return 36
        }
        return valid ? uuid : nil
    }

    /// A new identifier with a random UUID.
    package static func make(_ entity: StoreEntity) -> LocalIdentifier {
        LocalIdentifier(uuid: UUID().uuidString, entity: entity)
    }

    /// The identifier as text. Cost: one allocation of its exact length
    /// (`+` would allocate for the UUID's length and grow).
    package var description: String {
        var suffix = entity.identifierSuffix
        var uuid = uuid
        return uuid.withUTF8 { uuidBytes in
            suffix.withUTF8 { suffixBytes in
                String(unsafeUninitializedCapacity: uuidBytes.count + suffixBytes.count) { buffer in
                    let end = buffer.initialize(fromContentsOf: uuidBytes)
                    return buffer[end...].initialize(fromContentsOf: suffixBytes)
                }
            }
        }
    }
}
