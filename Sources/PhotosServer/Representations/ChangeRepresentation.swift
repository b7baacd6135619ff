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

    /// How many identifiers it holds, what keeping it in memory costs.
    var identifierCount: Int {
        [assets, assetCollections, collectionLists].reduce(0) { $0 + ($1.map { $0.inserted.count + $0.updated.count + $0.deleted.count } ?? 0) }
    }

    init(_ change: PHPersistentChange) {
        token = change.changeToken.textRepresentation
        var unavailable = false
        func objects(_ type: PHObjectType) -> Objects? {
            guard let details = try? change.changeDetails(for: type) else {
                unavailable = true
                return nil
            }
            return Objects(inserted: details.insertedLocalIdentifiers.sorted(), updated: details.updatedLocalIdentifiers.sorted(),
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
