import Foundation
import Photos

/// One change block of persistent history: the token after it, and the
/// local identifiers it inserted, updated and deleted, by object type.
struct ChangeRepresentation: Encodable, Sendable {
    struct Objects: Encodable, Sendable {
        let inserted: [String]
        let updated: [String]
        let deleted: [String]
    }

    let token: String
    let assets: Objects?
    let assetCollections: Objects?
    let collectionLists: Objects?
    /// True when the block touched more objects than history keeps details
    /// for: refetch what you track.
    let detailsUnavailable: Bool

    /// About how many bytes keeping it in memory costs: its strings, and
    /// what the arrays, the allocator and the struct itself add (measured:
    /// a one-asset change holds about 700 bytes).
    var memoryCost: Int {
        let identifiers = [assets, assetCollections, collectionLists].compactMap(\.self).flatMap { [$0.inserted, $0.updated, $0.deleted].joined() }
        return 512 + token.utf8.count + identifiers.reduce(0) { $0 + 32 + $1.utf8.count }
    }

    init(_ change: PHPersistentChange) {
        token = change.changeToken.textRepresentation
        var unavailable = false
        func objects(_ type: PHObjectType) -> Objects? {
            guard let details = try? change.changeDetails(for: type) else {
                unavailable = true
                return nil
            }
            return Objects(
                inserted: details.insertedLocalIdentifiers.sorted(), updated: details.updatedLocalIdentifiers.sorted(),
                deleted: details.deletedLocalIdentifiers.sorted())
        }
        assets = objects(.asset)
        assetCollections = objects(.assetCollection)
        collectionLists = objects(.collectionList)
        detailsUnavailable = unavailable
    }
}

/// A page of history: the changes, the token to read from next, and
/// whether more changes follow it already.
struct ChangePage: Encodable, Sendable {
    let changes: [ChangeRepresentation]
    let token: String
    let moreComing: Bool
}
