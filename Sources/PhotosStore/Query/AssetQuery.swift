import Foundation

/// Which assets a fetch starts from, before its filter.
package enum AssetScope: Sendable, Hashable {
    /// Every asset of the library.
    case library
    /// The assets with these UUIDs, in this order.
    case uuids([String])
    /// The assets with these row ids, in this order (transient collections).
    case rowIDs([Int64])
    /// The members of a regular album, in the album's order.
    case album(rowID: Int64)
    /// The members of a smart album.
    case smartAlbum(subtype: SmartAlbumSubtype)
    /// The photos of one burst.
    case burst(identifier: String)
    /// Assets created within a closed date range (moments).
    case creationDateRange(start: Date, end: Date)
    /// The assets a search matches (``SearchQuery``), best matches first,
    /// then newest first.
    case search(SearchMatch)
    /// The assets holding a face of the person with this UUID.
    case person(uuid: String)
}

/// An asset fetch: a scope, PhotoKit's inclusion rules, a filter, an order.
package struct AssetQuery: Sendable, Hashable {
    package var scope: AssetScope
    package var filter: StoreFilter<AssetAttribute>
    /// Empty: the scope's natural order.
    package var sort: [StoreSort<AssetAttribute>]
    /// 0: no limit.
    package var limit: Int
    package var includeHiddenAssets: Bool
    package var includeAllBurstAssets: Bool
    /// Empty: the scope decides.
    package var sourceTypes: AssetSourceTypes

    package init(
        scope: AssetScope, filter: StoreFilter<AssetAttribute> = .all,
        sort: [StoreSort<AssetAttribute>] = [], limit: Int = 0,
        includeHiddenAssets: Bool = false, includeAllBurstAssets: Bool = false, sourceTypes: AssetSourceTypes = []
    ) {
        self.scope = scope
        self.filter = filter
        self.sort = sort
        self.limit = limit
        self.includeHiddenAssets = includeHiddenAssets
        self.includeAllBurstAssets = includeAllBurstAssets
        self.sourceTypes = sourceTypes
    }
}

/// Which collections a fetch starts from, before its filter.
package enum CollectionScope: Sendable, Hashable {
    /// Stored collections of a type and subtype (nil: any).
    case stored(CollectionType, subtype: Int?)
    /// The collections with these UUIDs, in this order.
    case uuids([String], kind: CollectionKind?)
    /// The children of a folder, or the top-level user albums and folders when nil.
    case children(ofRowID: Int64?)
    /// The regular albums that contain an asset.
    case albumsContaining(assetRowID: Int64)
    /// The folder that holds a collection (at most one).
    case parent(ofRowID: Int64)
}

/// A collection fetch.
package struct CollectionQuery: Sendable, Hashable {
    package var scope: CollectionScope
    package var filter: StoreFilter<CollectionAttribute>
    package var sort: [StoreSort<CollectionAttribute>]
    package var limit: Int

    package init(
        scope: CollectionScope, filter: StoreFilter<CollectionAttribute> = .all,
        sort: [StoreSort<CollectionAttribute>] = [], limit: Int = 0
    ) {
        self.scope = scope
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }
}
