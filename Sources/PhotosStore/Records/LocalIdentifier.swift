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
        guard text.utf8.count == 43, let uuid = UUID(uuidString: String(text.prefix(36))) else { return nil }
        let suffix = text.dropFirst(36)
        guard let entity = StoreEntity.allCases.first(where: { $0.identifierSuffix == suffix }) else { return nil }
        self.init(uuid: uuid.uuidString, entity: entity)
    }

    /// Parses an identifier a client hands to a fetch of `entity` objects:
    /// a whole one, or its bare UUID, as some clients strip the suffix
    /// before passing identifiers through scripts. Nil for anything else.
    package init?(_ text: String, fetching entity: StoreEntity) {
        if let whole = LocalIdentifier(text) {
            self = whole
        } else if text.utf8.count == 36, let uuid = UUID(uuidString: text) {
            self.init(uuid: uuid.uuidString, entity: entity)
        } else {
            return nil
        }
    }

    /// A new identifier with a random UUID.
    package static func make(_ entity: StoreEntity) -> LocalIdentifier {
        LocalIdentifier(uuid: UUID().uuidString, entity: entity)
    }

    /// The identifier as text. Cost: one allocation of its exact length
    /// (`+` would allocate for the UUID's length and grow).
    package var description: String {
        var suffix = entity.identifierSuffix, uuid = uuid
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
